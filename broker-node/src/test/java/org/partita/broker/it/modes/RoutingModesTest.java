package org.partita.broker.it.modes;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.broker.it.Absence;
import org.partita.broker.it.NodeExtension;
import org.partita.broker.store.StoreFigures;
import org.partita.jms.api.PartitaAdmin;
import org.partita.jms.api.PartitaConsumer;
import org.partita.jms.api.PartitaDestinations;
import org.partita.jms.api.PartitionListener;

@Tag("slow")
class RoutingModesTest {
    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    private static void send(Session s, String queue, int n, String prefix) throws Exception {
        MessageProducer p = s.createProducer(s.createQueue(queue));
        for (int i = 0; i < n; i++) {
            p.send(s.createTextMessage(prefix + i));
        }
        p.close();
    }

    private static long written(Map<String, String> status, String figure) {
        assertNotNull(status.get(figure), figure + " in " + status);
        return Long.parseLong(status.get(figure));
    }

    /** Each consumer's deliveries by its priority ({@code consumer.list}), once the queue holds nothing. */
    private static Map<String, String> deliveredByPriority(Connection c, String queue) throws Exception {
        Absence.awaitQueueHoldsNothing(c, queue, "every message of " + queue + " consumed and acknowledged");
        Map<String, String> delivered = new TreeMap<>();
        for (Map<String, String> consumer : PartitaAdmin.on(c).consumers(queue)) {
            assertNull(
                    delivered.put(consumer.get("priority"), consumer.get("delivered")),
                    "one consumer per priority: " + consumer);
        }
        return delivered;
    }

    /** A sentinel its selector lets through ({@code property = value}) is the next message {@code consumer} gets. */
    private static void assertSelectedSentinelIsNext(
            Session s, String queue, String property, String value, MessageConsumer consumer, String why)
            throws Exception {
        TextMessage sentinel = s.createTextMessage();
        sentinel.setStringProperty(property, value);
        Absence.assertNextIsSentinel(consumer, Absence.sendSentinel(s, s.createQueue(queue), sentinel), why);
    }

    private static int drain(MessageConsumer c, long quietMillis) throws Exception {
        int n = 0;
        while (c.receive(quietMillis) != null) {
            n++;
        }
        return n;
    }

    @Test
    void onlyTheHighestPriorityPresentReceivesAndTheBackupTakesOverWhenThePrimaryLeaves() throws Exception {
        try (Connection c1 = node.factory().createConnection();
                Connection c2 = node.factory().createConnection()) {
            Session primarySession = c1.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Session backupSession = c2.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer primary = primarySession.createConsumer(primarySession.createQueue("jobs?priority=10"));
            MessageConsumer backup = backupSession.createConsumer(backupSession.createQueue("jobs?priority=1"));
            c1.start();
            c2.start();
            send(primarySession, "jobs", 10, "a");
            assertEquals(10, drain(primary, 300));
            assertEquals(
                    Map.of("10", "10", "1", "0"),
                    deliveredByPriority(c2, "jobs"),
                    "the backup gets nothing while the primary is there");
            c1.close();
            send(backupSession, "jobs", 5, "b");
            assertEquals(5, drain(backup, 500), "the backup takes over");
        }
    }

    @Test
    void priorityChangesWhileAttachedElectANewLeader() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s1 = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Session s2 = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            PartitaConsumer a = (PartitaConsumer) s1.createConsumer(s1.createQueue("leader"));
            PartitaConsumer b = (PartitaConsumer) s2.createConsumer(s2.createQueue("leader"));
            c.start();
            a.setPriority(5);
            assertEquals(5, a.getPriority());
            send(s1, "leader", 4, "x");
            assertEquals(4, drain(a, 300), "a leads");
            assertEquals(
                    Map.of("5", "4", String.valueOf(b.getPriority()), "0"),
                    deliveredByPriority(c, "leader"),
                    "b gets nothing while a leads");
            b.setPriority(9);
            send(s1, "leader", 4, "y");
            assertEquals(4, drain(b, 300), "b leads once its priority rose");
            assertEquals(Map.of("5", "4", "9", "4"), deliveredByPriority(c, "leader"), "a gets nothing once b leads");
        }
    }

    @Test
    void equalPrioritiesShareRoundRobinAndANewConsumerGetsItsShareAtOnce() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s1 = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Session s2 = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer a = s1.createConsumer(s1.createQueue("work"));
            c.start();
            MessageConsumer b = s2.createConsumer(s2.createQueue("work"));
            send(s1, "work", 20, "w");
            int na = drain(a, 300);
            int nb = drain(b, 300);
            assertEquals(20, na + nb);
            assertEquals(10, na, "round-robin among equals");
        }
    }

    @Test
    void capacityBoundsUnacknowledgedMessagesAndASlowConsumerDoesNotSlowTheOthers() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session slowSession = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            Session fastSession = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer slow = slowSession.createConsumer(slowSession.createQueue("cap?capacity=2"));
            MessageConsumer fast = fastSession.createConsumer(fastSession.createQueue("cap"));
            c.start();
            send(fastSession, "cap", 30, "c");
            Message m1 = slow.receive(2000);
            Message m2 = slow.receive(2000);
            assertNotNull(m1);
            assertNotNull(m2);
            int fastGot = drain(fast, 300);
            // every message accounted for: the slow consumer holds its two, unacknowledged, and nothing waits
            Absence.awaitQueue(
                    c,
                    "cap",
                    "capacity 2: nothing more until it acknowledges",
                    q -> q.depth() == 0 && q.inFlight() == 2);
            assertEquals(28, fastGot, "the fast consumer takes the rest");
            m2.acknowledge();
        }
    }

    @Test
    void byteCapacityBoundsUnacknowledgedBytesAndKeepsAKeysOrder() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("bytes?partitions=2&rebalanceDelay=100"));
            String big = "x".repeat(4000);
            for (int i = 0; i < 6; i++) {
                TextMessage m = s.createTextMessage(i % 2 == 0 ? big : "small");
                m.setStringProperty("JMSXGroupID", "one-key");
                m.setIntProperty("seq", i);
                p.send(m);
            }
            MessageConsumer consumer = s.createConsumer(s.createQueue("bytes?capacityBytes=6000"));
            c.start();
            Message first = consumer.receive(2000);
            Message second = consumer.receive(2000);
            assertEquals(0, first.getIntProperty("seq"));
            assertEquals(1, second.getIntProperty("seq"));
            // A time window is the only evidence here: a sentinel would be held back by the same capacity
            // (and, on the key, must be), and a figure read now says nothing of a delivery a moment later.
            Absence.assertNothingArrivesDuring(
                    consumer, Duration.ofMillis(300), "the next big message does not fit, and nothing may overtake it");
            second.acknowledge();
            for (int i = 2; i < 6; i++) {
                Message m = consumer.receive(2000);
                assertNotNull(m);
                assertEquals(i, m.getIntProperty("seq"), "the key's order holds under byte capacity");
                m.acknowledge();
            }
        }
    }

    @Test
    void fanOutGivesEveryAppIdEveryMessageAndStoresEachPayloadOnce() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            node.node().broker().updateQueue("orders", "mode=fanout&appIds=billing,audit,shipping"); // the admin call
            MessageProducer p = s.createProducer(s.createQueue("orders"));
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            StoreFigures before = node.node().store().figures();
            Map<String, String> statusBefore = PartitaAdmin.on(c).nodeStatus();
            for (int i = 0; i < 10; i++) {
                p.send(s.createTextMessage("order-" + i + "-" + "x".repeat(1000)));
            }
            StoreFigures after = node.node().store().figures();
            Map<String, String> statusAfter = PartitaAdmin.on(c).nodeStatus();
            assertEquals(
                    10,
                    written(statusAfter, "messagesWritten") - written(statusBefore, "messagesWritten"),
                    "node.status: one payload written per message");
            assertEquals(
                    30,
                    written(statusAfter, "entriesWritten") - written(statusBefore, "entriesWritten"),
                    "node.status: one entry written per AppId");
            assertEquals(10, after.messageRows() - before.messageRows(), "one payload row per message");
            assertEquals(30, after.entryRows() - before.entryRows(), "one delivery-state row per AppId");
            long payload = after.payloadBytes() - before.payloadBytes();
            assertTrue(payload < 10 * 1200, "payload bytes stored once: " + payload);

            MessageConsumer billing = s.createConsumer(PartitaDestinations.forApp(s.createQueue("orders"), "billing"));
            MessageConsumer audit = s.createConsumer(s.createQueue("orders?appId=audit"));
            c.start();
            List<Message> billed = new ArrayList<>();
            Message m;
            while ((m = billing.receive(300)) != null) {
                billed.add(m);
            }
            assertEquals(10, billed.size());
            assertEquals(10, drain(audit, 300));
            billed.get(billed.size() - 1).acknowledge(); // acknowledges billing and audit (same session)
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> node.node().store().figures().entryRows() - before.entryRows() == 10);
            assertEquals(
                    10,
                    node.node().store().figures().messageRows() - before.messageRows(),
                    "payloads stay while shipping has not acknowledged");

            Session s2 = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            assertEquals(10, drain(s2.createConsumer(s2.createQueue("orders?appId=shipping")), 300));
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> node.node().store().figures().messageRows() == before.messageRows());

            assertThrows(
                    jakarta.jms.JMSException.class,
                    () -> s2.createConsumer(s2.createQueue("orders")),
                    "a fan-out queue needs an appId");
        }
    }

    @Test
    void appIdsCanBeAddedAndRemovedThroughTheAdminCall() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            s.createProducer(s.createQueue("events?mode=fanout&appIds=a")).send(s.createTextMessage("creates it"));
            node.node().broker().updateQueue("events", "appIds=a,b");
            send(s, "events", 3, "e");
            c.start();
            assertEquals(3, drain(s.createConsumer(s.createQueue("events?appId=b")), 300));
            node.node().broker().updateQueue("events", "appIds=b");
            assertThrows(jakarta.jms.JMSException.class, () -> s.createConsumer(s.createQueue("events?appId=a")));
        }
    }

    @Test
    void broadcastGoesToEveryConsumerPresentAndKeepsNothing() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue ticks = s.createQueue("ticks?mode=broadcast");
            MessageProducer p = s.createProducer(ticks);
            p.send(s.createTextMessage("creates the queue"));
            Map<String, String> statusBefore = PartitaAdmin.on(c).nodeStatus();
            p.send(s.createTextMessage("nobody listens"));
            Session s1 = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Session s2 = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer a = s1.createConsumer(s1.createQueue("ticks"));
            MessageConsumer b = s2.createConsumer(s2.createQueue("ticks"));
            c.start();
            for (int i = 0; i < 5; i++) {
                p.send(s.createTextMessage("t" + i));
            }
            String sentinel = Absence.sendSentinel(s, ticks);
            for (MessageConsumer consumer : new MessageConsumer[] {a, b}) {
                for (int i = 0; i < 5; i++) {
                    assertEquals("t" + i, ((TextMessage) consumer.receive(2000)).getText());
                }
                Absence.assertNextIsSentinel(consumer, sentinel, "the message sent before anyone listened is gone");
            }
            assertEquals(0, node.node().store().figures().entryRows(), "broadcast stores nothing");
            Map<String, String> statusAfter = PartitaAdmin.on(c).nodeStatus();
            assertEquals(
                    written(statusBefore, "messagesWritten"),
                    written(statusAfter, "messagesWritten"),
                    "node.status: broadcast writes no payload");
            assertEquals(
                    written(statusBefore, "entriesWritten"),
                    written(statusAfter, "entriesWritten"),
                    "node.status: broadcast writes no entry");
        }
    }

    @Test
    void expiredMessagesGoToTheExpiryQueueWhenOneIsConfigured() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("perishable?expiryQueue=expired"));
            p.send(s.createTextMessage("milk"), DeliveryMode.PERSISTENT, 4, 100);
            p.send(s.createTextMessage("salt"), DeliveryMode.PERSISTENT, 4, 0);
            long sentAt = System.currentTimeMillis();
            await().atMost(Duration.ofSeconds(5)).until(() -> System.currentTimeMillis() > sentAt + 150);
            c.start();
            MessageConsumer consumer = s.createConsumer(s.createQueue("perishable"));
            assertEquals("salt", ((TextMessage) consumer.receive(2000)).getText());
            Absence.assertNothingAhead(
                    s, s.createQueue("perishable"), consumer, "the expired message is not delivered");
            TextMessage expired =
                    (TextMessage) s.createConsumer(s.createQueue("expired")).receive(2000);
            assertNotNull(expired, "the expired message was moved, not dropped");
            assertEquals("milk", expired.getText());
        }
    }

    @Test
    void expiredMessagesStayInTheExpiryQueueAcrossARestart() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("perishable2?expiryQueue=expired2"));
            p.send(s.createTextMessage("cream"), DeliveryMode.PERSISTENT, 4, 100);
            long sentAt = System.currentTimeMillis();
            await().atMost(Duration.ofSeconds(5)).until(() -> System.currentTimeMillis() > sentAt + 150);
            c.start();
            Absence.assertNothingAhead( // the dispatch to this consumer expires it, moving it
                    s,
                    s.createQueue("perishable2"),
                    s.createConsumer(s.createQueue("perishable2")),
                    "the expired message is not delivered");
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> node.node().broker().existingQueue("expired2") != null
                            && node.node().store().figures().entryRows() == 1);
        }
        node.restart();
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            c.start();
            TextMessage kept =
                    (TextMessage) s.createConsumer(s.createQueue("expired2")).receive(2000);
            assertNotNull(kept, "an expiry queue keeps what expired elsewhere, restart or not");
            assertEquals("cream", kept.getText());
        }
    }

    @Test
    void selectorsWorkOnBroadcastAndFanOutQueues() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            node.node().broker().updateQueue("alerts", "mode=fanout&appIds=ops,dev");
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer critical = s.createConsumer(s.createQueue("alerts?appId=ops"), "level = 'critical'");
            MessageConsumer ticks = s.createConsumer(s.createQueue("ticks2?mode=broadcast"), "symbol = 'ACME'");
            c.start();
            MessageProducer p = s.createProducer(null);
            for (String level : new String[] {"info", "critical", "info"}) {
                TextMessage m = s.createTextMessage(level);
                m.setStringProperty("level", level);
                p.send(s.createQueue("alerts"), m);
            }
            for (String symbol : new String[] {"ACME", "OTHER"}) {
                TextMessage m = s.createTextMessage(symbol);
                m.setStringProperty("symbol", symbol);
                p.send(s.createQueue("ticks2"), m);
            }
            assertEquals("critical", ((TextMessage) critical.receive(2000)).getText());
            assertSelectedSentinelIsNext(
                    s, "alerts", "level", "critical", critical, "the selector lets only the critical alert through");
            assertEquals("ACME", ((TextMessage) ticks.receive(2000)).getText());
            assertSelectedSentinelIsNext(s, "ticks2", "symbol", "ACME", ticks, "the selector lets only ACME through");
        }
    }

    @Test
    void aFullQueueRefusesSendsWithResourceAllocationExceptionAndKeepsWhatItHas() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("small?maxDepthMessages=3"));
            for (int i = 0; i < 3; i++) {
                p.send(s.createTextMessage("m" + i));
            }
            assertThrows(ResourceAllocationException.class, () -> p.send(s.createTextMessage("overflow")));
            c.start();
            assertEquals(3, drain(s.createConsumer(s.createQueue("small")), 300));
            p.send(s.createTextMessage("room again"));
        }
    }

    @Test
    void partitionListenerHearsOfAssignment() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            PartitaConsumer consumer =
                    (PartitaConsumer) s.createConsumer(s.createQueue("parts?partitions=4&rebalanceDelay=100"));
            List<Set<Integer>> assigned = Collections.synchronizedList(new ArrayList<>());
            consumer.setPartitionListener(new PartitionListener() {
                @Override
                public void onPartitionsAssigned(Set<Integer> partitions) {
                    assigned.add(partitions);
                }

                @Override
                public void onPartitionsRevoked(Set<Integer> partitions) {}
            });
            c.start();
            s.createProducer(s.createQueue("parts")).send(s.createTextMessage("poke"));
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> consumer.getOwnedPartitions().equals(Set.of(0, 1, 2, 3)));
            await().atMost(Duration.ofSeconds(5)).until(() -> !assigned.isEmpty());
            assertEquals(
                    Set.of(0, 1, 2, 3),
                    assigned.get(0),
                    "the listener heard of the assignment on the session's thread");
        }
    }
}
