package org.partita.jms.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotReadableException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.StreamMessage;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.partita.jms.message.ConversionTable.Kind;

/** StreamMessage: the conversion table of spec section 3.11.3, modes, readBytes and the position rules. */
class StreamMessageTest {

    static void write(StreamMessage m, Kind kind, Object value) throws JMSException {
        switch (kind) {
            case BOOLEAN -> m.writeBoolean((Boolean) value);
            case BYTE -> m.writeByte((Byte) value);
            case SHORT -> m.writeShort((Short) value);
            case CHAR -> m.writeChar((Character) value);
            case INT -> m.writeInt((Integer) value);
            case LONG -> m.writeLong((Long) value);
            case FLOAT -> m.writeFloat((Float) value);
            case DOUBLE -> m.writeDouble((Double) value);
            case STRING -> m.writeString((String) value);
            case BYTES -> m.writeBytes((byte[]) value);
        }
    }

    static Object read(StreamMessage m, Kind kind) throws JMSException {
        return switch (kind) {
            case BOOLEAN -> m.readBoolean();
            case BYTE -> m.readByte();
            case SHORT -> m.readShort();
            case CHAR -> m.readChar();
            case INT -> m.readInt();
            case LONG -> m.readLong();
            case FLOAT -> m.readFloat();
            case DOUBLE -> m.readDouble();
            case STRING -> m.readString();
            case BYTES -> {
                byte[] buffer = new byte[16];
                int n = m.readBytes(buffer);
                yield n < 0 ? null : Arrays.copyOf(buffer, n);
            }
        };
    }

    static void assertCell(StreamMessage m, Kind from, Kind to) throws JMSException {
        Object expected = ConversionTable.expected(from, to);
        if (expected == ConversionTable.FAILS) {
            assertThrows(MessageFormatException.class, () -> read(m, to));
            // A failed conversion does not consume the value.
            Object value = m.readObject();
            if (value instanceof byte[] bytes) {
                assertArrayEquals((byte[]) ConversionTable.sample(from), bytes);
            } else {
                assertEquals(ConversionTable.sample(from), value);
            }
        } else if (expected instanceof byte[] bytes) {
            assertArrayEquals(bytes, (byte[]) read(m, to));
        } else {
            assertEquals(expected, read(m, to));
        }
        assertThrows(MessageEOFException.class, m::readObject);
    }

    @ParameterizedTest(name = "{0} read as {1}")
    @MethodSource("org.partita.jms.message.ConversionTable#bodyCells")
    void conversionTableCell(Kind from, Kind to) throws JMSException {
        PartitaStreamMessage m = new PartitaStreamMessage();
        write(m, from, ConversionTable.sample(from));
        m.reset();
        assertCell(m, from, to);
    }

    @ParameterizedTest(name = "{0} read as {1} after receipt")
    @MethodSource("org.partita.jms.message.ConversionTable#bodyCells")
    void conversionTableCellSurvivesTheWire(Kind from, Kind to) throws JMSException {
        PartitaStreamMessage sent = new PartitaStreamMessage();
        write(sent, from, ConversionTable.sample(from));
        assertCell((StreamMessage) TestMessages.received(sent), from, to);
    }

    @Test
    void numberFormatExceptionKeepsThePosition() throws JMSException {
        PartitaStreamMessage m = new PartitaStreamMessage();
        m.writeString("abc");
        m.reset();
        assertThrows(NumberFormatException.class, m::readInt);
        assertThrows(NumberFormatException.class, m::readLong);
        assertThrows(NumberFormatException.class, m::readDouble);
        assertEquals("abc", m.readString());
    }

    @Test
    void nullValueConversions() throws JMSException {
        PartitaStreamMessage m = new PartitaStreamMessage();
        for (int i = 0; i < 4; i++) {
            m.writeObject(null);
        }
        m.reset();
        assertThrows(NumberFormatException.class, m::readInt);
        assertThrows(NullPointerException.class, m::readChar);
        assertThrows(NullPointerException.class, m::readFloat);
        assertNull(m.readString());
        assertFalse(m.readBoolean());
        assertNull(m.readObject());
        assertEquals(-1, m.readBytes(new byte[2]));
        assertThrows(MessageEOFException.class, m::readObject);
    }

    @Test
    void everyTypeReadsBackThroughReadObject() throws JMSException {
        PartitaStreamMessage m = new PartitaStreamMessage();
        for (Kind k : Kind.values()) {
            write(m, k, ConversionTable.sample(k));
        }
        m.reset();
        for (Kind k : Kind.values()) {
            Object v = m.readObject();
            if (k == Kind.BYTES) {
                assertArrayEquals((byte[]) ConversionTable.sample(k), (byte[]) v);
            } else {
                assertEquals(ConversionTable.sample(k), v);
            }
        }
    }

    @Test
    void newMessageIsWriteOnly() {
        PartitaStreamMessage m = new PartitaStreamMessage();
        assertThrows(MessageNotReadableException.class, m::readBoolean);
        assertThrows(MessageNotReadableException.class, m::readByte);
        assertThrows(MessageNotReadableException.class, m::readShort);
        assertThrows(MessageNotReadableException.class, m::readChar);
        assertThrows(MessageNotReadableException.class, m::readInt);
        assertThrows(MessageNotReadableException.class, m::readLong);
        assertThrows(MessageNotReadableException.class, m::readFloat);
        assertThrows(MessageNotReadableException.class, m::readDouble);
        assertThrows(MessageNotReadableException.class, m::readString);
        assertThrows(MessageNotReadableException.class, m::readObject);
        assertThrows(MessageNotReadableException.class, () -> m.readBytes(new byte[1]));
    }

    @Test
    void afterResetTheMessageIsReadOnly() throws JMSException {
        PartitaStreamMessage m = new PartitaStreamMessage();
        m.writeInt(1);
        m.reset();
        assertThrows(MessageNotWriteableException.class, () -> m.writeBoolean(true));
        assertThrows(MessageNotWriteableException.class, () -> m.writeByte((byte) 1));
        assertThrows(MessageNotWriteableException.class, () -> m.writeShort((short) 1));
        assertThrows(MessageNotWriteableException.class, () -> m.writeChar('c'));
        assertThrows(MessageNotWriteableException.class, () -> m.writeInt(1));
        assertThrows(MessageNotWriteableException.class, () -> m.writeLong(1));
        assertThrows(MessageNotWriteableException.class, () -> m.writeFloat(1));
        assertThrows(MessageNotWriteableException.class, () -> m.writeDouble(1));
        assertThrows(MessageNotWriteableException.class, () -> m.writeString("x"));
        assertThrows(MessageNotWriteableException.class, () -> m.writeBytes(new byte[1]));
        assertThrows(MessageNotWriteableException.class, () -> m.writeBytes(new byte[1], 0, 1));
        assertThrows(MessageNotWriteableException.class, () -> m.writeObject(1));
        assertEquals(1, m.readInt());
    }

    @Test
    void endOfStreamIsAnEofForEveryRead() throws JMSException {
        PartitaStreamMessage m = new PartitaStreamMessage();
        m.reset();
        assertThrows(MessageEOFException.class, m::readBoolean);
        assertThrows(MessageEOFException.class, m::readInt);
        assertThrows(MessageEOFException.class, m::readString);
        assertThrows(MessageEOFException.class, m::readObject);
        assertThrows(MessageEOFException.class, () -> m.readBytes(new byte[1]));
    }

    @Test
    void resetRewindsAndClearBodyEmpties() throws JMSException {
        PartitaStreamMessage m = new PartitaStreamMessage();
        m.writeInt(1);
        m.writeInt(2);
        m.reset();
        assertEquals(1, m.readInt());
        m.reset();
        assertEquals(1, m.readInt());
        assertEquals(2, m.readInt());
        m.clearBody();
        assertThrows(MessageNotReadableException.class, m::readInt);
        m.writeInt(3);
        m.reset();
        assertEquals(3, m.readInt());
        assertThrows(MessageEOFException.class, m::readInt);
    }

    @Test
    void readBytesInPiecesEndsWithAShortCount() throws JMSException {
        PartitaStreamMessage m = new PartitaStreamMessage();
        m.writeBytes(new byte[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
        m.writeInt(42);
        m.reset();
        byte[] buffer = new byte[4];
        assertEquals(4, m.readBytes(buffer));
        assertArrayEquals(new byte[] {0, 1, 2, 3}, buffer);
        assertEquals(4, m.readBytes(buffer));
        assertArrayEquals(new byte[] {4, 5, 6, 7}, buffer);
        assertEquals(2, m.readBytes(buffer));
        assertEquals(8, buffer[0]);
        assertEquals(9, buffer[1]);
        // 2 < 4: the value is finished and the next one can be read.
        assertEquals(42, m.readInt());
    }

    @Test
    void readBytesThatExactlyFillsTheBufferIsFollowedByMinusOne() throws JMSException {
        PartitaStreamMessage m = new PartitaStreamMessage();
        m.writeBytes(new byte[] {1, 2, 3, 4});
        m.writeBytes(new byte[] {5});
        m.reset();
        byte[] buffer = new byte[4];
        assertEquals(4, m.readBytes(buffer));
        assertThrows(MessageFormatException.class, m::readObject);
        assertEquals(-1, m.readBytes(buffer));
        assertEquals(1, m.readBytes(buffer));
        assertEquals(5, buffer[0]);
        assertThrows(MessageEOFException.class, () -> m.readBytes(buffer));
    }

    @Test
    void readBytesOfNullAndEmptyValues() throws JMSException {
        PartitaStreamMessage m = new PartitaStreamMessage();
        m.writeBytes(null);
        m.writeBytes(new byte[0]);
        m.writeString("after");
        m.reset();
        assertEquals(-1, m.readBytes(new byte[3]));
        assertEquals(0, m.readBytes(new byte[3]));
        assertEquals("after", m.readString());
    }

    @Test
    void otherReadsFailWhileABytesValueIsHalfRead() throws JMSException {
        PartitaStreamMessage m = new PartitaStreamMessage();
        m.writeBytes(new byte[] {1, 2, 3});
        m.reset();
        assertEquals(2, m.readBytes(new byte[2]));
        assertThrows(MessageFormatException.class, m::readInt);
        assertThrows(MessageFormatException.class, m::readString);
        assertThrows(MessageFormatException.class, m::readObject);
        byte[] rest = new byte[2];
        assertEquals(1, m.readBytes(rest));
        assertEquals(3, rest[0]);
    }

    @Test
    void readBytesOnAnotherTypeIsAFormatErrorAndKeepsThePosition() throws JMSException {
        PartitaStreamMessage m = new PartitaStreamMessage();
        m.writeString("s");
        m.reset();
        assertThrows(MessageFormatException.class, () -> m.readBytes(new byte[1]));
        assertEquals("s", m.readString());
    }

    @Test
    void resetAbandonsAHalfReadBytesValue() throws JMSException {
        PartitaStreamMessage m = new PartitaStreamMessage();
        m.writeBytes(new byte[] {1, 2, 3});
        m.reset();
        m.readBytes(new byte[1]);
        m.reset();
        assertArrayEquals(new byte[] {1, 2, 3}, (byte[]) m.readObject());
    }

    @Test
    void writtenBytesAreCopied() throws JMSException {
        PartitaStreamMessage m = new PartitaStreamMessage();
        byte[] value = {1, 2};
        m.writeBytes(value);
        m.writeBytes(new byte[] {0, 3, 4, 0}, 1, 2);
        m.writeObject(value);
        value[0] = 9;
        m.reset();
        assertArrayEquals(new byte[] {1, 2}, (byte[]) m.readObject());
        assertArrayEquals(new byte[] {3, 4}, (byte[]) m.readObject());
        assertArrayEquals(new byte[] {1, 2}, (byte[]) m.readObject());
    }

    @Test
    void writeObjectRejectsOtherTypes() throws JMSException {
        PartitaStreamMessage m = new PartitaStreamMessage();
        assertThrows(MessageFormatException.class, () -> m.writeObject(new Object()));
        assertThrows(MessageFormatException.class, () -> m.writeObject(new int[] {1}));
        m.reset();
        assertThrows(MessageEOFException.class, m::readObject);
    }

    @Test
    void receivedStreamIsReadOnlyAndAtTheStart() throws JMSException {
        PartitaStreamMessage sent = new PartitaStreamMessage();
        sent.writeInt(5);
        sent.writeString("x");
        StreamMessage m = (StreamMessage) TestMessages.received(sent);
        assertEquals(5, m.readInt());
        assertEquals("x", m.readString());
        assertThrows(MessageNotWriteableException.class, () -> m.writeInt(1));
        m.clearBody();
        m.writeInt(6);
        m.reset();
        assertEquals(6, m.readInt());
    }

    @Test
    void getBodyIsNotSupported() throws JMSException {
        PartitaStreamMessage m = new PartitaStreamMessage();
        assertThrows(MessageFormatException.class, () -> m.getBody(Object.class));
        assertFalse(m.isBodyAssignableTo(Object.class));
        m.writeInt(1);
        assertThrows(MessageFormatException.class, () -> m.getBody(Object.class));
        assertFalse(m.isBodyAssignableTo(Object.class));
        assertTrue(m.toWire().body().length > 0);
    }
}
