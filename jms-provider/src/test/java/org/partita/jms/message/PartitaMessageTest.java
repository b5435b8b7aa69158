package org.partita.jms.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.Queue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.Topic;
import java.io.Serializable;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.partita.jms.destination.PartitaQueue;
import org.partita.jms.destination.PartitaTemporaryTopic;
import org.partita.jms.destination.PartitaTopic;

/** Headers, property rules, acknowledgement and getBody of a message without a body. */
class PartitaMessageTest {

    // ---------------------------------------------------------------- headers

    @Test
    void newMessageHasSpecDefaults() {
        PartitaMessage m = new PartitaMessage();
        assertEquals(DeliveryMode.PERSISTENT, m.getJMSDeliveryMode());
        assertEquals(Message.DEFAULT_PRIORITY, m.getJMSPriority());
        assertFalse(m.getJMSRedelivered());
        assertNull(m.getJMSMessageID());
        assertNull(m.getJMSCorrelationID());
        assertNull(m.getJMSCorrelationIDAsBytes());
        assertNull(m.getJMSReplyTo());
        assertNull(m.getJMSDestination());
        assertNull(m.getJMSType());
        assertEquals(0, m.getJMSTimestamp());
        assertEquals(0, m.getJMSExpiration());
        assertEquals(0, m.getJMSDeliveryTime());
        assertFalse(m.getPropertyNames().hasMoreElements());
    }

    @Test
    void headersReadBackWhatWasSet() throws JMSException {
        PartitaMessage m = new PartitaMessage();
        PartitaQueue replyTo = new PartitaQueue("replies");
        PartitaTopic destination = new PartitaTopic("news");
        m.setJMSMessageID("ID:1");
        m.setJMSTimestamp(11);
        m.setJMSCorrelationID("corr");
        m.setJMSReplyTo(replyTo);
        m.setJMSDestination(destination);
        m.setJMSDeliveryMode(DeliveryMode.NON_PERSISTENT);
        m.setJMSRedelivered(true);
        m.setJMSType("kind");
        m.setJMSExpiration(22);
        m.setJMSDeliveryTime(33);
        m.setJMSPriority(9);
        assertEquals("ID:1", m.getJMSMessageID());
        assertEquals(11, m.getJMSTimestamp());
        assertEquals("corr", m.getJMSCorrelationID());
        assertSame(replyTo, m.getJMSReplyTo());
        assertSame(destination, m.getJMSDestination());
        assertEquals(DeliveryMode.NON_PERSISTENT, m.getJMSDeliveryMode());
        assertTrue(m.getJMSRedelivered());
        assertEquals("kind", m.getJMSType());
        assertEquals(22, m.getJMSExpiration());
        assertEquals(33, m.getJMSDeliveryTime());
        assertEquals(9, m.getJMSPriority());
    }

    @Test
    void correlationIdBytesReadBackAsTheSameBytes() {
        PartitaMessage m = new PartitaMessage();
        byte[] id = {0, 1, (byte) 0x7f, (byte) 0x80, (byte) 0xff, 'a'};
        m.setJMSCorrelationIDAsBytes(id);
        assertArrayEquals(id, m.getJMSCorrelationIDAsBytes());
        m.setJMSCorrelationIDAsBytes(null);
        assertNull(m.getJMSCorrelationIDAsBytes());
        assertNull(m.getJMSCorrelationID());
    }

    @Test
    void stringCorrelationIdCanBeReadAsBytes() {
        PartitaMessage m = new PartitaMessage();
        m.setJMSCorrelationID("abc");
        assertArrayEquals(new byte[] {'a', 'b', 'c'}, m.getJMSCorrelationIDAsBytes());
    }

    @Test
    void aDeliveryFromAPartitionNamesItAndTheNameIsNotSentOn() throws JMSException {
        PartitaTextMessage sent = new PartitaTextMessage();
        sent.setText("state");
        PartitaMessage fromPartition = MessageFactory.fromWire(sent.toWire(), 1, 5);
        assertEquals(5, fromPartition.getIntProperty(org.partita.jms.api.PartitaProperties.PARTITION));
        assertFalse(
                fromPartition.toWire().properties().containsKey(org.partita.jms.api.PartitaProperties.PARTITION),
                "a received message sent on does not carry the partition it came from");
        assertFalse(
                MessageFactory.fromWire(sent.toWire(), 1, -1)
                        .propertyExists(org.partita.jms.api.PartitaProperties.PARTITION),
                "no partition, no property");
    }

    @Test
    void foreignDestinationsAreConvertedByName() throws JMSException {
        PartitaMessage m = new PartitaMessage();
        m.setJMSReplyTo(foreignDestination(Queue.class, "getQueueName", "q1"));
        m.setJMSDestination(foreignDestination(Topic.class, "getTopicName", "t1"));
        assertEquals(new PartitaQueue("q1"), m.getJMSReplyTo());
        assertEquals(new PartitaTopic("t1"), m.getJMSDestination());
        m.setJMSReplyTo(foreignDestination(TemporaryTopic.class, "getTopicName", "tmp"));
        assertEquals(new PartitaTemporaryTopic("tmp", null), m.getJMSReplyTo());
        m.setJMSReplyTo(null);
        assertNull(m.getJMSReplyTo());
    }

    @Test
    void destinationThatIsNeitherQueueNorTopicIsRejected() {
        PartitaMessage m = new PartitaMessage();
        Destination odd = new Destination() {};
        assertThrows(InvalidDestinationException.class, () -> m.setJMSReplyTo(odd));
        assertThrows(InvalidDestinationException.class, () -> m.setJMSDestination(odd));
        Queue unnamed = foreignDestination(Queue.class, "getQueueName", "");
        assertThrows(InvalidDestinationException.class, () -> m.setJMSReplyTo(unnamed));
    }

    static <D extends Destination> D foreignDestination(Class<D> type, String nameMethod, String name) {
        return type.cast(Proxy.newProxyInstance(
                PartitaMessageTest.class.getClassLoader(),
                new Class<?>[] {type},
                (proxy, method, args) -> switch (method.getName()) {
                    case "toString" -> "foreign:" + name;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> {
                        if (method.getName().equals(nameMethod)) {
                            yield name;
                        }
                        throw new UnsupportedOperationException(method.getName());
                    }
                }));
    }

    // ---------------------------------------------------------------- property names

    /** 3.5.1: null and empty are the only invalid names. */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.NullAndEmptySource
    void invalidNamesAreRejectedByEverySetter(String name) {
        PartitaMessage m = new PartitaMessage();
        assertThrows(IllegalArgumentException.class, () -> m.setBooleanProperty(name, true));
        assertThrows(IllegalArgumentException.class, () -> m.setByteProperty(name, (byte) 1));
        assertThrows(IllegalArgumentException.class, () -> m.setShortProperty(name, (short) 1));
        assertThrows(IllegalArgumentException.class, () -> m.setIntProperty(name, 1));
        assertThrows(IllegalArgumentException.class, () -> m.setLongProperty(name, 1));
        assertThrows(IllegalArgumentException.class, () -> m.setFloatProperty(name, 1));
        assertThrows(IllegalArgumentException.class, () -> m.setDoubleProperty(name, 1));
        assertThrows(IllegalArgumentException.class, () -> m.setStringProperty(name, "x"));
        assertThrows(IllegalArgumentException.class, () -> m.setObjectProperty(name, "x"));
        assertFalse(m.getPropertyNames().hasMoreElements());
    }

    @Test
    void nullNameIsRejected() {
        PartitaMessage m = new PartitaMessage();
        assertThrows(IllegalArgumentException.class, () -> m.setStringProperty(null, "x"));
        assertThrows(IllegalArgumentException.class, () -> m.setIntProperty(null, 1));
        assertThrows(IllegalArgumentException.class, () -> m.setObjectProperty(null, 1));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "a",
                "_",
                "$",
                "_x1",
                "$price",
                "abc123",
                "nullable",
                "Notice",
                "island",
                "escapes",
                "JMSXGroupSeq",
                "JMS_vendor",
                "café",
                "日本"
            })
    void validNamesAreAccepted(String name) throws JMSException {
        PartitaMessage m = new PartitaMessage();
        m.setIntProperty(name, 5);
        assertEquals(5, m.getIntProperty(name));
    }

    // ---------------------------------------------------------------- property values

    @Test
    void objectPropertyAcceptsWrappersAndString() throws JMSException {
        PartitaMessage m = new PartitaMessage();
        List<Object> values = List.of(true, (byte) 1, (short) 2, 3, 4L, 5f, 6d, "seven");
        for (int i = 0; i < values.size(); i++) {
            m.setObjectProperty("p" + i, values.get(i));
        }
        for (int i = 0; i < values.size(); i++) {
            assertEquals(values.get(i), m.getObjectProperty("p" + i));
        }
        m.setObjectProperty("none", null);
        assertTrue(m.propertyExists("none"));
        assertNull(m.getObjectProperty("none"));
    }

    @Test
    void objectPropertyRejectsOtherTypes() {
        PartitaMessage m = new PartitaMessage();
        for (Object bad : new Object[] {
            'c', new byte[] {1}, new Object(), new Date(), new ArrayList<>(), Map.of(), new java.math.BigDecimal("1")
        }) {
            assertThrows(
                    MessageFormatException.class,
                    () -> m.setObjectProperty("p", bad),
                    bad.getClass().getName());
        }
        assertFalse(m.propertyExists("p"));
    }

    /** 3.5.1: only null and empty names are refused; selector words and other characters are names too. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "true",
                "and",
                "between",
                "NULL",
                "Escape",
                "in",
                "is",
                "order-id",
                "1st",
                "a b",
                "a.b",
                "é-x",
                "JMS_vendor"
            })
    void anyNonEmptyPropertyNameIsAccepted(String name) throws JMSException {
        PartitaMessage m = new PartitaMessage();
        m.setStringProperty(name, "v");
        assertEquals("v", m.getStringProperty(name));
        assertTrue(Collections.list(m.getPropertyNames()).contains(name));
    }

    @Test
    void propertyNamesEnumeratesInInsertionOrderAndIsASnapshot() throws JMSException {
        PartitaMessage m = new PartitaMessage();
        m.setIntProperty("b", 1);
        m.setStringProperty("a", "x");
        m.setBooleanProperty("c", true);
        m.setIntProperty("b", 2); // replacing keeps the position
        List<?> names = Collections.list(m.getPropertyNames());
        assertEquals(List.of("b", "a", "c"), names);
        var e = m.getPropertyNames();
        m.setIntProperty("d", 4);
        assertEquals(3, Collections.list(e).size());
    }

    @Test
    void propertyExistsAndClearProperties() throws JMSException {
        PartitaMessage m = new PartitaMessage();
        assertFalse(m.propertyExists("a"));
        m.setIntProperty("a", 1);
        assertTrue(m.propertyExists("a"));
        assertFalse(m.propertyExists("A"));
        m.clearProperties();
        assertFalse(m.propertyExists("a"));
        assertFalse(m.getPropertyNames().hasMoreElements());
    }

    @Test
    void clearPropertiesLeavesHeadersAndBodyAlone() throws JMSException {
        PartitaTextMessage m = new PartitaTextMessage("body");
        m.setJMSType("t");
        m.setIntProperty("a", 1);
        m.clearProperties();
        assertEquals("t", m.getJMSType());
        assertEquals("body", m.getText());
    }

    @Test
    void groupPropertiesAreSettableWithTheirSpecTypes() throws JMSException {
        PartitaMessage m = new PartitaMessage();
        m.setStringProperty("JMSXGroupID", "g1");
        m.setIntProperty("JMSXGroupSeq", 3);
        assertEquals("g1", m.getStringProperty("JMSXGroupID"));
        assertEquals(3, m.getIntProperty("JMSXGroupSeq"));
        m.setObjectProperty("JMSXGroupSeq", 4);
        assertEquals(4, m.getIntProperty("JMSXGroupSeq"));
        assertEquals("g1", m.toWire().partitionKey());
    }

    @Test
    void groupPropertiesWithTheWrongTypeAreRejected() {
        PartitaMessage m = new PartitaMessage();
        assertThrows(MessageFormatException.class, () -> m.setIntProperty("JMSXGroupID", 1));
        assertThrows(MessageFormatException.class, () -> m.setStringProperty("JMSXGroupSeq", "1"));
        assertThrows(MessageFormatException.class, () -> m.setLongProperty("JMSXGroupSeq", 1));
    }

    // ---------------------------------------------------------------- received messages

    @Test
    void receivedPropertiesAreReadOnlyUntilCleared() throws JMSException {
        PartitaMessage sent = new PartitaMessage();
        sent.setIntProperty("a", 1);
        PartitaMessage m = TestMessages.received(sent);
        assertThrows(MessageNotWriteableException.class, () -> m.setBooleanProperty("b", true));
        assertThrows(MessageNotWriteableException.class, () -> m.setByteProperty("b", (byte) 1));
        assertThrows(MessageNotWriteableException.class, () -> m.setShortProperty("b", (short) 1));
        assertThrows(MessageNotWriteableException.class, () -> m.setIntProperty("a", 2));
        assertThrows(MessageNotWriteableException.class, () -> m.setLongProperty("b", 1));
        assertThrows(MessageNotWriteableException.class, () -> m.setFloatProperty("b", 1));
        assertThrows(MessageNotWriteableException.class, () -> m.setDoubleProperty("b", 1));
        assertThrows(MessageNotWriteableException.class, () -> m.setStringProperty("b", "x"));
        assertThrows(MessageNotWriteableException.class, () -> m.setObjectProperty("b", "x"));
        assertEquals(1, m.getIntProperty("a"));
        m.clearProperties();
        m.setIntProperty("a", 2);
        assertEquals(2, m.getIntProperty("a"));
    }

    @Test
    void receivedHeadersStayWritable() throws JMSException {
        PartitaMessage m = TestMessages.received(new PartitaMessage());
        m.setJMSType("changed");
        m.setJMSPriority(1);
        m.setJMSCorrelationID("c");
        m.setJMSRedelivered(true);
        assertEquals("changed", m.getJMSType());
        assertEquals(1, m.getJMSPriority());
        assertEquals("c", m.getJMSCorrelationID());
    }

    @Test
    void deliveryCountIsAnIntPropertyAndDrivesRedelivered() throws JMSException {
        PartitaMessage first = TestMessages.received(new PartitaMessage(), 1);
        assertFalse(first.getJMSRedelivered());
        assertEquals(1, first.getIntProperty("JMSXDeliveryCount"));
        assertTrue(first.propertyExists("JMSXDeliveryCount"));
        assertTrue(Collections.list(first.getPropertyNames()).contains("JMSXDeliveryCount"));

        PartitaMessage third = TestMessages.received(new PartitaMessage(), 3);
        assertTrue(third.getJMSRedelivered());
        assertEquals(3, third.getIntProperty("JMSXDeliveryCount"));
        assertEquals(3L, third.getLongProperty("JMSXDeliveryCount"));
        assertEquals("3", third.getStringProperty("JMSXDeliveryCount"));
        assertEquals(3, third.getObjectProperty("JMSXDeliveryCount"));
    }

    @Test
    void deliveryCountIsNotSentOn() throws JMSException {
        PartitaMessage received = TestMessages.received(new PartitaMessage(), 4);
        assertFalse(received.toWire().properties().containsKey("JMSXDeliveryCount"));
        PartitaMessage again = TestMessages.received(received, 1);
        assertEquals(1, again.getIntProperty("JMSXDeliveryCount"));
        assertFalse(again.getJMSRedelivered());
    }

    // ---------------------------------------------------------------- acknowledge

    @Test
    void acknowledgeWithoutHookDoesNothing() {
        assertDoesNotThrow(() -> new PartitaMessage().acknowledge());
    }

    @Test
    void acknowledgeCallsTheHook() throws JMSException {
        AtomicInteger calls = new AtomicInteger();
        PartitaMessage m = new PartitaMessage();
        m.setAcknowledger(calls::incrementAndGet);
        m.acknowledge();
        m.acknowledge();
        assertEquals(2, calls.get());
        m.setAcknowledger(null);
        m.acknowledge();
        assertEquals(2, calls.get());
    }

    @Test
    void acknowledgeFailurePropagates() {
        PartitaMessage m = new PartitaMessage();
        m.setAcknowledger(() -> {
            throw new jakarta.jms.IllegalStateException("session closed");
        });
        assertThrows(jakarta.jms.IllegalStateException.class, m::acknowledge);
    }

    // ---------------------------------------------------------------- body

    @Test
    void messageWithoutBodyReturnsNullForAnyType() throws JMSException {
        PartitaMessage m = new PartitaMessage();
        assertNull(m.getBody(String.class));
        assertNull(m.getBody(Integer.class));
        assertNull(m.getBody(Serializable.class));
        assertTrue(m.isBodyAssignableTo(String.class));
        assertTrue(m.isBodyAssignableTo(Map.class));
        m.clearBody();
        assertNull(TestMessages.received(m).getBody(Object.class));
    }

    @Test
    void toStringNamesTheMessage() {
        PartitaMessage m = new PartitaTextMessage();
        m.setJMSMessageID("ID:x");
        assertTrue(m.toString().contains("ID:x"));
        assertTrue(m.toString().contains("PartitaTextMessage"));
    }
}
