package org.partita.broker.it.cluster;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.jms.api.PartitaAdmin;
import org.partita.protocol.PartitionKeys;

/**
 * Changing a clustered queue's partition count and hosting nodes from any node, while keyed
 * producers send and consumers on every node receive: nothing confirmed is lost, no key is
 * reordered, every node agrees on the new layout, also after a restart of every node; and a change
 * that cannot complete (a hosting node down) fails with a clear error, the old layout working on.
 */
@Tag("slow")
@Timeout(240)
class ClusterRelayoutTest {
    private static final int KEYS_PER_PRODUCER = 10;

    @TempDir
    Path tmp;

    /** What consumers received: per key, each sequence number and whether it came flagged redelivered. */
    private record Received(int seq, boolean redelivered) {}

    @Test
    void partitionsAndHostsChangeUnderLoadWithoutLossOrReorder() throws Exception {
        // node1's config file declares the first layout: at its restart, it must not set it back
        try (EmbeddedCluster c = new EmbeddedCluster(
                        tmp,
                        3,
                        cfg -> cfg.nodeName().equals("node1")
                                ? cfg.withQueue("machines", "partitions=4&hosts=node1,node2&replicas=1")
                                : cfg)
                .startAll()) {
            awaitLinked(c, 3);
            List<Connection> connections = new ArrayList<>();
            Map<String, List<Received>> byKey = new ConcurrentHashMap<>();
            Map<String, Integer> confirmed = new ConcurrentHashMap<>();
            ExecutorService producers = Executors.newFixedThreadPool(2);
            AtomicBoolean stop = new AtomicBoolean();
            try {
                try (PartitaAdmin admin = PartitaAdmin.connect(c.factory(0))) {
                    admin.updateQueue("machines", Map.of("partitions", "4", "hosts", "node1,node2", "replicas", "1"));
                }
                for (int i = 0; i < 3; i++) {
                    connections.add(consumer(c, i, "machines", byKey));
                }
                AtomicInteger sent = new AtomicInteger();
                // one producer on a hosting node, one on node3, which hosts none before the change
                List<Future<?>> running = new ArrayList<>();
                for (int node : new int[] {0, 2}) {
                    String prefix = "n" + node + "-key-";
                    running.add(producers.submit(() -> produce(c, node, prefix, stop, confirmed, sent)));
                }
                await().atMost(Duration.ofSeconds(30)).until(() -> sent.get() >= 300);

                String leader = c.node(0).cluster().status().leader();
                int asked =
                        leader != null && leader.equals("node2") ? 2 : 1; // a node that does not lead the Raft group
                assertFalse(("node" + (asked + 1)).equals(leader), "asked of a follower");
                long began = System.nanoTime();
                try (PartitaAdmin admin = PartitaAdmin.connect(c.factory(asked))) {
                    Map<String, String> after = admin.updateQueue(
                            "machines", Map.of("partitions", "8", "hosts", "node1,node2,node3", "replicas", "1"));
                    assertEquals("8", after.get("partitions"), after.toString());
                }
                long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
                int sentAtChange = sent.get();
                System.out.println("layout change 4 -> 8 partitions, 2 -> 3 hosts took " + tookMillis + " ms, "
                        + sentAtChange + " messages sent by then");
                await().atMost(Duration.ofSeconds(30)).until(() -> sent.get() >= sentAtChange + 300);
                stop.set(true);
                for (Future<?> f : running) {
                    f.get(60, TimeUnit.SECONDS);
                }

                try {
                    await().atMost(Duration.ofSeconds(60)).until(() -> everyConfirmedArrived(confirmed, byKey));
                } catch (org.awaitility.core.ConditionTimeoutException e) {
                    throw new AssertionError(
                            "confirmed messages missing after 60 s: " + missing(confirmed, byKey)
                                    + "; node1: " + c.node(0).cluster().status().format() + "; node2: "
                                    + c.node(1).cluster().status().format() + "; node3: "
                                    + c.node(2).cluster().status().format(),
                            e);
                }
                for (Map.Entry<String, List<Received>> e : byKey.entrySet()) {
                    int last = -1;
                    for (Received r : e.getValue()) {
                        if (!r.redelivered()) {
                            assertTrue(r.seq() > last, "key " + e.getKey() + " in order: " + e.getValue());
                            last = r.seq();
                        }
                    }
                }
                for (int i = 0; i < 3; i++) {
                    assertNewLayoutOn(c, i);
                }
                System.out.println("keys: " + byKey.size() + ", messages confirmed: " + sent.get());
                assertEquals(2 * KEYS_PER_PRODUCER, byKey.size());
            } finally {
                stop.set(true);
                producers.shutdownNow();
                for (Connection conn : connections) {
                    conn.close();
                }
            }

            // the new layout survives a restart of every node
            c.close();
            c.startAll();
            awaitLinked(c, 3);
            for (int i = 0; i < 3; i++) {
                int node = i;
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertNewLayoutOn(c, node));
            }
            String key = keyOn(2, 8); // on node3 in the new layout
            try (Connection in = c.factory(1).createConnection();
                    Connection out = c.factory(0).createConnection()) {
                Session cs = in.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageConsumer consumer = cs.createConsumer(cs.createQueue("machines"));
                in.start();
                Session ps = out.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer p = ps.createProducer(ps.createQueue("machines"));
                TextMessage m = ps.createTextMessage("after the restart");
                m.setStringProperty("JMSXGroupID", key);
                p.send(m);
                Message got = null;
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (got == null && System.nanoTime() < deadline) {
                    Message r = consumer.receive(1000);
                    if (r instanceof TextMessage t && t.getText().equals("after the restart")) {
                        got = r;
                    }
                }
                assertNotNull(got, "a message for node3's partition is delivered after the restart");
            }
        }
    }

    @Test
    void aChangeThatCannotCompleteFailsAndTheOldLayoutWorksOn() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(
                        tmp, 3, cfg -> cfg.withCluster(cfg.cluster().withRelayoutTimeout(3_000)))
                .startAll()) {
            awaitLinked(c, 3);
            try (PartitaAdmin admin = PartitaAdmin.connect(c.factory(0))) {
                admin.updateQueue("parts", Map.of("partitions", "3", "hosts", "*", "replicas", "1"));
            }
            for (int i = 0; i < 3; i++) {
                int node = i;
                await().atMost(Duration.ofSeconds(20))
                        .until(() -> c.node(node).broker().existingQueue("parts") != null);
            }
            c.stop(2);
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> c.node(0).cluster().status().format().contains("member.node3=down"));
            try (Connection conn = c.factory(0).createConnection();
                    PartitaAdmin admin = PartitaAdmin.connect(c.factory(0))) {
                Session s = conn.createSession(false, Session.CLIENT_ACKNOWLEDGE);
                MessageConsumer consumer = s.createConsumer(s.createQueue("parts"));
                conn.start();
                Session ps = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer p = ps.createProducer(ps.createQueue("parts"));
                p.setDeliveryMode(DeliveryMode.PERSISTENT);
                String key = keyOn(0, 3); // node1's partition, before and after
                ExecutorService during = Executors.newSingleThreadExecutor();
                try {
                    Future<?> change = during.submit(() -> admin.updateQueue("parts", Map.of("partitions", "6")));
                    await().atMost(Duration.ofSeconds(10))
                            .until(() -> c.node(0).cluster().status().format().contains("queue.parts.layoutChange="));
                    long began = System.nanoTime();
                    TextMessage held = ps.createTextMessage("sent during the change");
                    held.setStringProperty("JMSXGroupID", key);
                    p.send(held); // held until the change ends, then routed by the old layout
                    long heldMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
                    java.util.concurrent.ExecutionException failed = assertThrows(
                            java.util.concurrent.ExecutionException.class, () -> change.get(30, TimeUnit.SECONDS));
                    assertTrue(failed.getCause() instanceof JMSException, String.valueOf(failed.getCause()));
                    String why = failed.getCause().getMessage();
                    System.out.println(
                            "the change failed as expected: " + why + "; a send waited " + heldMillis + " ms");
                    assertTrue(why.contains("keeps its layout") && why.contains("node3 (not heard from"), why);
                } finally {
                    during.shutdownNow();
                }
                awaitSettledLayout(c, 2, "parts", 3, "node3", Duration.ofSeconds(10));
                TextMessage after = ps.createTextMessage("sent after the change failed");
                after.setStringProperty("JMSXGroupID", key);
                p.send(after);
                List<String> got = receiveTexts(consumer, 2, true);
                assertEquals(List.of("sent during the change", "sent after the change failed"), got);
            }
        }
    }

    @Test
    void aChangeWhoseAskingNodeIsLostIsAbandonedByTheOthers() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(
                        tmp, 3, cfg -> cfg.withCluster(cfg.cluster().withRelayoutTimeout(2_000)))
                .startAll()) {
            awaitLinked(c, 3);
            try (PartitaAdmin admin = PartitaAdmin.connect(c.factory(0))) {
                admin.updateQueue("lost", Map.of("partitions", "2", "hosts", "node1,node2", "replicas", "1"));
            }
            String key = keyOn(0, 2); // node1's partition
            ExecutorService asking = Executors.newSingleThreadExecutor();
            try (Connection conn = c.factory(0).createConnection()) {
                Session ps = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer p = ps.createProducer(ps.createQueue("lost"));
                TextMessage before = ps.createTextMessage("before the change");
                before.setStringProperty("JMSXGroupID", key);
                p.send(before); // no consumer yet: node1's part cannot drain, so the change waits
                asking.submit(() -> {
                    try (PartitaAdmin admin = PartitaAdmin.connect(c.factory(2))) {
                        admin.updateQueue("lost", Map.of("partitions", "4"));
                    }
                    return null;
                });
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> c.node(0).cluster().status().format().contains("queue.lost.layoutChange="));
                c.stop(2); // the node that asked is lost: nobody commits or abandons the change for it
                TextMessage during = ps.createTextMessage("sent while the change waited");
                during.setStringProperty("JMSXGroupID", key);
                long began = System.nanoTime();
                p.send(during); // held until node1 and node2 abandon the change, 15 s after the timeout
                long heldMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
                System.out.println("a send was held " + heldMillis + " ms until the orphaned change was abandoned");
                awaitSettledLayout(c, 2, "lost", 2, "node2", Duration.ofSeconds(20));
                Session cs = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageConsumer consumer = cs.createConsumer(cs.createQueue("lost"));
                conn.start();
                List<String> got = receiveTexts(consumer, 2, false);
                assertEquals(List.of("before the change", "sent while the change waited"), got);
            } finally {
                asking.shutdownNow();
            }
        }
    }

    @Test
    void aNodeRestartedWhileAChangeItAskedForWaitsEndsItAtOnce() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(
                        tmp, 3, cfg -> cfg.withCluster(cfg.cluster().withRelayoutTimeout(20_000)))
                .startAll()) {
            awaitLinked(c, 3);
            try (PartitaAdmin admin = PartitaAdmin.connect(c.factory(0))) {
                admin.updateQueue("again", Map.of("partitions", "2", "hosts", "node1,node2", "replicas", "1"));
            }
            ExecutorService asking = Executors.newSingleThreadExecutor();
            try (Connection conn = c.factory(0).createConnection()) {
                Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer p = s.createProducer(s.createQueue("again"));
                TextMessage first = s.createTextMessage("first");
                first.setStringProperty("JMSXGroupID", keyOn(0, 2));
                p.send(first); // no consumer: the change waits
                asking.submit(() -> {
                    try (PartitaAdmin admin = PartitaAdmin.connect(c.factory(2))) {
                        admin.updateQueue("again", Map.of("partitions", "4"));
                    }
                    return null;
                });
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> c.node(0).cluster().status().format().contains("queue.again.layoutChange="));
                c.stop(2);
                c.start(2);
                long restarted = System.nanoTime();
                // the others alone would end it only 15 s after the timeout (35 s)
                await().atMost(Duration.ofSeconds(15))
                        .until(() -> !c.node(0).cluster().status().format().contains("layoutChange"));
                System.out.println("the restarted node ended its change "
                        + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restarted) + " ms after it started again");
                awaitSettledLayout(c, 3, "again", 2, "node2", Duration.ofSeconds(15));
                TextMessage second = s.createTextMessage("second");
                second.setStringProperty("JMSXGroupID", keyOn(0, 2));
                p.send(second);
                MessageConsumer consumer = s.createConsumer(s.createQueue("again"));
                conn.start();
                List<String> got = receiveTexts(consumer, 2, false);
                assertEquals(List.of("first", "second"), got);
            } finally {
                asking.shutdownNow();
            }
        }
    }

    @Test
    void aTransactionThatConsumedAndSendsDuringAChangeIsRolledBackSoTheChangeCompletes() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3).startAll()) {
            awaitLinked(c, 3);
            try (PartitaAdmin admin = PartitaAdmin.connect(c.factory(0))) {
                admin.updateQueue("work", Map.of("partitions", "2", "hosts", "node1,node2", "replicas", "1"));
            }
            ExecutorService asking = Executors.newSingleThreadExecutor();
            try (Connection conn = c.factory(0).createConnection()) {
                Session ps = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                TextMessage first = ps.createTextMessage("first");
                first.setStringProperty("JMSXGroupID", keyOn(0, 2));
                ps.createProducer(ps.createQueue("work")).send(first);
                Session tx = conn.createSession(true, Session.SESSION_TRANSACTED);
                MessageConsumer consumer = tx.createConsumer(tx.createQueue("work"));
                MessageProducer next = tx.createProducer(tx.createQueue("work"));
                conn.start();
                Message got = consumer.receive(10_000);
                assertNotNull(got);
                // consumed, not committed: the change waits for it
                Future<Map<String, String>> change = asking.submit(() -> {
                    try (PartitaAdmin admin = PartitaAdmin.connect(c.factory(1))) {
                        return admin.updateQueue(
                                "work", Map.of("partitions", "4", "hosts", "node1,node2,node3", "replicas", "1"));
                    }
                });
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> c.node(0).cluster().status().format().contains("queue.work.layoutChange="));
                TextMessage followUp = tx.createTextMessage("follow-up");
                followUp.setStringProperty("JMSXGroupID", keyOn(0, 2));
                next.send(followUp);
                jakarta.jms.TransactionRolledBackException rolledBack =
                        assertThrows(jakarta.jms.TransactionRolledBackException.class, tx::commit);
                assertTrue(
                        rolledBack.getMessage().contains("changing its partitions or hosts"), rolledBack.getMessage());
                Message again = consumer.receive(10_000);
                assertNotNull(again, "what the transaction consumed comes back");
                assertEquals("first", ((TextMessage) again).getText());
                assertTrue(again.getJMSRedelivered());
                tx.commit(); // consumed alone: the old layout drains, and the change completes
                assertEquals("4", change.get(30, TimeUnit.SECONDS).get("partitions"));
                next.send(followUp);
                tx.commit();
                Message last = consumer.receive(10_000);
                assertNotNull(last);
                assertEquals("follow-up", ((TextMessage) last).getText());
                tx.commit();
            } finally {
                asking.shutdownNow();
            }
        }
    }

    /**
     * Waits until nodes 0 to {@code nodes - 1} all show {@code queue} with {@code partitions}
     * partitions, the last one on {@code lastHost}, and no layout change under way.
     */
    private static void awaitSettledLayout(
            EmbeddedCluster c, int nodes, String queue, int partitions, String lastHost, Duration within) {
        for (int i = 0; i < nodes; i++) {
            int node = i;
            await().atMost(within).untilAsserted(() -> {
                String status = c.node(node).cluster().status().format();
                assertTrue(
                        status.contains("queue." + queue + ".partition." + (partitions - 1) + ".host=" + lastHost),
                        status);
                assertFalse(status.contains("queue." + queue + ".partition." + partitions + "."), status);
                assertFalse(status.contains("layoutChange"), status);
            });
        }
    }

    /** The texts of up to {@code count} messages received within 30 s, in arrival order. */
    private static List<String> receiveTexts(MessageConsumer consumer, int count, boolean acknowledge)
            throws JMSException {
        List<String> got = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (got.size() < count && System.nanoTime() < deadline) {
            Message m = consumer.receive(1000);
            if (m != null) {
                got.add(((TextMessage) m).getText());
                if (acknowledge) {
                    m.acknowledge();
                }
            }
        }
        return got;
    }

    private static void awaitLinked(EmbeddedCluster c, int size) {
        for (int i = 0; i < size; i++) {
            int node = i;
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                String s = c.node(node).cluster().status().format();
                return !s.contains("=down") && c.node(node).cluster().status().leader() != null;
            });
        }
    }

    private static void assertNewLayoutOn(EmbeddedCluster c, int node) throws JMSException {
        try (PartitaAdmin admin = PartitaAdmin.connect(c.factory(node))) {
            Map<String, String> status = admin.clusterStatus();
            String options = status.get("queue.machines.options");
            assertNotNull(options, status.toString());
            assertTrue(options.contains("partitions=8"), options);
            assertTrue(options.contains("hosts=node1,node2,node3&replicas=1"), options);
            for (int p = 0; p < 8; p++) {
                assertEquals(
                        "node" + (p % 3 + 1), status.get("queue.machines.partition." + p + ".host"), status.toString());
            }
            assertEquals(null, status.get("queue.machines.partition.8.host"), status.toString());
            assertFalse(status.containsKey("queue.machines.layoutChange"), status.toString());
        }
    }

    private static String keyOn(int partition, int partitions) {
        for (int i = 0; ; i++) {
            if (PartitionKeys.partition("k" + i, partitions) == partition) {
                return "k" + i;
            }
        }
    }

    private static Connection consumer(EmbeddedCluster c, int node, String queue, Map<String, List<Received>> byKey)
            throws JMSException {
        Connection conn = c.factory(node).createConnection();
        Session s = conn.createSession(false, Session.CLIENT_ACKNOWLEDGE);
        MessageConsumer consumer = s.createConsumer(s.createQueue(queue));
        consumer.setMessageListener(m -> {
            try {
                byKey.computeIfAbsent(m.getStringProperty("JMSXGroupID"), k -> new CopyOnWriteArrayList<>())
                        .add(new Received(m.getIntProperty("seq"), m.getJMSRedelivered()));
                m.acknowledge();
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
        });
        conn.start();
        return conn;
    }

    /** Sends keyed persistent messages in sequence per key until stopped (at most 5,000); records what was confirmed. */
    private static Void produce(
            EmbeddedCluster c,
            int node,
            String prefix,
            AtomicBoolean stop,
            Map<String, Integer> confirmed,
            AtomicInteger sent)
            throws JMSException {
        try (Connection conn = c.factory(node).createConnection()) {
            Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("machines"));
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            for (int i = 0; i < 5_000 && !stop.get(); i++) {
                String key = prefix + (i % KEYS_PER_PRODUCER);
                int seq = i / KEYS_PER_PRODUCER;
                TextMessage m = s.createTextMessage("x");
                m.setStringProperty("JMSXGroupID", key);
                m.setIntProperty("seq", seq);
                p.send(m);
                confirmed.put(key, seq);
                sent.incrementAndGet();
            }
        }
        return null;
    }

    private static boolean everyConfirmedArrived(Map<String, Integer> confirmed, Map<String, List<Received>> byKey) {
        return missing(confirmed, byKey).isEmpty();
    }

    /** Key and sequence numbers of the confirmed messages that have not arrived (for a failure's message). */
    private static Map<String, List<Integer>> missing(
            Map<String, Integer> confirmed, Map<String, List<Received>> byKey) {
        Map<String, List<Integer>> out = new java.util.TreeMap<>();
        for (Map.Entry<String, Integer> e : confirmed.entrySet()) {
            List<Received> got = byKey.getOrDefault(e.getKey(), List.of());
            java.util.Set<Integer> seqs = new java.util.HashSet<>();
            got.forEach(r -> seqs.add(r.seq()));
            for (int seq = 0; seq <= e.getValue(); seq++) {
                if (!seqs.contains(seq)) {
                    out.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(seq);
                }
            }
        }
        return out;
    }
}
