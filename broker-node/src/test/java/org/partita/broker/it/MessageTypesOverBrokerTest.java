package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Every message type, the headers, expiry, delivery delay and temporary queues, through a real node. */
@Tag("slow")
class MessageTypesOverBrokerTest {
    private static final long RECEIVE_MS = 5000;

    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    private Connection connection;
    private Session session;

    record Order(String id, int quantity, List<String> lines) implements Serializable {}

    @BeforeEach
    void connect() throws JMSException {
        connection = node.factory().createConnection();
        connection.start();
        session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
    }

    @AfterEach
    void disconnect() {
        CrashRecoveryTest.closeQuietly(connection);
    }

    /** Sends one message to a fresh queue and receives it back on another connection. */
    private Message roundTrip(String queue, Message m) throws JMSException {
        session.createProducer(session.createQueue(queue)).send(m);
        try (Connection other = node.factory().createConnection()) {
            other.start();
            Session s = other.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Message got = s.createConsumer(s.createQueue(queue)).receive(RECEIVE_MS);
            assertNotNull(got, "message on " + queue);
            return got;
        }
    }

    @Test
    void textMessage() throws Exception {
        String text = "héllo wörld ✓ 𝄞 " + "x".repeat(10_000);
        TextMessage got = assertInstanceOf(TextMessage.class, roundTrip("text", session.createTextMessage(text)));
        assertEquals(text, got.getText());
        assertNull(assertInstanceOf(TextMessage.class, roundTrip("text-null", session.createTextMessage()))
                .getText());
    }

    @Test
    void bytesMessage() throws Exception {
        byte[] all = new byte[256];
        for (int i = 0; i < all.length; i++) {
            all[i] = (byte) i;
        }
        BytesMessage m = session.createBytesMessage();
        m.writeBytes(all);
        m.writeInt(-42);
        m.writeUTF("tail ✓");
        BytesMessage got = assertInstanceOf(BytesMessage.class, roundTrip("bytes", m));
        assertEquals(
                256 + 4 + 2 + "tail ✓".getBytes(java.nio.charset.StandardCharsets.UTF_8).length, got.getBodyLength());
        byte[] back = new byte[256];
        assertEquals(256, got.readBytes(back));
        assertArrayEquals(all, back);
        assertEquals(-42, got.readInt());
        assertEquals("tail ✓", got.readUTF());
    }

    @Test
    void mapMessage() throws Exception {
        MapMessage m = session.createMapMessage();
        m.setBoolean("bool", true);
        m.setByte("byte", (byte) -7);
        m.setShort("short", (short) 31000);
        m.setChar("char", 'ж');
        m.setInt("int", Integer.MIN_VALUE);
        m.setLong("long", Long.MAX_VALUE);
        m.setFloat("float", 1.5f);
        m.setDouble("double", -0.0);
        m.setString("string", "value");
        m.setString("nullString", null);
        m.setBytes("bytes", new byte[] {1, 2, 3});
        MapMessage got = assertInstanceOf(MapMessage.class, roundTrip("map", m));
        assertEquals(
                Set.of(
                        "bool",
                        "byte",
                        "short",
                        "char",
                        "int",
                        "long",
                        "float",
                        "double",
                        "string",
                        "nullString",
                        "bytes"),
                new TreeSet<>(Collections.list((java.util.Enumeration<String>) got.getMapNames())));
        assertTrue(got.getBoolean("bool"));
        assertEquals((byte) -7, got.getByte("byte"));
        assertEquals((short) 31000, got.getShort("short"));
        assertEquals('ж', got.getChar("char"));
        assertEquals(Integer.MIN_VALUE, got.getInt("int"));
        assertEquals(Long.MAX_VALUE, got.getLong("long"));
        assertEquals(1.5f, got.getFloat("float"));
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(got.getDouble("double")));
        assertEquals("value", got.getString("string"));
        assertTrue(got.itemExists("nullString"));
        assertNull(got.getString("nullString"));
        assertArrayEquals(new byte[] {1, 2, 3}, got.getBytes("bytes"));
        assertInstanceOf(Short.class, got.getObject("short"), "types survive the trip");
    }

    @Test
    void streamMessage() throws Exception {
        StreamMessage m = session.createStreamMessage();
        m.writeBoolean(false);
        m.writeByte((byte) 1);
        m.writeShort((short) 2);
        m.writeChar('c');
        m.writeInt(3);
        m.writeLong(4L);
        m.writeFloat(5.5f);
        m.writeDouble(6.25);
        m.writeString("seven");
        m.writeString(null);
        m.writeBytes(new byte[] {8, 9});
        StreamMessage got = assertInstanceOf(StreamMessage.class, roundTrip("stream", m));
        assertFalse(got.readBoolean());
        assertEquals((byte) 1, got.readByte());
        assertEquals((short) 2, got.readShort());
        assertEquals('c', got.readChar());
        assertEquals(3, got.readInt());
        assertEquals(4L, got.readLong());
        assertEquals(5.5f, got.readFloat());
        assertEquals(6.25, got.readDouble());
        assertEquals("seven", got.readString());
        assertNull(got.readString());
        byte[] b = new byte[2];
        assertEquals(2, got.readBytes(b));
        assertArrayEquals(new byte[] {8, 9}, b);
        assertEquals(
                -1, got.readBytes(b), "a byte[] that exactly filled the buffer ends with -1 (StreamMessage.readBytes)");
        assertThrows(jakarta.jms.MessageEOFException.class, got::readObject);
    }

    @Test
    void objectMessage() throws Exception {
        Order order = new Order("o-1", 3, List.of("apple", "pear"));
        ObjectMessage got =
                assertInstanceOf(ObjectMessage.class, roundTrip("object", session.createObjectMessage(order)));
        assertEquals(order, got.getObject());
        assertEquals(order, got.getBody(Order.class));
    }

    @Test
    void bareMessageKeepsHeadersAndPropertiesOfEveryType() throws Exception {
        Queue replyTo = session.createQueue("replies");
        Message m = session.createMessage();
        m.setJMSCorrelationID("corr-1");
        m.setJMSType("order.created");
        m.setJMSReplyTo(replyTo);
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("pBool", true);
        props.put("pByte", (byte) 1);
        props.put("pShort", (short) 2);
        props.put("pInt", 3);
        props.put("pLong", 4L);
        props.put("pFloat", 5.5f);
        props.put("pDouble", 6.25);
        props.put("pString", "seven");
        m.setBooleanProperty("bool", true);
        m.setByteProperty("byte", (byte) -1);
        m.setShortProperty("short", (short) -2);
        m.setIntProperty("int", -3);
        m.setLongProperty("long", -4L);
        m.setFloatProperty("float", -5.5f);
        m.setDoubleProperty("double", -6.25);
        m.setStringProperty("string", "eight");
        for (Map.Entry<String, Object> e : props.entrySet()) {
            m.setObjectProperty(e.getKey(), e.getValue());
        }
        m.setStringProperty("JMSXGroupID", "group-9");

        Queue q = session.createQueue("headers");
        session.createProducer(q).send(m, DeliveryMode.PERSISTENT, 7, 0);
        String sentId = m.getJMSMessageID();
        long sentTimestamp = m.getJMSTimestamp();
        assertNotNull(sentId);

        Message got = session.createConsumer(q).receive(RECEIVE_MS);
        assertNotNull(got);
        assertEquals(sentId, got.getJMSMessageID());
        assertEquals(sentTimestamp, got.getJMSTimestamp());
        assertEquals("corr-1", got.getJMSCorrelationID());
        assertEquals("order.created", got.getJMSType());
        Destination gotReplyTo = got.getJMSReplyTo();
        assertInstanceOf(Queue.class, gotReplyTo);
        assertEquals("replies", ((Queue) gotReplyTo).getQueueName());
        assertEquals(q, got.getJMSDestination());
        assertEquals(7, got.getJMSPriority());
        assertEquals(DeliveryMode.PERSISTENT, got.getJMSDeliveryMode());
        assertEquals(0, got.getJMSExpiration());
        assertFalse(got.getJMSRedelivered());
        assertEquals(1, got.getIntProperty("JMSXDeliveryCount"));

        assertTrue(got.getBooleanProperty("bool"));
        assertEquals((byte) -1, got.getByteProperty("byte"));
        assertEquals((short) -2, got.getShortProperty("short"));
        assertEquals(-3, got.getIntProperty("int"));
        assertEquals(-4L, got.getLongProperty("long"));
        assertEquals(-5.5f, got.getFloatProperty("float"));
        assertEquals(-6.25, got.getDoubleProperty("double"));
        assertEquals("eight", got.getStringProperty("string"));
        for (Map.Entry<String, Object> e : props.entrySet()) {
            Object v = got.getObjectProperty(e.getKey());
            assertEquals(e.getValue(), v, e.getKey());
            assertEquals(e.getValue().getClass(), v.getClass(), e.getKey() + " keeps its Java type");
        }
        assertEquals("group-9", got.getStringProperty("JMSXGroupID"));
        List<String> names = new ArrayList<>();
        for (var en = got.getPropertyNames(); en.hasMoreElements(); ) {
            names.add((String) en.nextElement());
        }
        assertTrue(
                names.containsAll(List.of("bool", "byte", "short", "int", "long", "float", "double", "string")),
                names.toString());
        assertTrue(names.containsAll(props.keySet()), names.toString());
    }

    @Test
    void expiredMessageIsNotDelivered() throws Exception {
        Queue q = session.createQueue("expiring");
        MessageProducer p = session.createProducer(q);
        p.setTimeToLive(200);
        TextMessage shortLived = session.createTextMessage("short-lived");
        p.send(shortLived);
        long expiration = shortLived.getJMSExpiration();
        assertTrue(expiration > 0, "a time-to-live sets JMSExpiration");
        p.setTimeToLive(0);
        p.send(session.createTextMessage("keeper"));

        await("the expiration time to pass")
                .atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> System.currentTimeMillis() > expiration + 50);
        MessageConsumer consumer = session.createConsumer(q);
        assertEquals(
                "keeper", ((TextMessage) consumer.receive(RECEIVE_MS)).getText(), "the expired message is skipped");
        Absence.assertNothingAhead(session, q, consumer, "the expired message is not delivered after either");
    }

    @Test
    void delayedMessageArrivesOnlyAfterItsDeliveryTime() throws Exception {
        Queue q = session.createQueue("delayed");
        MessageConsumer consumer = session.createConsumer(q);
        MessageProducer p = session.createProducer(q);
        p.setDeliveryDelay(1000);
        TextMessage m = session.createTextMessage("later");
        p.send(m);
        long deliveryTime = m.getJMSDeliveryTime();
        assertTrue(deliveryTime >= m.getJMSTimestamp() + 1000, "JMSDeliveryTime = send time + delay");

        Message early = consumer.receive(300);
        if (early != null) {
            assertTrue(
                    System.currentTimeMillis() >= deliveryTime,
                    "delivered " + (deliveryTime - System.currentTimeMillis()) + " ms before its delivery time");
        }
        Message later = early != null ? early : consumer.receive(10_000);
        long receivedAt = System.currentTimeMillis();
        assertNotNull(later, "the delayed message arrives after its delay");
        assertEquals("later", ((TextMessage) later).getText());
        assertTrue(receivedAt >= deliveryTime, "received at " + receivedAt + ", delivery time " + deliveryTime);
        assertEquals(deliveryTime, later.getJMSDeliveryTime());
    }

    @Test
    void temporaryQueueRequestReply() throws Exception {
        Queue requests = session.createQueue("requests");
        TemporaryQueue replies = session.createTemporaryQueue();
        MessageConsumer replyConsumer = session.createConsumer(replies);

        try (Connection responder = node.factory().createConnection()) {
            responder.start();
            Session rs = responder.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer requestConsumer = rs.createConsumer(requests);

            TextMessage request = session.createTextMessage("what time is it?");
            request.setJMSReplyTo(replies);
            session.createProducer(requests).send(request);

            Message got = requestConsumer.receive(RECEIVE_MS);
            assertNotNull(got);
            Destination replyTo = got.getJMSReplyTo();
            assertInstanceOf(TemporaryQueue.class, replyTo, "JMSReplyTo is the temporary queue");
            TextMessage reply = rs.createTextMessage("time to test");
            reply.setJMSCorrelationID(got.getJMSMessageID());
            rs.createProducer(replyTo).send(reply);

            Message answer = replyConsumer.receive(RECEIVE_MS);
            assertNotNull(answer);
            assertEquals("time to test", ((TextMessage) answer).getText());
            assertEquals(request.getJMSMessageID(), answer.getJMSCorrelationID());

            assertThrows(
                    JMSException.class,
                    () -> rs.createConsumer(replyTo),
                    "only the connection that created a temporary queue may consume from it");

            // The temporary queue lives as long as its connection.
            connection.close();
            MessageProducer toGone = rs.createProducer(replyTo);
            await("the temporary queue to go with its connection")
                    .atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThrows(
                            InvalidDestinationException.class, () -> toGone.send(rs.createTextMessage("too late"))));
        }
    }
}
