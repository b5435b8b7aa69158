package org.partita.tck.messages;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotReadableException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.Session;
import java.util.ArrayList;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.partita.tck.support.KnownDeviation;
import org.partita.tck.support.TckTest;

/** Jakarta Messaging 3.1, section 3.11 and the BytesMessage API: a stream of uninterpreted bytes. */
class BytesMessageTest extends TckTest {

    private BytesMessage everyType(Session s) throws JMSException {
        BytesMessage m = s.createBytesMessage();
        m.writeBoolean(true);
        m.writeByte((byte) -7);
        m.writeShort((short) 1234);
        m.writeChar('Z');
        m.writeInt(123_456_789);
        m.writeLong(-9_876_543_210L);
        m.writeFloat(1.5f);
        m.writeDouble(Math.PI);
        m.writeUTF("utf-8 ✓");
        m.writeBytes(new byte[] {1, 2, 3});
        m.writeBytes(new byte[] {9, 8, 7, 6, 5}, 1, 3);
        m.writeObject(Integer.valueOf(77));
        return m;
    }

    @Test
    @DisplayName("3.11: every primitive written to a BytesMessage reads back in order after delivery")
    void everyTypeRoundTrip() throws JMSException {
        Session s = session();
        BytesMessage r = roundTrip(s, everyType(s));
        assertTrue(r.readBoolean());
        assertEquals((byte) -7, r.readByte());
        assertEquals((short) 1234, r.readShort());
        assertEquals('Z', r.readChar());
        assertEquals(123_456_789, r.readInt());
        assertEquals(-9_876_543_210L, r.readLong());
        assertEquals(1.5f, r.readFloat());
        assertEquals(Math.PI, r.readDouble());
        assertEquals("utf-8 ✓", r.readUTF());
        byte[] three = new byte[3];
        assertEquals(3, r.readBytes(three));
        assertArrayEquals(new byte[] {1, 2, 3}, three);
        byte[] slice = new byte[3];
        assertEquals(3, r.readBytes(slice));
        assertArrayEquals(new byte[] {8, 7, 6}, slice);
        assertEquals(77, r.readInt());
    }

    @Test
    @DisplayName("BytesMessage.getBodyLength: a received message reports the number of bytes in its body")
    void bodyLength() throws JMSException {
        Session s = session();
        BytesMessage m = s.createBytesMessage();
        m.writeBytes(new byte[100]);
        m.writeInt(1);
        assertEquals(104L, ((BytesMessage) roundTrip(s, m)).getBodyLength());
    }

    @Test
    @DisplayName("BytesMessage.readBytes: returns -1 once the end of the stream is reached")
    void readBytesAtEnd() throws JMSException {
        Session s = session();
        BytesMessage m = s.createBytesMessage();
        m.writeBytes(new byte[] {1, 2});
        BytesMessage r = roundTrip(s, m);
        byte[] buf = new byte[10];
        assertEquals(2, r.readBytes(buf));
        assertEquals(-1, r.readBytes(buf));
    }

    @Test
    @DisplayName("10.3: reading past the end of a BytesMessage throws MessageEOFException")
    void readPastEnd() throws JMSException {
        Session s = session();
        BytesMessage m = s.createBytesMessage();
        m.writeShort((short) 1);
        BytesMessage r = roundTrip(s, m);
        r.readShort();
        assertThrows(MessageEOFException.class, r::readInt);
    }

    @Test
    @DisplayName("10.3: reading a new BytesMessage before reset() throws MessageNotReadableException")
    void writeOnlyUntilReset() throws JMSException {
        BytesMessage m = connection().createSession().createBytesMessage();
        m.writeInt(5);
        assertThrows(MessageNotReadableException.class, m::readInt);
    }

    @Test
    @DisplayName("BytesMessage.reset: puts the body in read-only mode at the start of the bytes")
    void resetMakesReadable() throws JMSException {
        BytesMessage m = connection().createSession().createBytesMessage();
        m.writeInt(5);
        m.writeInt(6);
        m.reset();
        assertEquals(5, m.readInt());
        assertEquals(6, m.readInt());
        assertThrows(MessageNotWriteableException.class, () -> m.writeInt(7));
    }

    @Test
    @DisplayName("3.11.2: the body of a received BytesMessage is read-only (MessageNotWriteableException)")
    void receivedReadOnly() throws JMSException {
        Session s = session();
        BytesMessage r = roundTrip(s, s.createBytesMessage());
        assertThrows(MessageNotWriteableException.class, () -> r.writeInt(1));
    }

    @Test
    @DisplayName("3.11.1: clearBody empties a received BytesMessage and makes it writable")
    void clearBodyReceived() throws JMSException {
        Session s = session();
        BytesMessage m = s.createBytesMessage();
        m.writeInt(1);
        BytesMessage r = roundTrip(s, m);
        r.clearBody();
        r.writeInt(2);
        r.reset();
        assertEquals(4L, r.getBodyLength());
        assertEquals(2, r.readInt());
    }

    @Test
    @DisplayName("3.12: BytesMessage does not accept null: writeObject(null) throws NullPointerException")
    void writeNullObject() throws JMSException {
        BytesMessage m = connection().createSession().createBytesMessage();
        assertThrows(NullPointerException.class, () -> m.writeObject(null));
    }

    @Test
    @DisplayName("BytesMessage.writeObject: an unsupported type is refused with MessageFormatException")
    void writeUnsupportedObject() throws JMSException {
        BytesMessage m = connection().createSession().createBytesMessage();
        assertThrows(MessageFormatException.class, () -> m.writeObject(new ArrayList<String>()));
    }

    @Test
    @DisplayName("3.12: writeBytes copies its input: changing the array afterwards does not change the body")
    void writeBytesCopies() throws JMSException {
        Session s = session();
        BytesMessage m = s.createBytesMessage();
        byte[] data = {1, 2, 3};
        m.writeBytes(data);
        data[0] = 99;
        BytesMessage r = roundTrip(s, m);
        byte[] got = new byte[3];
        r.readBytes(got);
        assertArrayEquals(new byte[] {1, 2, 3}, got);
    }

    @Test
    @KnownDeviation(
            provider = "artemis",
            reason = "3.11.4 (a message keeps its full form between clients): an "
                    + "empty BytesMessage sent through Artemis arrives with a 4-byte body of zeros")
    @DisplayName("3.11: an empty BytesMessage arrives with body length 0")
    void emptyBody() throws JMSException {
        Session s = session();
        assertEquals(0L, ((BytesMessage) roundTrip(s, s.createBytesMessage())).getBodyLength());
    }

    @Test
    @KnownDeviation(
            provider = "artemis",
            reason = "6.1.8: Artemis streams large messages (over 100 KiB) lazily: once the "
                    + "connection is closed the body can no longer be read (AMQ219023)")
    @DisplayName("6.1.8: a received 256 KiB BytesMessage stays readable after its connection is closed")
    void largeBodyReadableAfterClose() throws JMSException {
        var q = queue();
        byte[] data = new byte[256 * 1024];
        java.util.Arrays.fill(data, (byte) 7);
        Session sender = connection().createSession();
        BytesMessage m = sender.createBytesMessage();
        m.writeBytes(data);
        sender.createProducer(q).send(m);
        var c = startedConnection();
        BytesMessage r = (BytesMessage) receive(c.createSession().createConsumer(q));
        c.close();
        byte[] got = new byte[data.length];
        assertEquals(data.length, r.readBytes(got));
        assertArrayEquals(data, got);
    }

    @Test
    @DisplayName("3.11: a 256 KiB BytesMessage arrives byte for byte")
    void largeBody() throws JMSException {
        Session s = session();
        byte[] data = new byte[256 * 1024];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 31);
        }
        BytesMessage m = s.createBytesMessage();
        m.writeBytes(data);
        BytesMessage r = roundTrip(s, m);
        byte[] got = new byte[data.length];
        assertEquals(data.length, r.readBytes(got));
        assertArrayEquals(data, got);
    }
}
