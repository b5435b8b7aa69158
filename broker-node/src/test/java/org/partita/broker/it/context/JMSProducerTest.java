package org.partita.broker.it.context;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.BytesMessage;
import jakarta.jms.CompletionListener;
import jakarta.jms.DeliveryMode;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.InvalidDestinationRuntimeException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.MessageNotWriteableRuntimeException;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.TextMessage;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.broker.it.NodeExtension;

/** JMSProducer: bodies, send options, properties and their conversions, headers, asynchronous sends. */
@Tag("slow")
class JMSProducerTest {
    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    /** A body of an application class, to check ObjectMessage round trips and receiveBody typing. */
    record Order(String id, int quantity) implements Serializable {}

    @Test
    void aStringBodyIsSentAsATextMessage() throws Exception {
        try (JMSContext ctx = node.factory().createContext()) {
            Queue q = ctx.createQueue("text");
            ctx.createProducer().send(q, "héllo wörld");
            Message m = ctx.createConsumer(q).receive(Wait.ARRIVES);
            assertInstanceOf(TextMessage.class, m);
            assertEquals("héllo wörld", ((TextMessage) m).getText());
        }
    }

    @Test
    void aMapBodyIsSentAsAMapMessage() throws Exception {
        try (JMSContext ctx = node.factory().createContext()) {
            Queue q = ctx.createQueue("map");
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("name", "widget");
            body.put("count", 3);
            body.put("price", 9.5d);
            body.put("urgent", true);
            body.put("code", 'x');
            body.put("raw", new byte[] {1, 2, 3});
            ctx.createProducer().send(q, body);
            Message m = ctx.createConsumer(q).receive(Wait.ARRIVES);
            assertInstanceOf(MapMessage.class, m);
            MapMessage mm = (MapMessage) m;
            assertEquals("widget", mm.getString("name"));
            assertEquals(3, mm.getInt("count"));
            assertEquals(9.5d, mm.getDouble("price"));
            assertTrue(mm.getBoolean("urgent"));
            assertEquals('x', mm.getChar("code"));
            assertArrayEquals(new byte[] {1, 2, 3}, mm.getBytes("raw"));
        }
    }

    @Test
    void aMapBodyWithAValueAMapMessageCannotHoldIsAMessageFormatRuntimeException() {
        try (JMSContext ctx = node.factory().createContext()) {
            Queue q = ctx.createQueue("bad-map");
            Map<String, Object> body = new HashMap<>();
            body.put("when", new java.util.Date());
            assertThrows(
                    MessageFormatRuntimeException.class,
                    () -> ctx.createProducer().send(q, body));
            Wait.assertNothingAhead(ctx, q, ctx.createConsumer(q), "nothing was sent");
        }
    }

    @Test
    void aByteArrayBodyIsSentAsABytesMessage() throws Exception {
        try (JMSContext ctx = node.factory().createContext()) {
            Queue q = ctx.createQueue("bytes");
            byte[] body = {0, 1, -1, 127, -128, 42};
            ctx.createProducer().send(q, body);
            Message m = ctx.createConsumer(q).receive(Wait.ARRIVES);
            assertInstanceOf(BytesMessage.class, m);
            BytesMessage bm = (BytesMessage) m;
            assertEquals(body.length, bm.getBodyLength());
            byte[] read = new byte[body.length];
            bm.readBytes(read);
            assertArrayEquals(body, read);
        }
    }

    @Test
    void aSerializableBodyIsSentAsAnObjectMessage() throws Exception {
        try (JMSContext ctx = node.factory().createContext()) {
            Queue q = ctx.createQueue("object");
            ctx.createProducer().send(q, new Order("o-1", 7));
            Message m = ctx.createConsumer(q).receive(Wait.ARRIVES);
            assertInstanceOf(ObjectMessage.class, m);
            assertEquals(new Order("o-1", 7), ((ObjectMessage) m).getObject());
        }
    }

    @Test
    void nullBodiesSendMessagesWithoutABody() throws Exception {
        try (JMSContext ctx = node.factory().createContext()) {
            Queue q = ctx.createQueue("null-bodies");
            JMSProducer p = ctx.createProducer();
            p.send(q, (String) null);
            p.send(q, (Map<String, Object>) null);
            p.send(q, (byte[]) null);
            p.send(q, (Serializable) null);
            JMSConsumer c = ctx.createConsumer(q);
            TextMessage text = (TextMessage) c.receive(Wait.ARRIVES);
            assertNull(text.getText());
            MapMessage map = (MapMessage) c.receive(Wait.ARRIVES);
            assertFalse(map.getMapNames().hasMoreElements(), "a map message with no entries");
            BytesMessage bytes = (BytesMessage) c.receive(Wait.ARRIVES);
            assertEquals(0, bytes.getBodyLength());
            ObjectMessage object = (ObjectMessage) c.receive(Wait.ARRIVES);
            assertNull(object.getObject());
        }
    }

    @Test
    void aMessageIsSentWithTheProducersOptionsPropertiesAndHeaders() throws Exception {
        try (JMSContext ctx = node.factory().createContext()) {
            Queue q = ctx.createQueue("message");
            Queue replies = ctx.createQueue("replies");
            TextMessage m = ctx.createTextMessage("body");
            m.setStringProperty("origin", "message");
            m.setStringProperty("onlyOnMessage", "kept");
            m.setJMSType("message-type");
            m.setJMSCorrelationID("message-correlation");
            ctx.createProducer()
                    .setProperty("origin", "producer")
                    .setJMSType("producer-type")
                    .setJMSReplyTo(replies)
                    .setPriority(8)
                    .setDeliveryMode(DeliveryMode.NON_PERSISTENT)
                    .send(q, m);
            TextMessage got = (TextMessage) ctx.createConsumer(q).receive(Wait.ARRIVES);
            assertEquals("body", got.getText());
            assertEquals("producer", got.getStringProperty("origin"), "producer properties win");
            assertEquals("kept", got.getStringProperty("onlyOnMessage"));
            assertEquals("producer-type", got.getJMSType(), "producer headers win");
            assertEquals("message-correlation", got.getJMSCorrelationID(), "headers the producer did not set stay");
            assertEquals(replies, got.getJMSReplyTo());
            assertEquals(8, got.getJMSPriority());
            assertEquals(DeliveryMode.NON_PERSISTENT, got.getJMSDeliveryMode());
            assertEquals(q, got.getJMSDestination());
            assertNotNull(got.getJMSMessageID());
            assertTrue(got.getJMSMessageID().startsWith("ID:"));
        }
    }

    @Test
    void producerPropertiesGoOnEveryMessageOfEveryBodyKind() throws Exception {
        try (JMSContext ctx = node.factory().createContext()) {
            Queue q = ctx.createQueue("props-everywhere");
            JMSProducer p = ctx.createProducer()
                    .setProperty("b", true)
                    .setProperty("y", (byte) 1)
                    .setProperty("s", (short) 2)
                    .setProperty("i", 3)
                    .setProperty("l", 4L)
                    .setProperty("f", 5.5f)
                    .setProperty("d", 6.25d)
                    .setProperty("str", "seven")
                    .setProperty("obj", (Object) 8);
            p.send(q, "t")
                    .send(q, Map.of("k", "v"))
                    .send(q, new byte[] {1})
                    .send(q, new Order("o", 1))
                    .send(q, ctx.createMessage());
            JMSConsumer c = ctx.createConsumer(q);
            for (int i = 0; i < 5; i++) {
                Message m = c.receive(Wait.ARRIVES);
                assertNotNull(m, "message " + i);
                assertTrue(m.getBooleanProperty("b"));
                assertEquals((byte) 1, m.getByteProperty("y"));
                assertEquals((short) 2, m.getShortProperty("s"));
                assertEquals(3, m.getIntProperty("i"));
                assertEquals(4L, m.getLongProperty("l"));
                assertEquals(5.5f, m.getFloatProperty("f"));
                assertEquals(6.25d, m.getDoubleProperty("d"));
                assertEquals("seven", m.getStringProperty("str"));
                assertEquals(8, m.getObjectProperty("obj"));
            }
        }
    }

    @Test
    void producerPropertiesConvertLikeMessageProperties() {
        try (JMSContext ctx = node.factory().createContext()) {
            JMSProducer p = ctx.createProducer()
                    .setProperty("bool", true)
                    .setProperty("byte", (byte) 12)
                    .setProperty("short", (short) 300)
                    .setProperty("int", 70000)
                    .setProperty("long", 5_000_000_000L)
                    .setProperty("float", 1.5f)
                    .setProperty("double", 2.25d)
                    .setProperty("numText", "42")
                    .setProperty("boolText", "TRUE")
                    .setProperty("floatText", "3.5");
            // widening conversions of JMS 3.5.4
            assertEquals("true", p.getStringProperty("bool"));
            assertEquals((short) 12, p.getShortProperty("byte"));
            assertEquals(12, p.getIntProperty("byte"));
            assertEquals(12L, p.getLongProperty("byte"));
            assertEquals("12", p.getStringProperty("byte"));
            assertEquals(300, p.getIntProperty("short"));
            assertEquals(300L, p.getLongProperty("short"));
            assertEquals(70000L, p.getLongProperty("int"));
            assertEquals("5000000000", p.getStringProperty("long"));
            assertEquals(1.5d, p.getDoubleProperty("float"));
            assertEquals("2.25", p.getStringProperty("double"));
            // strings parse to any type
            assertEquals((byte) 42, p.getByteProperty("numText"));
            assertEquals((short) 42, p.getShortProperty("numText"));
            assertEquals(42, p.getIntProperty("numText"));
            assertEquals(42L, p.getLongProperty("numText"));
            assertEquals(42f, p.getFloatProperty("numText"));
            assertEquals(42d, p.getDoubleProperty("numText"));
            assertTrue(p.getBooleanProperty("boolText"));
            assertEquals(3.5f, p.getFloatProperty("floatText"));
            // objectified values come back as set
            assertEquals(Boolean.TRUE, p.getObjectProperty("bool"));
            assertEquals((byte) 12, p.getObjectProperty("byte"));
            assertEquals(5_000_000_000L, p.getObjectProperty("long"));
            assertEquals(1.5f, p.getObjectProperty("float"));
            // invalid conversions
            assertThrows(MessageFormatRuntimeException.class, () -> p.getIntProperty("long"));
            assertThrows(MessageFormatRuntimeException.class, () -> p.getShortProperty("int"));
            assertThrows(MessageFormatRuntimeException.class, () -> p.getByteProperty("short"));
            assertThrows(MessageFormatRuntimeException.class, () -> p.getBooleanProperty("int"));
            assertThrows(MessageFormatRuntimeException.class, () -> p.getFloatProperty("double"));
            assertThrows(MessageFormatRuntimeException.class, () -> p.getIntProperty("float"));
            assertThrows(MessageFormatRuntimeException.class, () -> p.getLongProperty("bool"));
            assertThrows(MessageFormatRuntimeException.class, () -> p.getDoubleProperty("long"));
            assertThrows(NumberFormatException.class, () -> p.getIntProperty("boolText"));
            // missing properties read like null: valueOf(null)
            assertNull(p.getStringProperty("missing"));
            assertNull(p.getObjectProperty("missing"));
            assertFalse(p.getBooleanProperty("missing"));
            assertThrows(NumberFormatException.class, () -> p.getIntProperty("missing"));
            assertThrows(NumberFormatException.class, () -> p.getLongProperty("missing"));
            assertThrows(NullPointerException.class, () -> p.getDoubleProperty("missing"));
        }
    }

    @Test
    void nullOrEmptyPropertyNamesAreAnIllegalArgumentExceptionAndOthersAreNames() {
        try (JMSContext ctx = node.factory().createContext()) {
            JMSProducer p = ctx.createProducer();
            assertThrows(IllegalArgumentException.class, () -> p.setProperty(null, 1));
            assertThrows(IllegalArgumentException.class, () -> p.setProperty("", "x"));
            assertTrue(p.getPropertyNames().isEmpty(), "nothing was stored");
            // 3.5.1: only null and empty are refused; a name a selector cannot refer to is still a name
            p.setProperty("AND", "x").setProperty("a-b", 1L);
            assertTrue(p.propertyExists("AND") && p.propertyExists("a-b"));
            p.clearProperties();
            p.setProperty("valid_name$1", 1);
            assertTrue(p.propertyExists("valid_name$1"));
        }
    }

    @Test
    void propertyValuesOfOtherTypesAreAMessageFormatRuntimeException() {
        try (JMSContext ctx = node.factory().createContext()) {
            JMSProducer p = ctx.createProducer();
            assertThrows(MessageFormatRuntimeException.class, () -> p.setProperty("list", List.of(1)));
            assertThrows(MessageFormatRuntimeException.class, () -> p.setProperty("bytes", (Object) new byte[] {1}));
            assertThrows(MessageFormatRuntimeException.class, () -> p.setProperty("ch", (Object) 'c'));
            assertThrows(MessageFormatRuntimeException.class, () -> p.setProperty("JMSXGroupSeq", "not an int"));
            assertFalse(p.propertyExists("list"));
            p.setProperty("JMSXGroupID", "group-a").setProperty("JMSXGroupSeq", 1);
            assertEquals("group-a", p.getStringProperty("JMSXGroupID"));
        }
    }

    @Test
    void propertyNamesAreALiveUnmodifiableViewAndClearPropertiesEmptiesIt() throws Exception {
        try (JMSContext ctx = node.factory().createContext()) {
            Queue q = ctx.createQueue("cleared");
            JMSProducer p = ctx.createProducer();
            Set<String> names = p.getPropertyNames();
            assertTrue(names.isEmpty());
            p.setProperty("a", 1).setProperty("b", "two");
            assertEquals(Set.of("a", "b"), names, "the view follows the producer");
            assertThrows(UnsupportedOperationException.class, () -> names.add("c"));
            assertThrows(UnsupportedOperationException.class, () -> names.remove("a"));
            assertTrue(p.propertyExists("a"));
            assertFalse(p.propertyExists("c"));
            p.setProperty("a", 10);
            assertEquals(10, p.getIntProperty("a"), "setting again replaces");
            assertSame(p, p.clearProperties());
            assertTrue(names.isEmpty());
            assertFalse(p.propertyExists("a"));
            p.send(q, "no props");
            Message m = ctx.createConsumer(q).receive(Wait.ARRIVES);
            assertFalse(m.propertyExists("a"));
            assertFalse(m.propertyExists("b"));
        }
    }

    @Test
    void headersSetOnTheProducerAreReadBackAndApplied() throws Exception {
        try (JMSContext ctx = node.factory().createContext()) {
            Queue q = ctx.createQueue("headers");
            Queue replyTo = ctx.createTemporaryQueue();
            JMSProducer p = ctx.createProducer();
            assertNull(p.getJMSCorrelationID());
            assertNull(p.getJMSCorrelationIDAsBytes());
            assertNull(p.getJMSType());
            assertNull(p.getJMSReplyTo());
            p.setJMSCorrelationID("corr-1").setJMSType("order").setJMSReplyTo(replyTo);
            assertEquals("corr-1", p.getJMSCorrelationID());
            assertEquals("order", p.getJMSType());
            assertEquals(replyTo, p.getJMSReplyTo());
            p.send(q, "first");

            byte[] id = {1, 2, (byte) 0xFF, 0};
            p.setJMSCorrelationIDAsBytes(id);
            id[0] = 99; // the producer keeps its own copy
            assertArrayEquals(new byte[] {1, 2, (byte) 0xFF, 0}, p.getJMSCorrelationIDAsBytes());
            p.send(q, "second");

            JMSConsumer c = ctx.createConsumer(q);
            Message first = c.receive(Wait.ARRIVES);
            assertEquals("corr-1", first.getJMSCorrelationID());
            assertEquals("order", first.getJMSType());
            assertEquals(replyTo, first.getJMSReplyTo());
            Message second = c.receive(Wait.ARRIVES);
            assertArrayEquals(new byte[] {1, 2, (byte) 0xFF, 0}, second.getJMSCorrelationIDAsBytes());
            assertEquals("order", second.getJMSType());
        }
    }

    @Test
    void sendOptionsHaveTheSpecDefaultsAndAreApplied() throws Exception {
        try (JMSContext ctx = node.factory().createContext()) {
            Queue q = ctx.createQueue("options");
            JMSProducer p = ctx.createProducer();
            assertEquals(DeliveryMode.PERSISTENT, p.getDeliveryMode());
            assertEquals(Message.DEFAULT_PRIORITY, p.getPriority());
            assertEquals(Message.DEFAULT_TIME_TO_LIVE, p.getTimeToLive());
            assertEquals(Message.DEFAULT_DELIVERY_DELAY, p.getDeliveryDelay());
            assertFalse(p.getDisableMessageID());
            assertFalse(p.getDisableMessageTimestamp());
            assertNull(p.getAsync());

            long before = System.currentTimeMillis();
            p.send(q, "defaults");
            p.setDeliveryMode(DeliveryMode.NON_PERSISTENT)
                    .setPriority(2)
                    .setTimeToLive(60_000)
                    .setDisableMessageID(true)
                    .setDisableMessageTimestamp(true);
            assertEquals(DeliveryMode.NON_PERSISTENT, p.getDeliveryMode());
            assertEquals(2, p.getPriority());
            assertEquals(60_000, p.getTimeToLive());
            assertTrue(p.getDisableMessageID());
            assertTrue(p.getDisableMessageTimestamp());
            p.send(q, "tuned");
            long after = System.currentTimeMillis();

            JMSConsumer c = ctx.createConsumer(q);
            Message d = c.receive(Wait.ARRIVES);
            assertEquals("defaults", d.getBody(String.class));
            assertEquals(DeliveryMode.PERSISTENT, d.getJMSDeliveryMode());
            assertEquals(4, d.getJMSPriority());
            assertEquals(0, d.getJMSExpiration(), "no time to live, no expiration");
            assertNotNull(d.getJMSMessageID());
            assertTrue(d.getJMSTimestamp() >= before && d.getJMSTimestamp() <= after);

            Message t = c.receive(Wait.ARRIVES);
            assertEquals("tuned", t.getBody(String.class));
            assertEquals(DeliveryMode.NON_PERSISTENT, t.getJMSDeliveryMode());
            assertEquals(2, t.getJMSPriority());
            assertTrue(
                    t.getJMSExpiration() >= before + 60_000 && t.getJMSExpiration() <= after + 60_000,
                    "expiration " + t.getJMSExpiration());
            assertNull(t.getJMSMessageID(), "message ids disabled");
            assertEquals(0, t.getJMSTimestamp(), "timestamps disabled");
        }
    }

    @Test
    void aDeliveryDelayHoldsTheMessageBack() throws Exception {
        try (JMSContext ctx = node.factory().createContext()) {
            Queue q = ctx.createQueue("delayed");
            JMSConsumer c = ctx.createConsumer(q);
            JMSProducer p = ctx.createProducer().setDeliveryDelay(1500);
            assertEquals(1500, p.getDeliveryDelay());
            long sent = System.currentTimeMillis();
            p.send(q, "later");
            ctx.createProducer().send(q, "now"); // sent after it, same priority: only its delay lets "now" go first
            assertEquals("now", c.receiveBody(String.class, Wait.ARRIVES), "delivered before its delivery time");
            Message m = c.receive(Wait.ARRIVES);
            assertNotNull(m);
            assertEquals("later", m.getBody(String.class));
            assertTrue(System.currentTimeMillis() - sent >= 1400, "arrived too early");
            assertTrue(m.getJMSDeliveryTime() >= sent + 1500, "delivery time " + m.getJMSDeliveryTime());
        }
    }

    @Test
    void invalidPriorityOrDeliveryModeIsAJMSRuntimeException() {
        try (JMSContext ctx = node.factory().createContext()) {
            JMSProducer p = ctx.createProducer();
            assertThrows(JMSRuntimeException.class, () -> p.setPriority(10));
            assertThrows(JMSRuntimeException.class, () -> p.setPriority(-1));
            assertThrows(JMSRuntimeException.class, () -> p.setDeliveryMode(0));
            assertThrows(JMSRuntimeException.class, () -> p.setDeliveryMode(3));
            assertEquals(Message.DEFAULT_PRIORITY, p.getPriority(), "a refused value changes nothing");
            assertEquals(DeliveryMode.PERSISTENT, p.getDeliveryMode());
        }
    }

    @Test
    void everySetterReturnsTheSameProducer() {
        try (JMSContext ctx = node.factory().createContext()) {
            JMSProducer p = ctx.createProducer();
            Queue q = ctx.createQueue("chain");
            CompletionListener l = new Recorder(1);
            List<JMSProducer> results = List.of(
                    p.setDeliveryMode(DeliveryMode.PERSISTENT),
                    p.setPriority(5),
                    p.setTimeToLive(0),
                    p.setDeliveryDelay(0),
                    p.setDisableMessageID(false),
                    p.setDisableMessageTimestamp(false),
                    p.setAsync(l),
                    p.setAsync(null),
                    p.setProperty("a", true),
                    p.setProperty("b", (byte) 1),
                    p.setProperty("c", (short) 1),
                    p.setProperty("d", 1),
                    p.setProperty("e", 1L),
                    p.setProperty("f", 1f),
                    p.setProperty("g", 1d),
                    p.setProperty("h", "s"),
                    p.setProperty("i", (Object) 1),
                    p.clearProperties(),
                    p.setJMSCorrelationID("c"),
                    p.setJMSCorrelationIDAsBytes(new byte[] {1}),
                    p.setJMSType("t"),
                    p.setJMSReplyTo(q),
                    p.send(q, "s"),
                    p.send(q, new byte[] {1}),
                    p.send(q, Map.of("k", 1)),
                    p.send(q, new Order("x", 1)),
                    p.send(q, ctx.createMessage()));
            results.forEach(r -> assertSame(p, r));
        }
    }

    @Test
    void sendingToNoDestinationOrANamelessOneOrSendingNoMessageIsRefused() {
        try (JMSContext ctx = node.factory().createContext()) {
            JMSProducer p = ctx.createProducer();
            Queue q = ctx.createQueue("refusals");
            assertThrows(InvalidDestinationRuntimeException.class, () -> p.send(null, "x"));
            assertThrows(InvalidDestinationRuntimeException.class, () -> p.send(null, ctx.createMessage()));
            assertThrows(InvalidDestinationRuntimeException.class, () -> p.send(null, new byte[0]));
            jakarta.jms.Destination neither = new jakarta.jms.Destination() {};
            assertThrows(
                    InvalidDestinationRuntimeException.class,
                    () -> p.send(neither, "x"),
                    "neither a queue nor a topic");
            assertThrows(
                    InvalidDestinationRuntimeException.class,
                    () -> p.send((Queue) () -> "", "x"),
                    "a queue without a name");
            assertThrows(MessageFormatRuntimeException.class, () -> p.send(q, (Message) null));
            Wait.assertNothingAhead(ctx, q, ctx.createConsumer(q), "nothing was sent");
        }
    }

    @Test
    void aReceivedMessageCanBeSentOnButNotGivenProducerProperties() throws Exception {
        try (JMSContext ctx = node.factory().createContext()) {
            Queue in = ctx.createQueue("in");
            Queue out = ctx.createQueue("out");
            ctx.createProducer().setProperty("hop", 1).send(in, "forward me");
            Message received = ctx.createConsumer(in).receive(Wait.ARRIVES);
            JMSProducer withProps = ctx.createProducer().setProperty("hop", 2);
            assertThrows(MessageNotWriteableRuntimeException.class, () -> withProps.send(out, received));
            ctx.createProducer().setJMSType("forwarded").send(out, received);
            Message forwarded = ctx.createConsumer(out).receive(Wait.ARRIVES);
            assertEquals("forward me", forwarded.getBody(String.class));
            assertEquals(1, forwarded.getIntProperty("hop"));
            assertEquals("forwarded", forwarded.getJMSType());
        }
    }

    @Test
    void producersOfOneContextKeepTheirOwnSettings() throws Exception {
        try (JMSContext ctx = node.factory().createContext()) {
            Queue q = ctx.createQueue("two-producers");
            JMSProducer urgent = ctx.createProducer()
                    .setPriority(9)
                    .setProperty("kind", "urgent")
                    .setDisableMessageID(true);
            JMSProducer normal = ctx.createProducer();
            normal.send(q, "n1");
            urgent.send(q, "u1");
            normal.send(q, "n2");
            JMSConsumer c = ctx.createConsumer(q);
            Map<String, Message> byBody = new HashMap<>();
            for (int i = 0; i < 3; i++) {
                Message m = c.receive(Wait.ARRIVES);
                assertNotNull(m, "message " + (i + 1) + " of 3; before it: " + byBody.keySet());
                byBody.put(m.getBody(String.class), m);
            }
            assertEquals(Set.of("n1", "u1", "n2"), byBody.keySet());
            Wait.assertNothingAhead(ctx, q, c, "each was sent once");
            assertEquals(9, byBody.get("u1").getJMSPriority());
            assertEquals("urgent", byBody.get("u1").getStringProperty("kind"));
            assertNull(byBody.get("u1").getJMSMessageID());
            for (String n : List.of("n1", "n2")) {
                assertEquals(4, byBody.get(n).getJMSPriority());
                assertFalse(byBody.get(n).propertyExists("kind"));
                assertNotNull(byBody.get(n).getJMSMessageID());
            }
        }
    }

    /** Records completions (text of the message and thread) in order. */
    static final class Recorder implements CompletionListener {
        final List<String> completed = Collections.synchronizedList(new ArrayList<>());
        final List<Thread> threads = Collections.synchronizedList(new ArrayList<>());
        final List<String> ids = Collections.synchronizedList(new ArrayList<>());
        final List<Exception> failures = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch latch;
        volatile long delayMillis;

        Recorder(int expected) {
            latch = new CountDownLatch(expected);
        }

        @Override
        public void onCompletion(Message message) {
            try {
                if (delayMillis > 0) {
                    Thread.sleep(delayMillis); // a slow listener, on purpose
                }
                threads.add(Thread.currentThread());
                ids.add(message.getJMSMessageID());
                completed.add(message.getBody(String.class));
            } catch (JMSException | InterruptedException e) {
                failures.add(e);
            } finally {
                latch.countDown();
            }
        }

        @Override
        public void onException(Message message, Exception exception) {
            failures.add(exception);
            latch.countDown();
        }
    }

    @Test
    void asynchronousSendsCallTheCompletionListenerInOrderOnAnotherThread() throws Exception {
        try (JMSContext ctx = node.factory().createContext()) {
            Queue q = ctx.createQueue("async");
            Recorder recorder = new Recorder(5);
            JMSProducer p = ctx.createProducer().setAsync(recorder);
            assertSame(recorder, p.getAsync());
            for (int i = 0; i < 5; i++) {
                p.send(q, "a" + i);
            }
            assertTrue(recorder.latch.await(10, TimeUnit.SECONDS), "not every send completed");
            assertEquals(List.of("a0", "a1", "a2", "a3", "a4"), recorder.completed);
            assertTrue(recorder.failures.isEmpty(), recorder.failures::toString);
            recorder.threads.forEach(t -> assertNotEquals(Thread.currentThread(), t));
            recorder.ids.forEach(id -> assertTrue(id != null && id.startsWith("ID:")));

            p.setAsync(null);
            assertNull(p.getAsync());
            p.send(q, "sync");
            JMSConsumer c = ctx.createConsumer(q);
            assertEquals(List.of("a0", "a1", "a2", "a3", "a4", "sync"), Wait.receiveTexts(c, 6));
            Wait.assertNothingAhead(ctx, q, c, "each was sent once");
        }
    }

    @Test
    void closeWaitsForTheCompletionListenersOfAsynchronousSends() {
        JMSContext ctx = node.factory().createContext();
        Queue q = ctx.createQueue("async-close");
        Recorder recorder = new Recorder(4);
        recorder.delayMillis = 150;
        JMSProducer p = ctx.createProducer().setAsync(recorder);
        for (int i = 0; i < 4; i++) {
            p.send(q, "c" + i);
        }
        ctx.close();
        assertEquals(4, recorder.completed.size(), "close returned before every completion listener had returned");
        try (JMSContext check = node.factory().createContext()) {
            JMSConsumer c = check.createConsumer(q);
            assertEquals(List.of("c0", "c1", "c2", "c3"), Wait.receiveTexts(c, 4));
            Wait.assertNothingAhead(check, q, c, "each was sent once");
        }
    }

    @Test
    void aSendThatFailsAtOnceNeverCallsTheListenerNorBlocksClose() {
        JMSContext ctx = node.factory().createContext();
        Recorder recorder = new Recorder(1);
        JMSProducer p = ctx.createProducer().setAsync(recorder);
        assertThrows(InvalidDestinationRuntimeException.class, () -> p.send(null, "nowhere"));
        assertThrows(MessageFormatRuntimeException.class, () -> p.send(ctx.createQueue("q"), (Message) null));
        assertTimeoutPreemptively(java.time.Duration.ofSeconds(5), ctx::close);
        assertTrue(recorder.completed.isEmpty());
        assertTrue(recorder.failures.isEmpty());
    }

    @Test
    void aCompletionListenerMayNotCloseCommitOrRollBackItsOwnContext() throws Exception {
        try (JMSContext ctx = node.factory().createContext(JMSContext.SESSION_TRANSACTED)) {
            Queue q = ctx.createQueue("async-refusals");
            List<Throwable> refused = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch done = new CountDownLatch(1);
            ctx.createProducer()
                    .setAsync(new CompletionListener() {
                        @Override
                        public void onCompletion(Message message) {
                            for (Runnable r : List.<Runnable>of(ctx::close, ctx::commit, ctx::rollback)) {
                                try {
                                    r.run();
                                } catch (Throwable t) {
                                    refused.add(t);
                                }
                            }
                            done.countDown();
                        }

                        @Override
                        public void onException(Message message, Exception exception) {
                            done.countDown();
                        }
                    })
                    .send(q, "in a transaction");
            assertTrue(done.await(10, TimeUnit.SECONDS));
            assertEquals(3, refused.size(), refused::toString);
            refused.forEach(t -> assertInstanceOf(IllegalStateRuntimeException.class, t));
            ctx.commit(); // the application thread may
            try (JMSContext check = node.factory().createContext()) {
                assertEquals("in a transaction", check.createConsumer(q).receiveBody(String.class, Wait.ARRIVES));
            }
        }
    }

    @Test
    void commitWaitsForAsynchronousSendsOfTheTransaction() {
        try (JMSContext ctx = node.factory().createContext(JMSContext.SESSION_TRANSACTED);
                JMSContext check = node.factory().createContext()) {
            Queue q = ctx.createQueue("async-tx");
            JMSConsumer c = check.createConsumer(q);
            Recorder recorder = new Recorder(3);
            recorder.delayMillis = 100;
            JMSProducer p = ctx.createProducer().setAsync(recorder);
            p.send(q, "t0").send(q, "t1").send(q, "t2");
            ctx.commit();
            assertEquals(
                    List.of("t0", "t1", "t2"), recorder.completed, "commit returned before the completion listeners");
            assertEquals(List.of("t0", "t1", "t2"), Wait.receiveTexts(c, 3));
            Wait.assertNothingAhead(check, q, c, "each was sent once");
        }
    }
}
