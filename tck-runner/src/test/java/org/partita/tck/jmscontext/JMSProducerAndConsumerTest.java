package org.partita.tck.jmscontext;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.InvalidDestinationRuntimeException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.TextMessage;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.partita.tck.support.KnownDeviation;
import org.partita.tck.support.TckTest;

/** Jakarta Messaging 3.1, sections 7.2, 7.4-7.6, 7.10 and 8.6: JMSProducer and JMSConsumer bodies. */
class JMSProducerAndConsumerTest extends TckTest {

    @Test
    @DisplayName("7.2 / 8.6: a String body is sent as a TextMessage and received with receiveBody(String)")
    void stringBody() {
        Queue q = queue();
        JMSContext ctx = context();
        ctx.createProducer().send(q, "plain text");
        assertEquals("plain text", ctx.createConsumer(q).receiveBody(String.class, RECEIVE_TIMEOUT));
    }

    @Test
    @DisplayName("7.2: a String body arrives as a TextMessage; a null String gives a TextMessage with null text")
    void stringBodyIsTextMessage() throws JMSException {
        Queue q = queue();
        JMSContext ctx = context();
        ctx.createProducer().send(q, (String) null);
        TextMessage m =
                assertInstanceOf(TextMessage.class, ctx.createConsumer(q).receive(RECEIVE_TIMEOUT));
        assertNull(m.getText());
    }

    @Test
    @DisplayName("7.2 / 8.6: a Map body is sent as a MapMessage and received with receiveBody(Map)")
    void mapBody() throws JMSException {
        Queue q = queue();
        JMSContext ctx = context();
        Map<String, Object> body = new HashMap<>(Map.of("a", 1, "b", "two", "c", true));
        ctx.createProducer().send(q, body);
        JMSConsumer consumer = ctx.createConsumer(q);
        Message m = consumer.receive(RECEIVE_TIMEOUT);
        assertInstanceOf(MapMessage.class, m);
        assertEquals(body, m.getBody(Map.class));
    }

    @Test
    @DisplayName("7.2 / 8.6: a byte[] body is sent as a BytesMessage and received with receiveBody(byte[])")
    void bytesBody() {
        Queue q = queue();
        JMSContext ctx = context();
        ctx.createProducer().send(q, new byte[] {1, 2, 3});
        assertArrayEquals(new byte[] {1, 2, 3}, ctx.createConsumer(q).receiveBody(byte[].class, RECEIVE_TIMEOUT));
    }

    @Test
    @DisplayName("7.2 / 8.6: a Serializable body is sent as an ObjectMessage and received with "
            + "receiveBody(Serializable)")
    void serializableBody() throws JMSException {
        Queue q = queue();
        JMSContext ctx = context();
        ArrayList<String> body = new ArrayList<>(List.of("x", "y"));
        ctx.createProducer().send(q, body);
        Message m = ctx.createConsumer(q).receive(RECEIVE_TIMEOUT);
        assertInstanceOf(ObjectMessage.class, m);
        assertEquals(body, m.getBody(Serializable.class));
    }

    @Test
    @DisplayName("7.2: send(Destination, Message) sends the message and sets its JMSMessageID")
    void sendMessage() throws JMSException {
        Queue q = queue();
        JMSContext ctx = context();
        TextMessage m = ctx.createTextMessage("a message");
        ctx.createProducer().send(q, m);
        assertTrue(m.getJMSMessageID().startsWith("ID:"));
        Message r = ctx.createConsumer(q).receive(RECEIVE_TIMEOUT);
        assertEquals(m.getJMSMessageID(), r.getJMSMessageID());
    }

    @Test
    @KnownDeviation(
            provider = "artemis",
            reason = "8.6: after receiveBody fails with MessageFormatRuntimeException in "
                    + "AUTO_ACKNOWLEDGE, Artemis has already acknowledged the message, so it is never delivered again")
    @DisplayName("8.6: receiveBody with a type the body cannot be assigned to throws "
            + "MessageFormatRuntimeException; in AUTO_ACKNOWLEDGE the message is delivered again, not as a "
            + "redelivery")
    void receiveBodyWrongType() throws JMSException {
        Queue q = queue();
        JMSContext ctx = context();
        ctx.createProducer().send(q, "text");
        JMSConsumer consumer = ctx.createConsumer(q);
        assertThrows(MessageFormatRuntimeException.class, () -> consumer.receiveBody(Integer.class, RECEIVE_TIMEOUT));
        Message again = consumer.receive(RECEIVE_TIMEOUT);
        assertNotNull(again, "the message must be delivered again");
        assertFalse(again.getJMSRedelivered());
        assertEquals(1, again.getIntProperty("JMSXDeliveryCount"));
    }

    @Test
    @DisplayName("8.6: receiveBody of a StreamMessage throws MessageFormatRuntimeException")
    void receiveBodyStream() throws JMSException {
        Queue q = queue();
        JMSContext ctx = context();
        var stream = ctx.createStreamMessage();
        stream.writeInt(1);
        ctx.createProducer().send(q, stream);
        JMSConsumer consumer = ctx.createConsumer(q);
        assertThrows(MessageFormatRuntimeException.class, () -> consumer.receiveBody(Object.class, RECEIVE_TIMEOUT));
    }

    @Test
    @DisplayName("8.6: receiveBodyNoWait returns null on an empty queue; receiveBody(timeout) returns null after "
            + "the timeout")
    void receiveBodyEmpty() {
        JMSConsumer consumer = context().createConsumer(queue());
        assertNull(consumer.receiveBodyNoWait(String.class));
        assertNull(consumer.receiveBody(String.class, 200));
    }

    @Test
    @DisplayName("JMSProducer: delivery mode PERSISTENT, priority 4, time to live 0 and delivery delay 0 are "
            + "the defaults")
    void producerDefaults() {
        JMSProducer p = context().createProducer();
        assertEquals(DeliveryMode.PERSISTENT, p.getDeliveryMode());
        assertEquals(4, p.getPriority());
        assertEquals(0L, p.getTimeToLive());
        assertEquals(0L, p.getDeliveryDelay());
        assertNull(p.getAsync());
    }

    @Test
    @DisplayName("7.10: every JMSProducer setter returns the same producer, for chaining")
    void chaining() {
        JMSProducer p = context().createProducer();
        assertSame(p, p.setDeliveryMode(DeliveryMode.NON_PERSISTENT));
        assertSame(p, p.setPriority(6));
        assertSame(p, p.setTimeToLive(1000));
        assertSame(p, p.setDeliveryDelay(0));
        assertSame(p, p.setDisableMessageID(false));
        assertSame(p, p.setDisableMessageTimestamp(false));
        assertSame(p, p.setProperty("a", 1));
        assertSame(p, p.setJMSCorrelationID("c"));
        assertSame(p, p.setJMSType("t"));
        assertSame(p, p.setJMSReplyTo(null));
        assertSame(p, p.clearProperties());
    }

    @Test
    @DisplayName("7.4: the JMSProducer's delivery mode, priority and time to live apply to the message sent")
    void deliveryOptions() throws JMSException {
        Queue q = queue();
        JMSContext ctx = context();
        long before = System.currentTimeMillis();
        ctx.createProducer()
                .setDeliveryMode(DeliveryMode.NON_PERSISTENT)
                .setPriority(7)
                .setTimeToLive(60_000)
                .send(q, "options");
        Message m = ctx.createConsumer(q).receive(RECEIVE_TIMEOUT);
        assertEquals(DeliveryMode.NON_PERSISTENT, m.getJMSDeliveryMode());
        assertEquals(7, m.getJMSPriority());
        assertTrue(m.getJMSExpiration() >= before + 60_000);
    }

    @Test
    @DisplayName("7.6: JMSCorrelationID, JMSType and JMSReplyTo set on the JMSProducer are set on the message")
    void headers() throws JMSException {
        Queue q = queue();
        Queue replyTo = queue("reply");
        JMSContext ctx = context();
        ctx.createProducer()
                .setJMSCorrelationID("corr")
                .setJMSType("type")
                .setJMSReplyTo(replyTo)
                .send(q, "h");
        Message m = ctx.createConsumer(q).receive(RECEIVE_TIMEOUT);
        assertEquals("corr", m.getJMSCorrelationID());
        assertEquals("type", m.getJMSType());
        assertEquals(replyTo, m.getJMSReplyTo());
    }

    @Test
    @DisplayName("7.6: headers set on the JMSProducer override those set on the message")
    void producerHeadersOverrideMessage() throws JMSException {
        Queue q = queue();
        JMSContext ctx = context();
        TextMessage msg = ctx.createTextMessage("x");
        msg.setJMSCorrelationID("from message");
        ctx.createProducer().setJMSCorrelationID("from producer").send(q, msg);
        assertEquals(
                "from producer", ctx.createConsumer(q).receive(RECEIVE_TIMEOUT).getJMSCorrelationID());
    }

    @Test
    @DisplayName("7.5: properties set on the JMSProducer are set on the message sent")
    void properties() throws JMSException {
        Queue q = queue();
        JMSContext ctx = context();
        ctx.createProducer()
                .setProperty("b", true)
                .setProperty("i", 5)
                .setProperty("l", 6L)
                .setProperty("s", "str")
                .setProperty("d", 1.5)
                .setProperty("o", (Object) (short) 2)
                .send(q, "props");
        Message m = ctx.createConsumer(q).receive(RECEIVE_TIMEOUT);
        assertTrue(m.getBooleanProperty("b"));
        assertEquals(5, m.getIntProperty("i"));
        assertEquals(6L, m.getLongProperty("l"));
        assertEquals("str", m.getStringProperty("s"));
        assertEquals(1.5, m.getDoubleProperty("d"));
        assertEquals((short) 2, m.getShortProperty("o"));
    }

    @Test
    @DisplayName("7.5: properties set on the JMSProducer override those set on the message")
    void producerPropertiesOverrideMessage() throws JMSException {
        Queue q = queue();
        JMSContext ctx = context();
        TextMessage msg = ctx.createTextMessage("x");
        msg.setStringProperty("p", "message");
        msg.setStringProperty("only", "on message");
        ctx.createProducer().setProperty("p", "producer").send(q, msg);
        Message m = ctx.createConsumer(q).receive(RECEIVE_TIMEOUT);
        assertEquals("producer", m.getStringProperty("p"));
        assertEquals("on message", m.getStringProperty("only"));
    }

    @Test
    @DisplayName(
            "JMSProducer property access: getters, conversions, propertyExists, getPropertyNames, " + "clearProperties")
    void producerPropertyAccess() {
        JMSProducer p = context().createProducer();
        p.setProperty("i", 7).setProperty("s", "8");
        assertEquals(7L, p.getLongProperty("i"));
        assertEquals("7", p.getStringProperty("i"));
        assertEquals(8, p.getIntProperty("s"));
        assertEquals(Integer.valueOf(7), p.getObjectProperty("i"));
        assertTrue(p.propertyExists("i"));
        assertEquals(Set.of("i", "s"), p.getPropertyNames());
        p.clearProperties();
        assertFalse(p.propertyExists("i"));
        assertTrue(p.getPropertyNames().isEmpty());
    }

    @Test
    @DisplayName("3.5.4 for JMSProducer: an unsupported property conversion throws MessageFormatRuntimeException")
    void producerPropertyBadConversion() {
        JMSProducer p = context().createProducer();
        p.setProperty("z", true);
        assertThrows(MessageFormatRuntimeException.class, () -> p.getIntProperty("z"));
    }

    @Test
    @DisplayName("3.5.5 for JMSProducer: setProperty with an unsupported object type throws "
            + "MessageFormatRuntimeException")
    void producerPropertyUnsupportedObject() {
        JMSProducer p = context().createProducer();
        assertThrows(MessageFormatRuntimeException.class, () -> p.setProperty("list", new ArrayList<>()));
    }

    @Test
    @DisplayName("JMSProducer.setProperty: a null or empty name throws IllegalArgumentException")
    void producerPropertyInvalidName() {
        JMSProducer p = context().createProducer();
        assertThrows(IllegalArgumentException.class, () -> p.setProperty("", 1));
        assertThrows(IllegalArgumentException.class, () -> p.setProperty((String) null, 1));
    }

    @Test
    @DisplayName("JMSProducer.send: a null destination throws InvalidDestinationRuntimeException")
    void sendToNullDestination() {
        JMSProducer p = context().createProducer();
        assertThrows(InvalidDestinationRuntimeException.class, () -> p.send(null, "nowhere"));
    }

    @Test
    @DisplayName("7.10: a JMSProducer can send to several destinations in turn")
    void producerIsNotBoundToDestination() {
        Queue q1 = queue("a");
        Queue q2 = queue("b");
        JMSContext ctx = context();
        ctx.createProducer().send(q1, "to a").send(q2, "to b");
        assertEquals("to a", ctx.createConsumer(q1).receiveBody(String.class, RECEIVE_TIMEOUT));
        assertEquals("to b", ctx.createConsumer(q2).receiveBody(String.class, RECEIVE_TIMEOUT));
    }

    @Test
    @DisplayName("6.2.9.1: a JMSProducer's messages arrive in the order sent")
    void order() {
        Queue q = queue();
        JMSContext ctx = context();
        JMSProducer p = ctx.createProducer();
        for (String t : texts(20)) {
            p.send(q, t);
        }
        JMSConsumer consumer = ctx.createConsumer(q);
        for (String t : texts(20)) {
            assertEquals(t, consumer.receiveBody(String.class, RECEIVE_TIMEOUT));
        }
    }

    @Test
    @DisplayName("8.6: receiveBody(BytesMessage body) works with Object.class too")
    void receiveBodyAsObject() {
        Queue q = queue();
        JMSContext ctx = context();
        BytesMessage b = ctx.createBytesMessage();
        try {
            b.writeBytes(new byte[] {4, 2});
        } catch (JMSException e) {
            throw new AssertionError(e);
        }
        ctx.createProducer().send(q, b);
        Object body = ctx.createConsumer(q).receiveBody(Object.class, RECEIVE_TIMEOUT);
        assertArrayEquals(new byte[] {4, 2}, (byte[]) body);
    }
}
