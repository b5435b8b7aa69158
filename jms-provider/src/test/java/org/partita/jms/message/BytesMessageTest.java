package org.partita.jms.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotReadableException;
import jakarta.jms.MessageNotWriteableException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BytesMessageTest {

    private static PartitaBytesMessage written(byte... bytes) throws JMSException {
        PartitaBytesMessage m = new PartitaBytesMessage();
        m.writeBytes(bytes);
        return m;
    }

    @Test
    void newMessageIsWriteOnly() {
        PartitaBytesMessage m = new PartitaBytesMessage();
        assertThrows(MessageNotReadableException.class, m::readByte);
        assertThrows(MessageNotReadableException.class, m::readBoolean);
        assertThrows(MessageNotReadableException.class, m::readInt);
        assertThrows(MessageNotReadableException.class, m::readUTF);
        assertThrows(MessageNotReadableException.class, () -> m.readBytes(new byte[1]));
        assertThrows(MessageNotReadableException.class, () -> m.readBytes(new byte[1], 1));
        assertThrows(MessageNotReadableException.class, m::getBodyLength);
    }

    @Test
    void afterResetTheMessageIsReadOnly() throws JMSException {
        PartitaBytesMessage m = written((byte) 1);
        m.reset();
        assertThrows(MessageNotWriteableException.class, () -> m.writeBoolean(true));
        assertThrows(MessageNotWriteableException.class, () -> m.writeByte((byte) 1));
        assertThrows(MessageNotWriteableException.class, () -> m.writeShort((short) 1));
        assertThrows(MessageNotWriteableException.class, () -> m.writeChar('c'));
        assertThrows(MessageNotWriteableException.class, () -> m.writeInt(1));
        assertThrows(MessageNotWriteableException.class, () -> m.writeLong(1));
        assertThrows(MessageNotWriteableException.class, () -> m.writeFloat(1));
        assertThrows(MessageNotWriteableException.class, () -> m.writeDouble(1));
        assertThrows(MessageNotWriteableException.class, () -> m.writeUTF("x"));
        assertThrows(MessageNotWriteableException.class, () -> m.writeBytes(new byte[1]));
        assertThrows(MessageNotWriteableException.class, () -> m.writeBytes(new byte[1], 0, 1));
        assertThrows(MessageNotWriteableException.class, () -> m.writeObject(1));
        assertEquals(1, m.readByte());
    }

    @Test
    void everyTypeReadsBackInOrder() throws JMSException {
        PartitaBytesMessage m = new PartitaBytesMessage();
        m.writeBoolean(true);
        m.writeByte((byte) -2);
        m.writeShort((short) -3);
        m.writeChar('z');
        m.writeInt(-4);
        m.writeLong(Long.MAX_VALUE);
        m.writeFloat(1.5f);
        m.writeDouble(-2.25);
        m.writeUTF("grüße 日本");
        m.writeBytes(new byte[] {9, 8});
        m.writeBytes(new byte[] {0, 7, 6, 0}, 1, 2);
        m.reset();
        assertTrue(m.readBoolean());
        assertEquals(-2, m.readByte());
        assertEquals(-3, m.readShort());
        assertEquals('z', m.readChar());
        assertEquals(-4, m.readInt());
        assertEquals(Long.MAX_VALUE, m.readLong());
        assertEquals(1.5f, m.readFloat());
        assertEquals(-2.25, m.readDouble());
        assertEquals("grüße 日本", m.readUTF());
        byte[] rest = new byte[10];
        assertEquals(4, m.readBytes(rest));
        assertArrayEquals(new byte[] {9, 8, 7, 6}, java.util.Arrays.copyOf(rest, 4));
        assertEquals(-1, m.readBytes(rest));
    }

    @Test
    void unsignedReads() throws JMSException {
        PartitaBytesMessage m = written((byte) 0xff, (byte) 0xff, (byte) 0xfe);
        m.reset();
        assertEquals(255, m.readUnsignedByte());
        assertEquals(0xfffe, m.readUnsignedShort());
    }

    @Test
    void bodyLengthCountsAllBytesWhateverThePosition() throws JMSException {
        PartitaBytesMessage m = new PartitaBytesMessage();
        m.writeInt(1);
        m.writeLong(2);
        m.reset();
        assertEquals(12, m.getBodyLength());
        m.readInt();
        assertEquals(12, m.getBodyLength());
    }

    @Test
    void readBytesHandsOutChunksThenMinusOne() throws JMSException {
        PartitaBytesMessage m = written(new byte[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
        m.reset();
        byte[] buffer = new byte[4];
        assertEquals(4, m.readBytes(buffer));
        assertArrayEquals(new byte[] {0, 1, 2, 3}, buffer);
        assertEquals(4, m.readBytes(buffer));
        assertArrayEquals(new byte[] {4, 5, 6, 7}, buffer);
        assertEquals(2, m.readBytes(buffer));
        assertEquals(8, buffer[0]);
        assertEquals(9, buffer[1]);
        assertEquals(-1, m.readBytes(buffer));
        assertEquals(-1, m.readBytes(buffer));
    }

    @Test
    void readBytesWithLength() throws JMSException {
        PartitaBytesMessage m = written(new byte[] {1, 2, 3, 4, 5});
        m.reset();
        byte[] buffer = new byte[10];
        assertEquals(2, m.readBytes(buffer, 2));
        assertEquals(1, buffer[0]);
        assertEquals(2, buffer[1]);
        assertEquals(0, buffer[2]);
        assertEquals(3, m.readBytes(buffer, 10));
        assertEquals(-1, m.readBytes(buffer, 10));
    }

    @Test
    void readBytesWithLengthLargerThanBufferOrNegativeIsRejected() throws JMSException {
        PartitaBytesMessage m = written(new byte[] {1, 2, 3});
        m.reset();
        assertThrows(IndexOutOfBoundsException.class, () -> m.readBytes(new byte[2], 3));
        assertThrows(IndexOutOfBoundsException.class, () -> m.readBytes(new byte[2], -1));
        assertEquals(1, m.readByte());
    }

    @Test
    void readBytesOnEmptyBodyIsMinusOne() throws JMSException {
        PartitaBytesMessage m = new PartitaBytesMessage();
        m.reset();
        assertEquals(-1, m.readBytes(new byte[4]));
        assertEquals(0, m.getBodyLength());
    }

    @Test
    void readPastTheEndIsAnEofAndKeepsThePosition() throws JMSException {
        PartitaBytesMessage m = new PartitaBytesMessage();
        m.writeShort((short) 42);
        m.reset();
        assertThrows(MessageEOFException.class, m::readInt);
        assertThrows(MessageEOFException.class, m::readLong);
        assertThrows(MessageEOFException.class, m::readDouble);
        assertEquals(42, m.readShort());
        assertThrows(MessageEOFException.class, m::readByte);
        assertThrows(MessageEOFException.class, m::readBoolean);
        assertThrows(MessageEOFException.class, m::readChar);
        assertThrows(MessageEOFException.class, m::readUTF);
        assertThrows(MessageEOFException.class, m::readUnsignedByte);
        assertThrows(MessageEOFException.class, m::readFloat);
    }

    @Test
    void malformedUtfIsAFormatErrorAndKeepsThePosition() throws JMSException {
        PartitaBytesMessage m = new PartitaBytesMessage();
        m.writeShort((short) 2);
        m.writeByte((byte) 0xC3);
        m.writeByte((byte) 0x20); // not a continuation byte
        m.reset();
        assertThrows(MessageFormatException.class, m::readUTF);
        assertEquals(2, m.readShort());
    }

    @Test
    void resetRewinds() throws JMSException {
        PartitaBytesMessage m = written((byte) 5, (byte) 6);
        m.reset();
        assertEquals(5, m.readByte());
        m.reset();
        assertEquals(5, m.readByte());
        assertEquals(6, m.readByte());
    }

    @Test
    void clearBodyEmptiesAndReturnsToWriteMode() throws JMSException {
        PartitaBytesMessage m = written((byte) 5);
        m.reset();
        m.clearBody();
        assertThrows(MessageNotReadableException.class, m::readByte);
        m.writeByte((byte) 7);
        m.reset();
        assertEquals(1, m.getBodyLength());
        assertEquals(7, m.readByte());
    }

    @Test
    void writeObjectAcceptsWrappersStringAndBytes() throws JMSException {
        PartitaBytesMessage m = new PartitaBytesMessage();
        m.writeObject(true);
        m.writeObject((byte) 1);
        m.writeObject((short) 2);
        m.writeObject('c');
        m.writeObject(3);
        m.writeObject(4L);
        m.writeObject(5f);
        m.writeObject(6d);
        m.writeObject("seven");
        m.writeObject(new byte[] {8});
        m.reset();
        assertTrue(m.readBoolean());
        assertEquals(1, m.readByte());
        assertEquals(2, m.readShort());
        assertEquals('c', m.readChar());
        assertEquals(3, m.readInt());
        assertEquals(4L, m.readLong());
        assertEquals(5f, m.readFloat());
        assertEquals(6d, m.readDouble());
        assertEquals("seven", m.readUTF());
        assertEquals(8, m.readByte());
        assertEquals(-1, m.readBytes(new byte[1]));
    }

    @Test
    void writeObjectRejectsOtherTypesAndNull() throws JMSException {
        PartitaBytesMessage m = new PartitaBytesMessage();
        assertThrows(MessageFormatException.class, () -> m.writeObject(new Object()));
        assertThrows(MessageFormatException.class, () -> m.writeObject(new java.util.Date()));
        assertThrows(NullPointerException.class, () -> m.writeObject(null));
        m.reset();
        assertEquals(0, m.getBodyLength());
    }

    @Test
    void receivedMessageIsReadOnlyAndAtTheStart() throws JMSException {
        PartitaBytesMessage sent = new PartitaBytesMessage();
        sent.writeInt(77);
        BytesMessage m = (BytesMessage) TestMessages.received(sent);
        assertEquals(4, m.getBodyLength());
        assertEquals(77, m.readInt());
        assertThrows(MessageNotWriteableException.class, () -> m.writeInt(1));
        m.clearBody();
        m.writeInt(2);
        m.reset();
        assertEquals(2, m.readInt());
    }

    @Test
    void sendingDoesNotRequireReset() throws JMSException {
        PartitaBytesMessage m = written((byte) 1, (byte) 2);
        BytesMessage received = (BytesMessage) TestMessages.received(m);
        assertEquals(2, received.getBodyLength());
        m.writeByte((byte) 3); // the sender's copy is still writable
    }

    /**
     * A body whose buffer is exactly full is sent without a copy: what is written after a send must
     * not change what that send carried, nor what a later send carries.
     */
    @Test
    void writesAfterASendDoNotChangeWhatWasSent() throws JMSException {
        byte[] first = new byte[32]; // the write buffer's first size: exactly full
        java.util.Arrays.fill(first, (byte) 7);
        PartitaBytesMessage m = written(first);
        byte[] sent = m.toWire().body();
        m.writeBytes(new byte[] {8, 9});
        byte[] sentAgain = m.toWire().body();
        m.writeByte((byte) 10);
        assertArrayEquals(first, sent);
        assertEquals(34, sentAgain.length);
        assertEquals(9, sentAgain[33]);
        m.reset();
        assertEquals(35, m.getBodyLength());
        assertArrayEquals(first, sent);
    }

    @Test
    void getBodyReturnsACopyInEitherModeWithoutMovingThePosition() throws JMSException {
        PartitaBytesMessage m = written((byte) 1, (byte) 2);
        assertArrayEquals(new byte[] {1, 2}, m.getBody(byte[].class));
        m.reset();
        assertEquals(1, m.readByte());
        byte[] body = m.getBody(byte[].class);
        assertArrayEquals(new byte[] {1, 2}, body);
        body[1] = 99;
        assertEquals(2, m.readByte());
        assertArrayEquals(new byte[] {1, 2}, (byte[]) m.getBody(Object.class));
        assertTrue(m.isBodyAssignableTo(byte[].class));
        assertTrue(m.isBodyAssignableTo(Object.class));
        assertFalse(m.isBodyAssignableTo(String.class));
        assertThrows(MessageFormatException.class, () -> m.getBody(String.class));
        assertThrows(MessageFormatException.class, () -> m.getBody(Map.class));
    }

    @Test
    void emptyBytesMessageHasNoBody() throws JMSException {
        PartitaBytesMessage m = new PartitaBytesMessage();
        assertNull(m.getBody(byte[].class));
        assertNull(m.getBody(String.class));
        assertTrue(m.isBodyAssignableTo(String.class));
    }
}
