package org.partita.broker.it.cluster;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.Session;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.core.Broker;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.jms.api.PartitaAdmin;

/**
 * Unkeyed messages of a clustered queue stay on the node they were sent to while it has room, then
 * go to another hosting node with room, which has stored each one when its send is confirmed; when
 * every hosting node is full, the send fails with {@link ResourceAllocationException} and the
 * refused message is nowhere. Exactly the sends that fit are confirmed: nothing confirmed waits in a
 * forward log for a node that has no room, and a node that has room again takes the next send.
 */
@Tag("slow")
@Timeout(120)
class ClusterOverflowTest {
    private static final int MAX_DEPTH = 5;
    private static final int CONSUMED = 2;
    private static final Duration LINKS = Duration.ofSeconds(30);

    @TempDir
    Path tmp;

    @Test
    void unkeyedSendsOverflowToAnotherNodeThenFailWhenEveryNodeIsFull() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 2).startAll()) {
            defineJobs(c, 0, "*");
            Set<String> confirmed = new HashSet<>();
            Set<String> refused = new HashSet<>();
            try (Connection conn = c.factory(0).createConnection()) {
                Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer p = s.createProducer(s.createQueue("jobs"));
                p.setDeliveryMode(DeliveryMode.PERSISTENT);
                // node1's own room, then the overflow to node2: each confirmed send is stored by then
                for (int i = 0; i < MAX_DEPTH * 2; i++) {
                    confirmed.add(send(s, p, i, i < MAX_DEPTH ? "local" : "overflow"));
                    assertEquals(confirmed.size(), storedAcross(c), "stored when confirmed, after send " + i);
                }
                assertEquals(MAX_DEPTH, depthOn(c, 0), "node1 filled its own partitions first");
                assertEquals(MAX_DEPTH, depthOn(c, 1), "the overflow went to node2");
                refused.add(refusedSend(s, p, MAX_DEPTH * 2));

                // node2 has room again for what a consumer there took: the next sends go there at once
                consumeOverflowOn(c, 1, CONSUMED);
                for (int i = 0; i < CONSUMED; i++) {
                    confirmed.add(send(s, p, MAX_DEPTH * 2 + 1 + i, "overflow"));
                }
                assertEquals(MAX_DEPTH, depthOn(c, 1), "node2 took the sends it had room for");
                refused.add(refusedSend(s, p, MAX_DEPTH * 2 + 1 + CONSUMED));
                assertEquals(confirmed.size() - CONSUMED, storedAcross(c), "nothing confirmed waits in a forward log");
            }
            Set<String> received = receiveAll(c, 0, confirmed.size() - CONSUMED);
            assertEquals(confirmed.size() - CONSUMED, received.size());
            assertTrue(confirmed.containsAll(received), "only confirmed messages arrive");
            assertFalse(received.stream().anyMatch(refused::contains), "the refused messages were not stored");
        }
    }

    /**
     * A keyed send for a partition whose node is full gets the same answer through another node: once
     * the forward log met the full partition, sends through node1 are refused like sends on node2
     * (ResourceAllocationException, nothing stored), rather than confirmed and parked until node2 has
     * room; once a consumer made room there, what was parked arrives and sends go on.
     */
    @Test
    void keyedSendsForAFullPartitionOfAnotherNodeAreRefusedLikeOnThatNode() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 2).startAll()) {
            defineJobs(c, 0, "*");
            String key = keyOfPartition(1); // node2's partition
            try (Connection on2 = c.factory(1).createConnection();
                    Connection on1 = c.factory(0).createConnection()) {
                Session s2 = on2.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer p2 = s2.createProducer(s2.createQueue("jobs"));
                for (int i = 0; i < MAX_DEPTH; i++) {
                    p2.send(keyed(s2, key, i));
                }
                ResourceAllocationException onHost =
                        assertThrows(ResourceAllocationException.class, () -> p2.send(keyed(s2, key, MAX_DEPTH)));
                assertTrue(onHost.getMessage().contains("full"), onHost.getMessage());

                Session s1 = on1.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer p1 = s1.createProducer(s1.createQueue("jobs"));
                java.util.concurrent.atomic.AtomicInteger parked = new java.util.concurrent.atomic.AtomicInteger();
                java.util.concurrent.atomic.AtomicReference<ResourceAllocationException> refusal =
                        new java.util.concurrent.atomic.AtomicReference<>();
                // the first ones may be confirmed and parked until the forward log has met the full
                // partition: sends a tenth of a second apart, until one is refused
                await().atMost(Duration.ofSeconds(10))
                        .pollInterval(Duration.ofMillis(100))
                        .until(() -> {
                            try {
                                p1.send(keyed(s1, key, 100 + parked.get()));
                                parked.incrementAndGet();
                                return false;
                            } catch (ResourceAllocationException e) {
                                refusal.set(e);
                                return true;
                            }
                        });
                ResourceAllocationException elsewhere = refusal.get();
                assertNotNull(elsewhere, "a keyed send through node1 for node2's full partition is refused");
                assertTrue(
                        elsewhere.getMessage().contains("node2")
                                && elsewhere.getMessage().contains("full"),
                        elsewhere.getMessage());
                assertTrue(parked.get() <= 3, parked + " sends were parked before the refusals began");
                assertEquals(MAX_DEPTH + parked.get(), storedAcross(c), "the refused send is stored nowhere");

                // room on node2: what was parked arrives, and sends through node1 go on
                consumeOverflowOn(c, 1, MAX_DEPTH);
                await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
                    p1.send(keyed(s1, key, 1_000));
                    return true;
                });
            }
        }
    }

    /** A key whose partition of the two is {@code partition}. */
    private static String keyOfPartition(int partition) {
        for (int i = 0; ; i++) {
            if (org.partita.protocol.PartitionKeys.partition("key" + i, 2) == partition) {
                return "key" + i;
            }
        }
    }

    private static Message keyed(Session s, String key, int seq) throws JMSException {
        Message m = s.createTextMessage("job " + seq);
        m.setStringProperty("JMSXGroupID", key);
        m.setStringProperty("phase", "overflow"); // what consumeOverflowOn takes
        return m;
    }

    /**
     * Producers sending at once on node1 get exactly as many sends confirmed as both nodes have room
     * for, and each confirmed message is stored on one of them.
     */
    @Test
    void producersSendingAtOnceGetExactlyTheRoomOfBothNodesConfirmed() throws Exception {
        int producers = 4;
        int each = MAX_DEPTH * 2;
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 2).startAll()) {
            defineJobs(c, 0, "*");
            java.util.concurrent.atomic.AtomicInteger confirmed = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.atomic.AtomicInteger refused = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(producers);
            try (Connection conn = c.factory(0).createConnection()) {
                java.util.List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
                for (int t = 0; t < producers; t++) {
                    Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                    done.add(pool.submit(() -> {
                        MessageProducer p = s.createProducer(s.createQueue("jobs"));
                        for (int i = 0; i < each; i++) {
                            try {
                                p.send(s.createTextMessage("job " + i));
                                confirmed.incrementAndGet();
                            } catch (ResourceAllocationException full) {
                                refused.incrementAndGet();
                            }
                        }
                        return null;
                    }));
                }
                for (java.util.concurrent.Future<?> f : done) {
                    f.get(60, java.util.concurrent.TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            assertEquals(MAX_DEPTH * 2, confirmed.get(), "both nodes' room, no more");
            assertEquals(producers * each - MAX_DEPTH * 2, refused.get());
            assertEquals(
                    MAX_DEPTH * 2, storedAcross(c), "every confirmed message is stored, none waits in a forward log");
            assertEquals(MAX_DEPTH, depthOn(c, 1), "node2 took the overflow");
        }
    }

    /**
     * Sent on a node that hosts none, unkeyed messages go message by message to the partitions'
     * nodes; with both full the send fails, and nothing waits on the sending node.
     */
    @Test
    void unkeyedSendsOnANodeHostingNoneFailWhenEveryHostingNodeIsFull() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3).startAll()) {
            defineJobs(c, 2, "node1,node2");
            Set<String> confirmed = new HashSet<>();
            try (Connection conn = c.factory(2).createConnection()) {
                Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer p = s.createProducer(s.createQueue("jobs"));
                p.setDeliveryMode(DeliveryMode.PERSISTENT);
                for (int i = 0; i < MAX_DEPTH * 2; i++) {
                    confirmed.add(send(s, p, i, "overflow"));
                    assertEquals(confirmed.size(), storedAcross(c), "stored when confirmed, after send " + i);
                }
                assertEquals(MAX_DEPTH, depthOn(c, 0), "spread over the partitions: half on node1");
                assertEquals(MAX_DEPTH, depthOn(c, 1), "and half on node2");
                refusedSend(s, p, MAX_DEPTH * 2);

                consumeOverflowOn(c, 1, CONSUMED);
                for (int i = 0; i < CONSUMED; i++) {
                    confirmed.add(send(s, p, MAX_DEPTH * 2 + 1 + i, "overflow"));
                }
                refusedSend(s, p, MAX_DEPTH * 2 + 1 + CONSUMED);
                assertEquals(MAX_DEPTH * 2, storedAcross(c), "nothing confirmed waits in node3's forward logs");
            }
        }
    }

    /** Defines the queue through {@code node} and waits until every node applied it and every link is up. */
    private static void defineJobs(EmbeddedCluster c, int node, String hosts) throws JMSException {
        try (PartitaAdmin admin = PartitaAdmin.connect(c.factory(node))) {
            admin.updateQueue(
                    "jobs",
                    Map.of(
                            "partitions",
                            "2",
                            "hosts",
                            hosts,
                            "replicas",
                            "1",
                            "maxDepthMessages",
                            String.valueOf(MAX_DEPTH)));
        }
        int size = c.config().members().size();
        for (int i = 0; i < size; i++) {
            int n = i;
            await().atMost(LINKS).until(() -> c.node(n).broker().existingQueue("jobs") != null);
            for (int j = 0; j < size; j++) {
                String other = "member.node" + (j + 1) + "=";
                if (j != i) {
                    await().atMost(LINKS)
                            .until(() -> c.node(n).cluster().status().format().contains(other + "up"));
                }
            }
        }
    }

    private static String send(Session s, MessageProducer p, int i, String phase) throws JMSException {
        Message m = s.createTextMessage("job " + i);
        m.setStringProperty("phase", phase);
        p.send(m);
        return m.getJMSMessageID();
    }

    private static String refusedSend(Session s, MessageProducer p, int i) throws JMSException {
        Message m = s.createTextMessage("job " + i);
        m.setStringProperty("phase", "overflow");
        ResourceAllocationException full = assertThrows(
                ResourceAllocationException.class, () -> p.send(m), "send " + i + " finds every node full");
        assertTrue(full.getMessage().contains("'jobs'") && full.getMessage().contains("full"), full.getMessage());
        return m.getJMSMessageID();
    }

    /** Takes {@code count} overflow messages through a consumer on {@code node}; returns once their room is free. */
    private static void consumeOverflowOn(EmbeddedCluster c, int node, int count) throws JMSException {
        int before = storedAcross(c);
        try (Connection conn = c.factory(node).createConnection()) {
            Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = s.createConsumer(s.createQueue("jobs"), "phase = 'overflow'");
            conn.start();
            for (int i = 0; i < count; i++) {
                assertNotNull(consumer.receive(10_000), "overflow message " + i + " on node" + (node + 1));
            }
        } // what it was given beyond these goes back
        await().atMost(Duration.ofSeconds(20)).until(() -> storedAcross(c) == before - count);
    }

    private static Set<String> receiveAll(EmbeddedCluster c, int node, int expected) throws JMSException {
        Set<String> received = new HashSet<>();
        try (Connection conn = c.factory(node).createConnection()) {
            Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = s.createConsumer(s.createQueue("jobs"));
            conn.start();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (received.size() < expected && System.nanoTime() < deadline) {
                Message m = consumer.receive(1000);
                if (m != null) {
                    received.add(m.getJMSMessageID());
                }
            }
            assertNull(consumer.receive(1000), "nothing beyond what was confirmed");
        }
        return received;
    }

    /** Messages of the queue stored on every node, plus what waits in any node's forward logs. */
    private static int storedAcross(EmbeddedCluster c) {
        int size = c.config().members().size();
        int total = 0;
        for (int i = 0; i < size; i++) {
            total += depthOn(c, i);
            for (int j = 0; j < size; j++) {
                BrokerQueue log =
                        c.node(i).broker().existingQueue(Broker.FORWARD_LOG_PREFIX + "node" + (j + 1) + ":jobs");
                total += log == null ? 0 : log.depth();
            }
        }
        return total;
    }

    /** Messages the queue holds on one node. */
    private static int depthOn(EmbeddedCluster c, int node) {
        BrokerQueue q = c.node(node).broker().existingQueue("jobs");
        return q == null ? 0 : q.depth();
    }
}
