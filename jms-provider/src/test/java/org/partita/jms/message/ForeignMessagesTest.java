package org.partita.jms.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.partita.jms.destination.PartitaQueue;
import org.partita.jms.destination.PartitaTopic;

/** Messages of "another provider": proxies that expose only the JMS interface of a Partita message. */
class ForeignMessagesTest {

    /** A message that implements only {@code type}; calls named in overrides return the given value. */
    static <T extends Message> T foreign(Message delegate, Class<T> type, Map<String, Object> overrides) {
        return type.cast(Proxy.newProxyInstance(
                ForeignMessagesTest.class.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
                    if (overrides.containsKey(method.getName())) {
                        return overrides.get(method.getName());
                    }
                    try {
                        return method.invoke(delegate, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                }));
    }

    static <T extends Message> T foreign(Message delegate, Class<T> type) {
        return foreign(delegate, type, Map.of());
    }

    private static <M extends PartitaMessage> M withHeaders(M m) throws JMSException {
        m.setJMSMessageID("ID:other-1");
        m.setJMSTimestamp(1234);
        m.setJMSCorrelationID("corr");
        m.setJMSReplyTo(new PartitaQueue("replies"));
        m.setJMSDestination(new PartitaTopic("news"));
        m.setJMSDeliveryMode(DeliveryMode.NON_PERSISTENT);
        m.setJMSType("type");
        m.setJMSPriority(8);
        m.setJMSExpiration(5678);
        m.setJMSDeliveryTime(2345);
        m.setIntProperty("i", 1);
        m.setStringProperty("s", "two");
        m.setDoubleProperty("d", 3.0);
        m.setStringProperty("JMSXGroupID", "g");
        return m;
    }

    private static void assertHeaders(PartitaMessage copy) throws JMSException {
        assertEquals("ID:other-1", copy.getJMSMessageID());
        assertEquals(1234, copy.getJMSTimestamp());
        assertEquals("corr", copy.getJMSCorrelationID());
        assertEquals(new PartitaQueue("replies"), copy.getJMSReplyTo());
        assertEquals(new PartitaTopic("news"), copy.getJMSDestination());
        assertEquals(DeliveryMode.NON_PERSISTENT, copy.getJMSDeliveryMode());
        assertEquals("type", copy.getJMSType());
        assertEquals(8, copy.getJMSPriority());
        assertEquals(5678, copy.getJMSExpiration());
        assertEquals(2345, copy.getJMSDeliveryTime());
        assertEquals(1, copy.getIntProperty("i"));
        assertEquals("two", copy.getStringProperty("s"));
        assertEquals(3.0, copy.getDoubleProperty("d"));
        assertEquals("g", copy.getStringProperty("JMSXGroupID"));
        // The copy is a new, writable message.
        copy.setIntProperty("extra", 1);
        copy.clearBody();
    }

    @Test
    void textMessage() throws JMSException {
        TextMessage foreign = foreign(withHeaders(new PartitaTextMessage("hello")), TextMessage.class);
        PartitaMessage copy = ForeignMessages.copyOf(foreign);
        PartitaTextMessage text = assertInstanceOf(PartitaTextMessage.class, copy);
        assertEquals("hello", text.getText());
        assertHeaders(copy);
        assertEquals("hello", foreign.getText());
    }

    @Test
    void bytesMessageStillBeingWritten() throws JMSException {
        PartitaBytesMessage original = withHeaders(new PartitaBytesMessage());
        original.writeInt(7);
        original.writeUTF("x");
        BytesMessage foreign = foreign(original, BytesMessage.class);
        PartitaBytesMessage copy = assertInstanceOf(PartitaBytesMessage.class, ForeignMessages.copyOf(foreign));
        copy.reset();
        assertEquals(7, copy.readInt());
        assertEquals("x", copy.readUTF());
        // The foreign message is left reset, at the start of its body.
        assertEquals(7, foreign.readInt());
        assertHeaders(copy);
    }

    @Test
    void bytesMessagePartlyRead() throws JMSException {
        PartitaBytesMessage original = new PartitaBytesMessage();
        original.writeBytes(new byte[20_000]);
        original.writeByte((byte) 5);
        original.reset();
        original.readByte();
        PartitaBytesMessage copy = (PartitaBytesMessage) ForeignMessages.copyOf(foreign(original, BytesMessage.class));
        copy.reset();
        assertEquals(20_001, copy.getBodyLength());
    }

    @Test
    void mapMessage() throws JMSException {
        PartitaMapMessage original = withHeaders(new PartitaMapMessage());
        original.setInt("i", 1);
        original.setChar("c", 'c');
        original.setBytes("b", new byte[] {1, 2});
        original.setString("n", null);
        PartitaMapMessage copy =
                assertInstanceOf(PartitaMapMessage.class, ForeignMessages.copyOf(foreign(original, MapMessage.class)));
        assertEquals(1, copy.getInt("i"));
        assertEquals('c', copy.getChar("c"));
        assertArrayEquals(new byte[] {1, 2}, copy.getBytes("b"));
        assertTrue(copy.itemExists("n"));
        assertEquals(List.of("i", "c", "b", "n"), Collections.list(copy.getMapNames()));
        assertHeaders(copy);
    }

    @Test
    void streamMessage() throws JMSException {
        PartitaStreamMessage original = withHeaders(new PartitaStreamMessage());
        original.writeInt(1);
        original.writeBytes(new byte[] {2, 3});
        original.writeObject(null);
        original.writeString("four");
        StreamMessage foreign = foreign(original, StreamMessage.class);
        PartitaStreamMessage copy = assertInstanceOf(PartitaStreamMessage.class, ForeignMessages.copyOf(foreign));
        copy.reset();
        assertEquals(1, copy.readInt());
        assertArrayEquals(new byte[] {2, 3}, (byte[]) copy.readObject());
        assertNull(copy.readObject());
        assertEquals("four", copy.readString());
        assertThrows(jakarta.jms.MessageEOFException.class, copy::readObject);
        assertEquals(1, foreign.readInt());
        assertHeaders(copy);
    }

    @Test
    void objectMessage() throws JMSException {
        ArrayList<String> payload = new ArrayList<>(List.of("a"));
        ObjectMessage foreign = foreign(withHeaders(new PartitaObjectMessage(payload)), ObjectMessage.class);
        PartitaObjectMessage copy = assertInstanceOf(PartitaObjectMessage.class, ForeignMessages.copyOf(foreign));
        assertEquals(payload, copy.getObject());
        assertHeaders(copy);
    }

    @Test
    void plainMessage() throws JMSException {
        Message foreign = foreign(withHeaders(new PartitaMessage()), Message.class);
        PartitaMessage copy = ForeignMessages.copyOf(foreign);
        assertEquals(PartitaMessage.class, copy.getClass());
        assertNotSame(foreign, copy);
        assertHeaders(copy);
    }

    @Test
    void correlationIdBytesAreCopied() throws JMSException {
        PartitaMessage original = new PartitaMessage();
        original.setJMSCorrelationIDAsBytes(new byte[] {1, (byte) 0xff});
        PartitaMessage copy = ForeignMessages.copyOf(foreign(original, Message.class));
        assertArrayEquals(new byte[] {1, (byte) 0xff}, copy.getJMSCorrelationIDAsBytes());
    }

    @Test
    void foreignDestinationsAreConvertedByName() throws JMSException {
        Queue replyTo = PartitaMessageTest.foreignDestination(Queue.class, "getQueueName", "their-replies");
        Topic destination = PartitaMessageTest.foreignDestination(Topic.class, "getTopicName", "their-topic");
        Message foreign = foreign(
                new PartitaTextMessage("x"),
                TextMessage.class,
                Map.of("getJMSReplyTo", replyTo, "getJMSDestination", destination));
        PartitaMessage copy = ForeignMessages.copyOf(foreign);
        assertEquals(new PartitaQueue("their-replies"), copy.getJMSReplyTo());
        assertEquals(new PartitaTopic("their-topic"), copy.getJMSDestination());
    }

    @Test
    void deliveryCountOfAReceivedForeignMessageIsNotCopied() throws JMSException {
        PartitaMessage sent = new PartitaTextMessage("x");
        sent.setIntProperty("keep", 1);
        PartitaMessage received = TestMessages.received(sent, 4);
        PartitaMessage copy = ForeignMessages.copyOf(foreign(received, TextMessage.class));
        assertFalse(copy.propertyExists("JMSXDeliveryCount"));
        assertEquals(1, copy.getIntProperty("keep"));
        copy.setIntProperty("writable", 1); // received properties were read-only, the copy's are not
    }

    @Test
    void copySurvivesTheWire() throws JMSException {
        PartitaMapMessage original = withHeaders(new PartitaMapMessage());
        original.setString("k", "v");
        PartitaMessage copy = ForeignMessages.copyOf(foreign(original, MapMessage.class));
        MapMessage received = (MapMessage) TestMessages.received(copy);
        assertEquals("v", received.getString("k"));
        assertEquals("two", received.getStringProperty("s"));
        assertEquals(new PartitaTopic("news"), received.getJMSDestination());
    }
}
