package org.partita.broker.it.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.broker.it.Absence;
import org.partita.broker.it.NodeExtension;

/**
 * {@code JMSXGroupID} on a plain queue: a key is with one consumer at a time, only while that
 * consumer holds unacknowledged messages of it; other keys and unkeyed messages flow meanwhile.
 */
@Tag("slow")
@Timeout(60)
class PlainQueueKeysTest {
    private static final String QUEUE = "keys";

    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    private static void send(Session s, MessageProducer p, String key, String text) throws Exception {
        TextMessage m = s.createTextMessage(text);
        if (key != null) {
            m.setStringProperty("JMSXGroupID", key);
        }
        p.send(m);
    }

    @Test
    void aKeyWaitsForItsHolderWhileOtherKeysGoToTheOtherConsumer() throws Exception {
        try (Connection ca = node.factory().createConnection();
                Connection cb = node.factory().createConnection();
                Connection prod = node.factory().createConnection()) {
            Session sa = ca.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            Session sb = cb.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            Session ps = prod.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = ps.createProducer(ps.createQueue(QUEUE));
            MessageConsumer a = sa.createConsumer(sa.createQueue(QUEUE));
            ca.start();
            send(ps, p, "k", "k1");
            Message k1 = a.receive(5000);
            assertEquals("k1", ((TextMessage) k1).getText());

            MessageConsumer b = sb.createConsumer(sb.createQueue(QUEUE));
            cb.start();
            for (int i = 2; i <= 4; i++) {
                send(ps, p, "k", "k" + i);
            }
            send(ps, p, "other", "o1");
            send(ps, p, null, "plain");
            List<String> atB = drain(b, true);
            List<String> atA = drain(a, false);
            assertTrue(
                    atB.stream().noneMatch(t -> t.startsWith("k")),
                    "k's messages wait for A while it holds k1; B got " + atB);
            assertEquals(
                    List.of("k2", "k3", "k4"),
                    atA.stream().filter(t -> t.startsWith("k")).toList(),
                    "the holder of a key gets the key's next messages, in order");
            List<String> elsewhere = new ArrayList<>(atA);
            elsewhere.addAll(atB);
            assertTrue(
                    elsewhere.contains("o1") && elsewhere.contains("plain"),
                    "other messages flow meanwhile: " + elsewhere);

            k1.acknowledge(); // acknowledges everything A received: k is free
            send(ps, p, "k", "k5");
            List<String> after = new ArrayList<>(drain(b, true));
            after.addAll(drain(a, true));
            assertEquals(List.of("k5"), after, "once acknowledged, the key's next message goes to a consumer");
        }
    }

    /** What a consumer receives until it has been idle for half a second. */
    private static List<String> drain(MessageConsumer c, boolean acknowledge) throws Exception {
        List<String> got = new ArrayList<>();
        for (Message m; (m = c.receive(500)) != null; ) {
            got.add(((TextMessage) m).getText());
            if (acknowledge) {
                m.acknowledge();
            }
        }
        return got;
    }

    @Test
    void aKeyIsNotPinnedOnceItsHolderAcknowledgedEverything() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue(QUEUE));
            MessageConsumer a = s.createConsumer(s.createQueue(QUEUE));
            Session s2 = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer b = s2.createConsumer(s2.createQueue(QUEUE));
            c.start();
            int atA = 0;
            int atB = 0;
            for (int i = 0; i < 40; i++) {
                send(s, p, "k", "m" + i);
                // each message is taken and acknowledged before the next is sent: the key is free every time
                Message m = i % 2 == 0 ? a.receive(5000) : b.receive(5000);
                assertNotNull(m, "message " + i + " reaches the consumer whose turn it is");
                assertEquals("m" + i, ((TextMessage) m).getText());
                if (i % 2 == 0) {
                    atA++;
                } else {
                    atB++;
                }
            }
            assertEquals(20, atA);
            assertEquals(20, atB);
        }
    }

    @Test
    void aConsumerThatLeavesWithKeysHandsThemOnFlaggedAndInOrder() throws Exception {
        try (Connection ca = node.factory().createConnection();
                Connection cb = node.factory().createConnection()) {
            Session sa = ca.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageProducer p = sa.createProducer(sa.createQueue(QUEUE));
            for (int i = 0; i < 5; i++) {
                send(sa, p, "k", "k" + i);
            }
            MessageConsumer a = sa.createConsumer(sa.createQueue(QUEUE));
            ca.start();
            assertEquals("k0", ((TextMessage) a.receive(5000)).getText());
            assertEquals("k1", ((TextMessage) a.receive(5000)).getText());

            Session sb = cb.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer b = sb.createConsumer(sb.createQueue(QUEUE));
            cb.start();
            // A time window is the only evidence: every message here carries the key, so a sentinel would be
            // held with it, and a figure read now says nothing of a delivery to b a moment later.
            Absence.assertNothingArrivesDuring(b, Duration.ofMillis(500), "the key is A's while A holds k0 and k1");

            ca.close(); // leaves without acknowledging
            for (int i = 0; i < 5; i++) {
                Message m = b.receive(5000);
                assertNotNull(m, "k" + i + " reaches the remaining consumer: the key does not stall");
                assertEquals("k" + i, ((TextMessage) m).getText());
                assertEquals(i < 2, m.getJMSRedelivered(), "k" + i + " redelivered flag");
                assertEquals(i < 2 ? 2 : 1, m.getIntProperty("JMSXDeliveryCount"), "k" + i + " delivery count");
            }
        }
    }

    /**
     * Closing a client-acknowledged consumer does not settle what its application received: the
     * session still owns those messages (JMS), so the key stays with it until the session ends.
     */
    @Test
    void aClosedConsumersKeyStaysWithItsSessionUntilTheSessionSettles() throws Exception {
        try (Connection ca = node.factory().createConnection();
                Connection cb = node.factory().createConnection()) {
            Session sa = ca.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageProducer p = sa.createProducer(sa.createQueue(QUEUE));
            for (int i = 0; i < 4; i++) {
                send(sa, p, "k", "k" + i);
            }
            MessageConsumer a = sa.createConsumer(sa.createQueue(QUEUE));
            ca.start();
            assertEquals("k0", ((TextMessage) a.receive(5000)).getText());

            Session sb = cb.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer b = sb.createConsumer(sb.createQueue(QUEUE));
            cb.start();
            a.close(); // k1..k3 prefetched and unseen go back; k0 stays with session A, unacknowledged
            // A time window is the only evidence: every message here carries the key, so a sentinel would be
            // held with it, and a figure read now says nothing of a delivery to b a moment later.
            Absence.assertNothingArrivesDuring(
                    b, Duration.ofMillis(500), "the key stays with A's session while it holds k0");

            sa.close(); // the session ends without acknowledging: k0 comes back flagged, the key moves on
            for (int i = 0; i < 4; i++) {
                Message m = b.receive(5000);
                assertNotNull(m, "k" + i + " reaches the remaining consumer once A's session has closed");
                assertEquals("k" + i, ((TextMessage) m).getText());
                assertEquals(
                        i == 0, m.getJMSRedelivered(), "k" + i + " redelivered flag: only what A's application saw");
            }
        }
    }

    @Test
    void aKeysOrderWinsOverJmsPriority() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue(QUEUE));
            p.setPriority(1);
            send(s, p, "k", "first, low priority");
            send(s, p, null, "unkeyed, low priority");
            p.setPriority(9);
            send(s, p, "k", "second, high priority");
            send(s, p, null, "unkeyed, high priority");
            MessageConsumer consumer = s.createConsumer(s.createQueue(QUEUE));
            c.start();
            List<String> got = new ArrayList<>();
            for (Message m; (m = consumer.receive(1000)) != null; ) {
                got.add(((TextMessage) m).getText());
            }
            assertEquals(4, got.size(), "all arrive: " + got);
            assertTrue(got.indexOf("first, low priority") < got.indexOf("second, high priority"), "key order: " + got);
            assertTrue(
                    got.indexOf("unkeyed, high priority") < got.indexOf("unkeyed, low priority"),
                    "JMS priority: " + got);
        }
    }
}
