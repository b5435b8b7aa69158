package org.partita.broker.it.partition;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.broker.core.partition.PartitionFigures;
import org.partita.broker.it.Absence;
import org.partita.broker.it.NodeExtension;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.protocol.PartitionKeys;

@Tag("slow")
class PartitionedQueueTest {
    private static final String QUEUE = "machines?partitions=8&rebalanceDelay=300&maxHandoffTime=1000";

    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    private PartitaConnectionFactory smallPrefetch() {
        return new PartitaConnectionFactory(node.node().url() + "?prefetch=10");
    }

    private static String key(int i) {
        return String.format("m-%03d", i);
    }

    @Test
    void perKeyOrderHoldsWhileConsumersScaleFromTwoToEightAndBack() throws Exception {
        List<KeyedConsumer.Processed> journal = new ArrayList<>();
        List<KeyedConsumer> consumers = new ArrayList<>();
        int keys = 120;
        int perKey = 30;
        try (Connection producerConnection = node.factory().createConnection()) {
            for (int i = 0; i < 2; i++) {
                consumers.add(new KeyedConsumer(smallPrefetch(), QUEUE, "c" + i, journal));
            }
            Session s = producerConnection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue(QUEUE));
            p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            int sent = 0;
            long start = System.nanoTime();
            List<KeyedConsumer> added = new ArrayList<>();
            for (int seq = 0; seq < perKey; seq++) {
                for (int k = 1; k <= keys; k++) {
                    TextMessage m = s.createTextMessage("state");
                    m.setStringProperty("JMSXGroupID", key(k));
                    m.setIntProperty("seq", seq);
                    p.send(m);
                    sent++;
                }
                if (seq == 8) {
                    for (int i = 2; i < 8; i++) {
                        KeyedConsumer c = new KeyedConsumer(smallPrefetch(), QUEUE, "c" + i, journal);
                        consumers.add(c);
                        added.add(c);
                    }
                }
                if (seq == 20) {
                    for (KeyedConsumer c : added) {
                        assertTrue(c.received.get() > 0, c.name + " took part after the scale-up");
                    }
                    for (KeyedConsumer c : added) {
                        c.close();
                        consumers.remove(c);
                    }
                }
                Thread.sleep(120); // continuous load over several seconds, bounded
            }
            int total = sent;
            await().atMost(Duration.ofSeconds(60)).until(() -> distinct(journal) == total);
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(120));
        } finally {
            for (KeyedConsumer c : consumers) {
                c.close();
            }
        }
        synchronized (journal) {
            assertPerKeyOrder(journal);
        }
    }

    private static int distinct(List<KeyedConsumer.Processed> journal) {
        synchronized (journal) {
            Set<String> seen = new HashSet<>();
            for (KeyedConsumer.Processed p : journal) {
                seen.add(p.key() + "#" + p.seq());
            }
            return seen.size();
        }
    }

    /** New messages of a key are processed in send order; a repeat is allowed only as a redelivery. */
    static void assertPerKeyOrder(List<KeyedConsumer.Processed> journal) {
        Map<String, Integer> highest = new HashMap<>();
        Set<String> processed = new HashSet<>();
        int duplicates = 0;
        for (KeyedConsumer.Processed p : journal) {
            String id = p.key() + "#" + p.seq();
            if (!processed.add(id)) {
                duplicates++;
                continue;
            }
            int before = highest.getOrDefault(p.key(), -1);
            assertEquals(
                    before + 1,
                    p.seq(),
                    "key " + p.key() + ": after seq " + before + " came seq " + p.seq() + " (consumer " + p.consumer()
                            + ")");
            highest.put(p.key(), p.seq());
        }
        for (KeyedConsumer.Processed p : journal) {
            long count = journal.stream()
                    .filter(q -> q.key().equals(p.key()) && q.seq() == p.seq())
                    .count();
            if (count > 1) {
                assertTrue(
                        journal.stream()
                                .anyMatch(q -> q.key().equals(p.key()) && q.seq() == p.seq() && q.redelivered()),
                        "a duplicate of " + p.key() + "#" + p.seq() + " must be flagged redelivered");
            }
        }
        System.out.println("per-key order held over " + journal.size() + " deliveries, " + duplicates + " duplicates");
    }

    @Test
    void eachPartitionHasOneOwnerAndAStandbyTakesOverWhenItLeaves() throws Exception {
        String queue = "owners?partitions=2&rebalanceDelay=200&maxHandoffTime=500";
        try (Connection c1 = node.factory().createConnection();
                Connection c2 = node.factory().createConnection();
                Connection c3 = node.factory().createConnection();
                Connection prod = node.factory().createConnection()) {
            Session s1 = c1.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Session s2 = c2.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Session s3 = c3.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer a = s1.createConsumer(s1.createQueue(queue));
            MessageConsumer b = s2.createConsumer(s2.createQueue(queue));
            MessageConsumer standby = s3.createConsumer(s3.createQueue(queue));
            c1.start();
            c2.start();
            c3.start();
            // Wait until the rebalance spread the two partitions over the first two consumers.
            await().atMost(Duration.ofSeconds(10)).until(() -> owners(queue).size() == 2);
            Session ps = prod.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = ps.createProducer(ps.createQueue(queue));
            for (int i = 0; i < 20; i++) {
                Message m = ps.createTextMessage("x");
                m.setStringProperty("JMSXGroupID", "k" + i);
                p.send(m);
            }
            int got = 0;
            long takeUntil = System.currentTimeMillis() + 10_000;
            while (got < 20 && System.currentTimeMillis() < takeUntil) {
                got += a.receive(100) != null ? 1 : 0;
                got += b.receive(100) != null ? 1 : 0;
            }
            assertEquals(20, got, "the two owners take every message");
            // the standby never receives: a message given to it would stay in flight
            Absence.awaitQueueHoldsNothing(prod, "owners", "the standby takes nothing while both owners are there");

            c1.close();
            Message m = ps.createTextMessage("after");
            String key = keyFor(0, 2);
            m.setStringProperty("JMSXGroupID", key);
            p.send(m);
            Message m2 = ps.createTextMessage("after");
            m2.setStringProperty("JMSXGroupID", keyFor(1, 2));
            p.send(m2);
            int taken = 0;
            long deadline = System.currentTimeMillis() + 10_000;
            while (taken < 2 && System.currentTimeMillis() < deadline) {
                if (b.receive(100) != null) {
                    taken++;
                }
                if (standby.receive(100) != null) {
                    taken++;
                }
            }
            assertEquals(2, taken, "the partitions of the consumer that left are served again");
        }
    }

    private static String keyFor(int partition, int partitions) {
        for (int i = 0; ; i++) {
            if (PartitionKeys.partition("key" + i, partitions) == partition) {
                return "key" + i;
            }
        }
    }

    private Set<String> owners(String queue) throws Exception {
        String name = queue.substring(0, queue.indexOf('?'));
        List<PartitionFigures.Current> figures =
                node.node().broker().existingQueue(name).partitionFigures().get(5, TimeUnit.SECONDS);
        Set<String> owners = new HashSet<>();
        for (PartitionFigures.Current f : figures) {
            if (f.owner() != null && f.state().equals("ASSIGNED")) {
                owners.add(f.owner());
            }
        }
        return owners;
    }

    @Test
    void selectorsWorkOnPartitionedQueues() throws Exception {
        String queue = "sel?partitions=4&rebalanceDelay=100";
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue(queue));
            for (int i = 0; i < 20; i++) {
                Message m = s.createTextMessage("m" + i);
                m.setStringProperty("JMSXGroupID", "k" + (i % 5));
                m.setIntProperty("n", i);
                p.send(m);
            }
            MessageConsumer even = s.createConsumer(s.createQueue(queue), "n / 2 * 2 = n");
            c.start();
            int got = 0;
            Message m;
            while ((m = even.receive(500)) != null) {
                assertEquals(0, m.getIntProperty("n") % 2);
                got++;
            }
            assertEquals(10, got);
        }
    }

    @Test
    void keyToPartitionMappingAndMessagesSurviveARestart() throws Exception {
        String queue = "restart?partitions=4";
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue(queue));
            for (int i = 0; i < 12; i++) {
                Message m = s.createTextMessage("m" + i);
                m.setStringProperty("JMSXGroupID", "k" + (i % 3));
                m.setIntProperty("seq", i / 3);
                p.send(m);
            }
        }
        node.restart();
        List<PartitionFigures.Current> figures =
                node.node().broker().existingQueue("restart").partitionFigures().get(5, TimeUnit.SECONDS);
        for (int k = 0; k < 3; k++) {
            int expected = PartitionKeys.partition("k" + k, 4);
            assertTrue(
                    figures.get(expected).depth() >= 4,
                    "key k" + k + " is still in partition " + expected + ": " + figures);
        }
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = s.createConsumer(s.createQueue("restart"));
            c.start();
            Map<String, Integer> next = new HashMap<>();
            for (int i = 0; i < 12; i++) {
                Message m = consumer.receive(5000);
                assertNotNull(m, "message " + i + " after restart: no key is stuck");
                String key = m.getStringProperty("JMSXGroupID");
                int seq = m.getIntProperty("seq");
                assertEquals(next.getOrDefault(key, 0), seq, "order of " + key);
                next.put(key, seq + 1);
            }
        }
    }

    @Test
    void poisonMessageGoesToTheDeadLetterQueueAndItsKeyContinuesInOrder() throws Exception {
        String queue = "poison?partitions=2&maxDeliveryAttempts=3";
        try (Connection c = node.factory().createConnection()) {
            Session tx = c.createSession(true, Session.SESSION_TRANSACTED);
            MessageProducer p = tx.createProducer(tx.createQueue(queue));
            for (int i = 0; i < 3; i++) {
                Message m = tx.createTextMessage(i == 0 ? "poison" : "ok" + i);
                m.setStringProperty("JMSXGroupID", "k");
                p.send(m);
            }
            tx.commit();
            MessageConsumer consumer = tx.createConsumer(tx.createQueue(queue));
            c.start();
            for (int attempt = 1; attempt <= 3; attempt++) {
                TextMessage m = (TextMessage) consumer.receive(5000);
                assertEquals(
                        "poison",
                        m.getText(),
                        "attempt " + attempt + ", got count " + m.getIntProperty("JMSXDeliveryCount") + " redelivered "
                                + m.getJMSRedelivered());
                assertEquals(attempt, m.getIntProperty("JMSXDeliveryCount"));
                tx.rollback();
            }
            assertEquals("ok1", ((TextMessage) consumer.receive(5000)).getText());
            assertEquals("ok2", ((TextMessage) consumer.receive(5000)).getText());
            tx.commit();
            Session plain = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            TextMessage dead =
                    (TextMessage) plain.createConsumer(plain.createQueue("DLQ")).receive(5000);
            assertNotNull(dead);
            assertEquals("poison", dead.getText());
        }
    }
}
