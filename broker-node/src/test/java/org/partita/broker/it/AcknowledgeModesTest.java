package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.jms.api.PartitaAdmin;

/** JMS 6.2.7 acknowledge modes and redelivery (JMS 6.2.10, 8.7), end to end through a node. */
@Tag("slow")
class AcknowledgeModesTest {
    private static final long RECEIVE_MS = 5000;

    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    private void send(String queue, int n) throws JMSException {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(true, Session.SESSION_TRANSACTED);
            MessageProducer p = s.createProducer(s.createQueue(queue));
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            for (int i = 0; i < n; i++) {
                p.send(s.createTextMessage("m" + i));
            }
            s.commit();
        }
    }

    private static String text(Message m) throws JMSException {
        assertNotNull(m, "a message within " + RECEIVE_MS + " ms");
        return ((TextMessage) m).getText();
    }

    private void assertQueueEmpty(String queue) throws JMSException {
        try (Connection c = node.factory().createConnection()) {
            Absence.awaitQueueHoldsNothing(c, queue, "queue " + queue + " is empty");
        }
    }

    @Test
    void autoAcknowledgeConsumesOnReceive() throws Exception {
        send("auto", 5);
        try (Connection c = node.factory().createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = s.createConsumer(s.createQueue("auto"));
            for (int i = 0; i < 5; i++) {
                Message m = consumer.receive(RECEIVE_MS);
                assertEquals("m" + i, text(m));
                assertFalse(m.getJMSRedelivered());
                assertEquals(1, m.getIntProperty("JMSXDeliveryCount"));
            }
        }
        assertQueueEmpty("auto");
    }

    @Test
    void dupsOkAcknowledgeConsumesOnReceive() throws Exception {
        send("dups", 5);
        try (Connection c = node.factory().createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.DUPS_OK_ACKNOWLEDGE);
            assertEquals(Session.DUPS_OK_ACKNOWLEDGE, s.getAcknowledgeMode());
            MessageConsumer consumer = s.createConsumer(s.createQueue("dups"));
            for (int i = 0; i < 5; i++) {
                assertEquals("m" + i, text(consumer.receive(RECEIVE_MS)));
            }
        }
        assertQueueEmpty("dups");
    }

    @Test
    void clientAcknowledgeAcknowledgesEverythingConsumedSoFarAndRecoverRedeliversTheRest() throws Exception {
        send("client", 5);
        try (Connection c = node.factory().createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageConsumer consumer = s.createConsumer(s.createQueue("client"));
            Message m0 = consumer.receive(RECEIVE_MS);
            Message m1 = consumer.receive(RECEIVE_MS);
            Message m2 = consumer.receive(RECEIVE_MS);
            assertEquals(List.of("m0", "m1", "m2"), List.of(text(m0), text(m1), text(m2)));
            m0.acknowledge(); // acknowledges m0, m1 and m2: everything the session consumed so far

            assertEquals("m3", text(consumer.receive(RECEIVE_MS)));
            assertEquals("m4", text(consumer.receive(RECEIVE_MS)));
            s.recover();
            for (String expected : List.of("m3", "m4")) {
                Message again = consumer.receive(RECEIVE_MS);
                assertEquals(expected, text(again));
                assertTrue(again.getJMSRedelivered(), expected + " JMSRedelivered");
                assertEquals(2, again.getIntProperty("JMSXDeliveryCount"), expected + " JMSXDeliveryCount");
            }
            String sentinel = Absence.sendSentinel(s, s.createQueue("client"));
            Absence.assertNextIsSentinel(consumer, sentinel, "m0..m2 were acknowledged and are not redelivered");
            s.recover();
            Message m3 = consumer.receive(RECEIVE_MS);
            assertEquals("m3", text(m3));
            assertEquals(3, m3.getIntProperty("JMSXDeliveryCount"));
            assertEquals("m4", text(consumer.receive(RECEIVE_MS)));
            Absence.assertNextIsSentinel(consumer, sentinel, "the unacknowledged sentinel is recovered too");
            m3.acknowledge();
        }
        assertQueueEmpty("client");
    }

    @Test
    void unacknowledgedMessagesOfAClosedConnectionGoToAnotherConnection() throws Exception {
        send("handover", 5);
        Connection first = node.factory().createConnection();
        first.start();
        Session s1 = first.createSession(false, Session.CLIENT_ACKNOWLEDGE);
        MessageConsumer c1 = s1.createConsumer(s1.createQueue("handover"));
        for (int i = 0; i < 3; i++) {
            assertEquals("m" + i, text(c1.receive(RECEIVE_MS))); // seen, never acknowledged
        }
        // m3 and m4 sit in first's prefetch buffer, unseen by the application

        try (Connection second = node.factory().createConnection()) {
            second.start();
            Session s2 = second.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageConsumer c2 = s2.createConsumer(s2.createQueue("handover"));
            Absence.awaitQueue(
                    second, "handover", "all five delivered, none waiting", q -> q.depth() == 0 && q.inFlight() == 5);
            assertEquals(
                    List.of("0", "5"),
                    PartitaAdmin.on(second).consumers("handover").stream()
                            .map(consumer -> consumer.get("inFlight"))
                            .sorted()
                            .toList(),
                    "everything is held by the first connection");
            first.close();

            // JMS 6.2.9: redelivered messages need not keep their place, so only the set is checked
            Map<String, Message> byText = new TreeMap<>();
            Message last = null;
            for (int i = 0; i < 5; i++) {
                Message m = c2.receive(RECEIVE_MS);
                byText.put(text(m), m);
                last = m;
            }
            assertEquals(List.of("m0", "m1", "m2", "m3", "m4"), List.copyOf(byText.keySet()));
            for (Map.Entry<String, Message> e : byText.entrySet()) {
                boolean seenBefore = List.of("m0", "m1", "m2").contains(e.getKey());
                assertEquals(seenBefore, e.getValue().getJMSRedelivered(), e.getKey() + " JMSRedelivered");
                assertEquals(
                        seenBefore ? 2 : 1,
                        e.getValue().getIntProperty("JMSXDeliveryCount"),
                        e.getKey() + " JMSXDeliveryCount");
            }
            last.acknowledge();
        }
        assertQueueEmpty("handover");
    }

    @Test
    void messageListenerGetsAThousandMessagesInOrder() throws Exception {
        int n = 1000;
        send("listener", n);
        List<String> got = new CopyOnWriteArrayList<>();
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            s.createConsumer(s.createQueue("listener")).setMessageListener(m -> {
                try {
                    got.add(((TextMessage) m).getText());
                } catch (JMSException e) {
                    got.add("error: " + e);
                }
            });
            c.start();
            await("1000 messages").atMost(Duration.ofSeconds(30)).until(() -> got.size() >= n);
        }
        assertEquals(IntStream.range(0, n).mapToObj(i -> "m" + i).toList(), got);
        assertQueueEmpty("listener");
    }

    @Test
    void messageListenerThatThrowsInAutoModeGetsTheMessageAgain() throws Exception {
        send("throws", 1);
        List<Message> got = new CopyOnWriteArrayList<>();
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            s.createConsumer(s.createQueue("throws")).setMessageListener(m -> {
                got.add(m);
                if (got.size() == 1) {
                    throw new RuntimeException("the application failed on the first delivery (expected by the test)");
                }
            });
            c.start();
            await("the redelivery").atMost(Duration.ofSeconds(10)).until(() -> got.size() >= 2);
            await("no third delivery")
                    .during(Duration.ofMillis(300))
                    .atMost(Duration.ofSeconds(2))
                    .until(() -> got.size() == 2);
        }
        assertEquals("m0", text(got.get(0)));
        assertFalse(got.get(0).getJMSRedelivered());
        assertEquals("m0", text(got.get(1)));
        assertTrue(got.get(1).getJMSRedelivered(), "JMS 8.7: redelivered after the listener threw");
        assertEquals(2, got.get(1).getIntProperty("JMSXDeliveryCount"));
        assertQueueEmpty("throws");
    }

    @Test
    void messageRolledBackTenTimesGoesToTheDeadLetterQueue() throws Exception {
        send("poison", 1);
        String messageId;
        try (Connection c = node.factory().createConnection()) {
            c.start();
            Session tx = c.createSession(true, Session.SESSION_TRANSACTED);
            MessageConsumer consumer = tx.createConsumer(tx.createQueue("poison"));
            Message m = null;
            for (int attempt = 1; attempt <= 10; attempt++) {
                m = consumer.receive(RECEIVE_MS);
                assertEquals("m0", text(m), "attempt " + attempt);
                assertEquals(attempt, m.getIntProperty("JMSXDeliveryCount"));
                assertEquals(attempt > 1, m.getJMSRedelivered());
                tx.rollback();
            }
            messageId = m.getJMSMessageID();
            Absence.awaitQueue(
                    c,
                    "poison",
                    "after 10 delivery attempts the message left the queue",
                    q -> q.depth() == 0 && q.inFlight() == 0 && q.deadLettered() == 1);
        }
        try (Connection c = node.factory().createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue dlq = s.createQueue("DLQ");
            Message dead = s.createConsumer(dlq).receive(RECEIVE_MS);
            assertEquals("m0", text(dead), "the poison message is in DLQ");
            assertEquals(messageId, dead.getJMSMessageID());
        }
        assertQueueEmpty("poison");
        assertQueueEmpty("DLQ");
    }
}
