package org.partita.tck.messages;

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
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import java.util.HashMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.partita.tck.support.KnownDeviation;
import org.partita.tck.support.TckTest;

/** Jakarta Messaging 3.1, sections 3.11 and 3.11.3: StreamMessage and its conversions. */
class StreamMessageTest extends TckTest {

    @Test
    @DisplayName("3.11: every supported type written to a StreamMessage reads back in order after delivery")
    void everyTypeRoundTrip() throws JMSException {
        Session s = session();
        StreamMessage m = s.createStreamMessage();
        m.writeBoolean(false);
        m.writeByte((byte) 1);
        m.writeShort((short) 2);
        m.writeChar('c');
        m.writeInt(4);
        m.writeLong(5L);
        m.writeFloat(6.5f);
        m.writeDouble(7.25);
        m.writeString("eight");
        m.writeBytes(new byte[] {9, 10});
        m.writeObject("object");
        StreamMessage r = roundTrip(s, m);
        assertFalse(r.readBoolean());
        assertEquals((byte) 1, r.readByte());
        assertEquals((short) 2, r.readShort());
        assertEquals('c', r.readChar());
        assertEquals(4, r.readInt());
        assertEquals(5L, r.readLong());
        assertEquals(6.5f, r.readFloat());
        assertEquals(7.25, r.readDouble());
        assertEquals("eight", r.readString());
        byte[] buf = new byte[10];
        assertEquals(2, r.readBytes(buf));
        assertEquals("object", r.readObject());
    }

    @Test
    @DisplayName("10.3: reading past the end of a StreamMessage throws MessageEOFException")
    void readPastEnd() throws JMSException {
        Session s = session();
        StreamMessage m = s.createStreamMessage();
        m.writeInt(1);
        StreamMessage r = roundTrip(s, m);
        r.readInt();
        assertThrows(MessageEOFException.class, r::readInt);
    }

    @Test
    @DisplayName("10.3: readShort on a boolean throws MessageFormatException")
    void readShortOfBoolean() throws JMSException {
        Session s = session();
        StreamMessage m = s.createStreamMessage();
        m.writeBoolean(true);
        StreamMessage r = roundTrip(s, m);
        assertThrows(MessageFormatException.class, r::readShort);
    }

    @Test
    @KnownDeviation(
            provider = "artemis",
            reason = "3.11.3: after a read of a StreamMessage fails with "
                    + "MessageFormatException, Artemis has already consumed the field's type byte, so the next read "
                    + "starts at the wrong position")
    @DisplayName("3.11.3: a failed conversion (MessageFormatException) does not move the read position")
    void formatErrorKeepsPosition() throws JMSException {
        Session s = session();
        StreamMessage m = s.createStreamMessage();
        m.writeBoolean(true);
        m.writeInt(2);
        StreamMessage r = roundTrip(s, m);
        assertThrows(MessageFormatException.class, r::readLong);
        assertTrue(r.readBoolean());
        assertEquals(2, r.readInt());
    }

    @Test
    @KnownDeviation(
            provider = "artemis",
            reason = "3.11.3: after readInt of a non-numeric String fails with "
                    + "NumberFormatException, Artemis has consumed the String, so it cannot be read again")
    @DisplayName(
            "3.11.3: a failed String-to-number conversion (NumberFormatException) does not move the " + "read position")
    void numberFormatErrorKeepsPosition() throws JMSException {
        Session s = session();
        StreamMessage m = s.createStreamMessage();
        m.writeString("not a number");
        StreamMessage r = roundTrip(s, m);
        assertThrows(NumberFormatException.class, r::readInt);
        assertEquals("not a number", r.readString());
    }

    @Test
    @DisplayName("3.11.3: widening conversions and conversions to String are supported")
    void conversions() throws JMSException {
        Session s = session();
        StreamMessage m = s.createStreamMessage();
        m.writeByte((byte) 3);
        m.writeShort((short) 4);
        m.writeFloat(1.5f);
        m.writeInt(9);
        m.writeString("12");
        m.writeString("true");
        StreamMessage r = roundTrip(s, m);
        assertEquals(3L, r.readLong());
        assertEquals(4, r.readInt());
        assertEquals(1.5, r.readDouble());
        assertEquals("9", r.readString());
        assertEquals((short) 12, r.readShort());
        assertTrue(r.readBoolean());
    }

    @Test
    @DisplayName("3.11.3: narrowing conversions throw MessageFormatException")
    void narrowingRefused() throws JMSException {
        StreamMessage m = connection().createSession().createStreamMessage();
        m.writeLong(1);
        m.reset();
        assertThrows(MessageFormatException.class, m::readInt);
    }

    @Test
    @DisplayName("3.11.3: a char reads as String")
    void charToString() throws JMSException {
        StreamMessage m = connection().createSession().createStreamMessage();
        m.writeChar('k');
        m.reset();
        assertEquals("k", m.readString());
    }

    @Test
    @DisplayName("3.11.3: a char does not read as a number (MessageFormatException)")
    void charNotNumber() throws JMSException {
        StreamMessage m = connection().createSession().createStreamMessage();
        m.writeChar('k');
        m.reset();
        assertThrows(MessageFormatException.class, m::readInt);
    }

    @Test
    @DisplayName("3.12: a null written with writeObject or writeString reads back as null")
    void nullValue() throws JMSException {
        Session s = session();
        StreamMessage m = s.createStreamMessage();
        m.writeObject(null);
        m.writeString(null);
        StreamMessage r = roundTrip(s, m);
        assertNull(r.readObject());
        assertNull(r.readString());
    }

    @Test
    @DisplayName("3.11.3: a null read as int is treated as Integer.valueOf(null): NumberFormatException")
    void nullAsInt() throws JMSException {
        Session s = session();
        StreamMessage m = s.createStreamMessage();
        m.writeString(null);
        StreamMessage r = roundTrip(s, m);
        assertThrows(NumberFormatException.class, r::readInt);
    }

    @Test
    @DisplayName("StreamMessage.writeObject: an unsupported class is refused with MessageFormatException (10.3)")
    void writeUnsupportedObject() throws JMSException {
        StreamMessage m = connection().createSession().createStreamMessage();
        assertThrows(MessageFormatException.class, () -> m.writeObject(new HashMap<String, String>()));
    }

    @Test
    @DisplayName("10.3: reading a new StreamMessage before reset() throws MessageNotReadableException")
    void writeOnlyUntilReset() throws JMSException {
        StreamMessage m = connection().createSession().createStreamMessage();
        m.writeInt(1);
        assertThrows(MessageNotReadableException.class, m::readInt);
    }

    @Test
    @DisplayName("3.11.2: the body of a received StreamMessage is read-only (MessageNotWriteableException)")
    void receivedReadOnly() throws JMSException {
        Session s = session();
        StreamMessage r = roundTrip(s, s.createStreamMessage());
        assertThrows(MessageNotWriteableException.class, () -> r.writeInt(1));
    }

    @Test
    @DisplayName("3.11.1: clearBody empties a received StreamMessage and makes it writable")
    void clearBody() throws JMSException {
        Session s = session();
        StreamMessage m = s.createStreamMessage();
        m.writeInt(1);
        StreamMessage r = roundTrip(s, m);
        r.clearBody();
        r.writeString("new");
        r.reset();
        assertEquals("new", r.readString());
        assertThrows(MessageEOFException.class, r::readString);
    }

    @Test
    @DisplayName("StreamMessage.readBytes: a byte field is read in pieces when the buffer is smaller")
    void readBytesInPieces() throws JMSException {
        Session s = session();
        StreamMessage m = s.createStreamMessage();
        m.writeBytes(new byte[] {1, 2, 3, 4, 5});
        m.writeInt(6);
        StreamMessage r = roundTrip(s, m);
        byte[] buf = new byte[3];
        assertEquals(3, r.readBytes(buf));
        assertArrayEquals(new byte[] {1, 2, 3}, buf);
        byte[] rest = new byte[3];
        assertEquals(2, r.readBytes(rest));
        assertEquals(4, rest[0]);
        assertEquals(5, rest[1]);
        assertEquals(6, r.readInt());
    }
}
