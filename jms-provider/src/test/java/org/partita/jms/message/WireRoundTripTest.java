package org.partita.jms.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.ObjectMessage;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.partita.jms.destination.PartitaQueue;
import org.partita.jms.destination.PartitaTemporaryQueue;
import org.partita.jms.destination.PartitaTemporaryTopic;
import org.partita.jms.destination.PartitaTopic;
import org.partita.protocol.MessageCodec;
import org.partita.protocol.ProtocolException;
import org.partita.protocol.WireMessage;

/** toWire, MessageCodec.encode, decode and fromWire give back the message that was sent. */
class WireRoundTripTest {
    private static final byte[] CORRELATION = {0, 1, (byte) 0x80, (byte) 0xfe, (byte) 0xff, 'z'};

    /** Every header and one property of each type. */
    private static <M extends PartitaMessage> M decorate(M m) throws JMSException {
        m.setJMSMessageID("ID:partita-1");
        m.setJMSTimestamp(1_700_000_000_000L);
        m.setJMSCorrelationIDAsBytes(CORRELATION);
        m.setJMSReplyTo(new PartitaTemporaryQueue("tmp-1", null));
        m.setJMSDestination(new PartitaTopic("prices?partitions=4"));
        m.setJMSDeliveryMode(DeliveryMode.NON_PERSISTENT);
        m.setJMSType("quote");
        m.setJMSPriority(7);
        m.setJMSExpiration(1_700_000_060_000L);
        m.setJMSDeliveryTime(1_700_000_005_000L);
        m.setBooleanProperty("bool", true);
        m.setByteProperty("b", (byte) -1);
        m.setShortProperty("s", (short) 300);
        m.setIntProperty("i", Integer.MAX_VALUE);
        m.setLongProperty("l", Long.MIN_VALUE);
        m.setFloatProperty("f", 1.25f);
        m.setDoubleProperty("d", Math.PI);
        m.setStringProperty("str", "grüße");
        m.setStringProperty("nothing", null);
        m.setStringProperty("JMSXGroupID", "group-9");
        m.setIntProperty("JMSXGroupSeq", 2);
        return m;
    }

    private static void assertHeadersAndProperties(PartitaMessage m, int deliveryCount) throws JMSException {
        assertEquals("ID:partita-1", m.getJMSMessageID());
        assertEquals(1_700_000_000_000L, m.getJMSTimestamp());
        assertArrayEquals(CORRELATION, m.getJMSCorrelationIDAsBytes());
        assertEquals(new PartitaTemporaryQueue("tmp-1", null), m.getJMSReplyTo());
        assertEquals(new PartitaTopic("prices?partitions=4"), m.getJMSDestination());
        assertEquals(DeliveryMode.NON_PERSISTENT, m.getJMSDeliveryMode());
        assertEquals("quote", m.getJMSType());
        assertEquals(7, m.getJMSPriority());
        assertEquals(1_700_000_060_000L, m.getJMSExpiration());
        assertEquals(1_700_000_005_000L, m.getJMSDeliveryTime());
        assertEquals(deliveryCount > 1, m.getJMSRedelivered());
        assertEquals(deliveryCount, m.getIntProperty("JMSXDeliveryCount"));

        assertEquals(Boolean.TRUE, m.getObjectProperty("bool"));
        assertEquals((byte) -1, m.getObjectProperty("b"));
        assertEquals((short) 300, m.getObjectProperty("s"));
        assertEquals(Integer.MAX_VALUE, m.getObjectProperty("i"));
        assertEquals(Long.MIN_VALUE, m.getObjectProperty("l"));
        assertEquals(1.25f, m.getObjectProperty("f"));
        assertEquals(Math.PI, m.getObjectProperty("d"));
        assertEquals("grüße", m.getObjectProperty("str"));
        assertTrue(m.propertyExists("nothing"));
        assertNull(m.getObjectProperty("nothing"));
        assertEquals("group-9", m.getStringProperty("JMSXGroupID"));
        assertEquals(2, m.getIntProperty("JMSXGroupSeq"));
        List<Object> names = new ArrayList<>(Collections.list(m.getPropertyNames()));
        assertEquals(
                List.of(
                        "bool",
                        "b",
                        "s",
                        "i",
                        "l",
                        "f",
                        "d",
                        "str",
                        "nothing",
                        "JMSXGroupID",
                        "JMSXGroupSeq",
                        "JMSXDeliveryCount"),
                names);

        assertThrows(MessageNotWriteableException.class, () -> m.setIntProperty("x", 1));
    }

    private static PartitaMessage roundTrip(PartitaMessage sent, int deliveryCount) {
        byte[] bytes = MessageCodec.encode(sent.toWire());
        return MessageFactory.fromWire(MessageCodec.decode(bytes), deliveryCount);
    }

    @Test
    void plainMessage() throws JMSException {
        PartitaMessage received = roundTrip(decorate(new PartitaMessage()), 1);
        assertEquals(PartitaMessage.class, received.getClass());
        assertHeadersAndProperties(received, 1);
        assertNull(received.getBody(Object.class));
    }

    @Test
    void textMessage() throws JMSException {
        PartitaTextMessage sent = decorate(new PartitaTextMessage("body ✓"));
        PartitaMessage received = roundTrip(sent, 2);
        assertHeadersAndProperties(received, 2);
        TextMessage text = assertInstanceOf(TextMessage.class, received);
        assertEquals("body ✓", text.getText());
        assertThrows(MessageNotWriteableException.class, () -> text.setText("x"));
    }

    @Test
    void bytesMessage() throws JMSException {
        PartitaBytesMessage sent = decorate(new PartitaBytesMessage());
        sent.writeInt(12);
        sent.writeUTF("u");
        sent.writeBytes(new byte[] {(byte) 0xff, 0});
        PartitaMessage received = roundTrip(sent, 3);
        assertHeadersAndProperties(received, 3);
        BytesMessage bytes = assertInstanceOf(BytesMessage.class, received);
        assertEquals(4 + 3 + 2, bytes.getBodyLength());
        assertEquals(12, bytes.readInt());
        assertEquals("u", bytes.readUTF());
        assertEquals((byte) 0xff, bytes.readByte());
        assertEquals(0, bytes.readByte());
        assertEquals(-1, bytes.readBytes(new byte[1]));
        assertThrows(MessageNotWriteableException.class, () -> bytes.writeInt(1));
    }

    @Test
    void mapMessage() throws JMSException {
        PartitaMapMessage sent = decorate(new PartitaMapMessage());
        sent.setBoolean("bool", false);
        sent.setByte("b", (byte) 1);
        sent.setShort("s", (short) 2);
        sent.setChar("c", 'ß');
        sent.setInt("i", 3);
        sent.setLong("l", 4L);
        sent.setFloat("f", 5.5f);
        sent.setDouble("d", 6.5);
        sent.setString("str", "seven");
        sent.setString("none", null);
        sent.setBytes("bytes", new byte[] {8, 9});
        PartitaMessage received = roundTrip(sent, 1);
        assertHeadersAndProperties(received, 1);
        MapMessage map = assertInstanceOf(MapMessage.class, received);
        assertEquals(false, map.getObject("bool"));
        assertEquals((byte) 1, map.getObject("b"));
        assertEquals((short) 2, map.getObject("s"));
        assertEquals('ß', map.getObject("c"));
        assertEquals(3, map.getObject("i"));
        assertEquals(4L, map.getObject("l"));
        assertEquals(5.5f, map.getObject("f"));
        assertEquals(6.5, map.getObject("d"));
        assertEquals("seven", map.getObject("str"));
        assertTrue(map.itemExists("none"));
        assertNull(map.getObject("none"));
        assertArrayEquals(new byte[] {8, 9}, map.getBytes("bytes"));
        assertEquals(
                List.of("bool", "b", "s", "c", "i", "l", "f", "d", "str", "none", "bytes"),
                Collections.list(map.getMapNames()));
        assertThrows(MessageNotWriteableException.class, () -> map.setInt("i", 1));
    }

    @Test
    void streamMessage() throws JMSException {
        PartitaStreamMessage sent = decorate(new PartitaStreamMessage());
        sent.writeBoolean(true);
        sent.writeByte((byte) 1);
        sent.writeShort((short) 2);
        sent.writeChar('c');
        sent.writeInt(3);
        sent.writeLong(4L);
        sent.writeFloat(5.5f);
        sent.writeDouble(6.5);
        sent.writeString("seven");
        sent.writeObject(null);
        sent.writeBytes(new byte[] {8, 9});
        PartitaMessage received = roundTrip(sent, 5);
        assertHeadersAndProperties(received, 5);
        StreamMessage stream = assertInstanceOf(StreamMessage.class, received);
        assertTrue(stream.readBoolean());
        assertEquals(1, stream.readByte());
        assertEquals(2, stream.readShort());
        assertEquals('c', stream.readChar());
        assertEquals(3, stream.readInt());
        assertEquals(4L, stream.readLong());
        assertEquals(5.5f, stream.readFloat());
        assertEquals(6.5, stream.readDouble());
        assertEquals("seven", stream.readString());
        assertNull(stream.readObject());
        assertArrayEquals(new byte[] {8, 9}, (byte[]) stream.readObject());
        assertThrows(MessageNotWriteableException.class, () -> stream.writeInt(1));
    }

    @Test
    void objectMessage() throws JMSException {
        PartitaObjectMessage sent = decorate(new PartitaObjectMessage(new ArrayList<>(List.of("a", "b"))));
        PartitaMessage received = roundTrip(sent, 1);
        assertHeadersAndProperties(received, 1);
        ObjectMessage object = assertInstanceOf(ObjectMessage.class, received);
        assertEquals(List.of("a", "b"), object.getObject());
        assertThrows(MessageNotWriteableException.class, () -> object.setObject("x"));
    }

    @Test
    void wireFormUsesTheDeclaredLayout() throws JMSException {
        PartitaTextMessage m = decorate(new PartitaTextMessage("héllo"));
        WireMessage wire = m.toWire();
        assertEquals(WireMessage.BODY_TEXT, wire.bodyType());
        assertArrayEquals("héllo".getBytes(StandardCharsets.UTF_8), wire.body());
        assertEquals("temp-queue:tmp-1", wire.replyTo());
        assertEquals("topic:prices?partitions=4", wire.destination());
        assertEquals(WireMessage.NON_PERSISTENT, wire.deliveryMode());
        assertEquals("group-9", wire.partitionKey());
        assertFalse(wire.properties().containsKey("JMSXDeliveryCount"));

        PartitaBytesMessage bytes = new PartitaBytesMessage();
        bytes.writeBytes(new byte[] {1, 2});
        assertEquals(WireMessage.BODY_BYTES, bytes.toWire().bodyType());
        assertArrayEquals(new byte[] {1, 2}, bytes.toWire().body());
        assertEquals(WireMessage.BODY_MAP, new PartitaMapMessage().toWire().bodyType());
        assertEquals(
                WireMessage.BODY_STREAM, new PartitaStreamMessage().toWire().bodyType());
        assertEquals(
                WireMessage.BODY_OBJECT, new PartitaObjectMessage().toWire().bodyType());
        assertEquals(WireMessage.BODY_NONE, new PartitaMessage().toWire().bodyType());
        assertNull(new PartitaMessage().toWire().body());
    }

    @Test
    void destinationKindsSurvive() throws JMSException {
        for (var d : List.of(
                new PartitaQueue("q"),
                new PartitaTopic("t"),
                new PartitaTemporaryQueue("tq", null),
                new PartitaTemporaryTopic("tt", null))) {
            PartitaMessage m = new PartitaMessage();
            m.setJMSDestination(d);
            m.setJMSReplyTo(d);
            PartitaMessage received = roundTrip(m, 1);
            assertEquals(d, received.getJMSDestination());
            assertEquals(d, received.getJMSReplyTo());
            assertEquals(d.getClass(), received.getJMSDestination().getClass());
        }
    }

    @Test
    void unsetOptionalHeadersStayUnset() {
        PartitaMessage m = new PartitaMessage();
        WireMessage wire = new PartitaMessage().toWire();
        assertNull(wire.messageId());
        assertNull(wire.correlationId());
        assertNull(wire.replyTo());
        assertNull(wire.type());
        assertEquals(WireMessage.PERSISTENT, wire.deliveryMode());
        assertEquals(4, wire.priority());
        PartitaMessage received = roundTrip(withDestination(m), 1);
        assertNull(received.getJMSMessageID());
        assertNull(received.getJMSCorrelationID());
        assertNull(received.getJMSCorrelationIDAsBytes());
        assertNull(received.getJMSReplyTo());
        assertNull(received.getJMSType());
    }

    private static PartitaMessage withDestination(PartitaMessage m) {
        try {
            m.setJMSDestination(new PartitaQueue("q"));
        } catch (JMSException e) {
            throw new AssertionError(e);
        }
        return m;
    }

    @Test
    void stringCorrelationIdSurvivesIncludingNonLatinCharacters() throws JMSException {
        PartitaMessage m = withDestination(new PartitaMessage());
        m.setJMSCorrelationID("order-日本-42");
        assertEquals("order-日本-42", roundTrip(m, 1).getJMSCorrelationID());
    }

    @Test
    void toWireIsASnapshot() throws JMSException {
        PartitaMapMessage m = new PartitaMapMessage();
        m.setIntProperty("p", 1);
        WireMessage wire = m.toWire();
        m.setIntProperty("p", 2);
        m.setIntProperty("q", 3);
        assertEquals(1, wire.properties().get("p"));
        assertFalse(wire.properties().containsKey("q"));
        assertThrows(
                UnsupportedOperationException.class, () -> wire.properties().put("x", 1));
    }

    @Test
    void unknownBodyTypeIsAProtocolError() {
        WireMessage wire = new WireMessage(
                "ID:1", 0, null, null, "queue:q", null, WireMessage.PERSISTENT, 4, 0, 0, Map.of(), 42, null);
        assertThrows(ProtocolException.class, () -> MessageFactory.fromWire(wire, 1));
    }

    @Test
    void malformedMapOrStreamBodyIsAProtocolError() {
        for (int type : new int[] {WireMessage.BODY_MAP, WireMessage.BODY_STREAM}) {
            WireMessage wire = new WireMessage(
                    "ID:1",
                    0,
                    null,
                    null,
                    "queue:q",
                    null,
                    WireMessage.PERSISTENT,
                    4,
                    0,
                    0,
                    Map.of(),
                    type,
                    new byte[] {0, 0, 0, 5, 1});
            assertThrows(ProtocolException.class, () -> MessageFactory.fromWire(wire, 1));
        }
    }

    @Test
    void absentBodiesDecodeAsEmpty() throws JMSException {
        for (int type : new int[] {WireMessage.BODY_MAP, WireMessage.BODY_STREAM, WireMessage.BODY_BYTES}) {
            WireMessage wire = new WireMessage(
                    "ID:1", 0, null, null, "queue:q", null, WireMessage.PERSISTENT, 4, 0, 0, Map.of(), type, null);
            PartitaMessage m = MessageFactory.fromWire(wire, 1);
            if (m instanceof MapMessage map) {
                assertFalse(map.getMapNames().hasMoreElements());
            } else if (m instanceof StreamMessage stream) {
                assertThrows(jakarta.jms.MessageEOFException.class, stream::readObject);
            } else {
                assertEquals(0, ((BytesMessage) m).getBodyLength());
            }
        }
    }
}
