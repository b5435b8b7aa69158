package org.partita.broker.it.cluster;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.jms.api.PartitaAdmin;

/**
 * A queue with {@code replicas=3} on three nodes in this JVM: each partition is kept by all three
 * (a Raft group per host's partitions), so when a node stops, the partitions it led are served by
 * another node from its copy: every message confirmed before is consumed, each key in order, and
 * sends go on.
 */
@Tag("slow")
@Timeout(240)
class ReplicatedPartitionsTest {
    private static final String QUEUE = "orders?partitions=6&hosts=*&replicas=3";
    private static final int KEYS = 30;

    @TempDir
    Path tmp;

    @Test
    void whatANodeLedIsConsumedFromTheOthersAfterItStopsAndSendsGoOn() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3).startAll()) {
            // every node serves the set it prefers before the test sends
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                send(c, 0, 0, 1); // refused while no set has a leader yet: tried again
            });
            Map<String, List<Integer>> byKey = new ConcurrentHashMap<>();
            drain(c, 0, byKey, KEYS); // the probe messages
            byKey.clear();

            send(c, 0, 1, 10); // seq 1..10 of every key, through node1, to the leaders of every partition
            c.stop(1); // node2 leads partitions 1 and 4; node1 and node3 keep copies

            // seq 11..15 through node3 (a producer going on after the loss; the order of one producer's
            // messages that moved to another node is the subject of idempotent producers, not tested here)
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> send(c, 2, 11, 1));
            send(c, 2, 12, 4);

            drainFrom(c, new int[] {0, 2}, byKey, KEYS * 15);
            List<Integer> expected = new ArrayList<>();
            for (int s = 1; s <= 15; s++) {
                expected.add(s);
            }
            assertEquals(KEYS, byKey.size(), byKey.keySet().toString());
            byKey.forEach((key, seqs) -> assertEquals(expected, seqs, "order of " + key));

            try (PartitaAdmin admin = PartitaAdmin.connect(c.factory(0))) {
                Map<String, String> status = admin.clusterStatus();
                // node1 leads partition 0's set: it knows how far behind each follower is (node2 is down)
                await().atMost(Duration.ofSeconds(30))
                        .untilAsserted(() -> assertTrue(
                                String.valueOf(admin.clusterStatus().get("queue.orders.partition.0.followerLag"))
                                        .matches("node2:\\d+,node3:\\d+"),
                                admin.clusterStatus().toString()));
                for (int p : new int[] {1, 4}) {
                    String leader = status.get("queue.orders.partition." + p + ".host");
                    assertTrue("node1".equals(leader) || "node3".equals(leader), status.toString());
                    assertEquals(
                            "node2,node3,node1",
                            status.get("queue.orders.partition." + p + ".replicas"),
                            status.toString());
                }
            }
            // a node that does not lead node2's set shows its followers' lag too, as its leader answers it
            String leaderOfSet = admin(c, 0).get("queue.orders.partition.1.host");
            int other = "node1".equals(leaderOfSet) ? 2 : 0;
            try (PartitaAdmin admin = PartitaAdmin.connect(c.factory(other))) {
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    Map<String, String> status = admin.clusterStatus();
                    assertTrue(
                            String.valueOf(status.get("queue.orders.partition.1.followerLag"))
                                    .matches("node2:\\d+,node[13]:\\d+"),
                            "asked node" + (other + 1) + ", set led by " + leaderOfSet + ": " + status);
                });
            }
            // the node leading node2's set now says so, and shows node2 (down) behind once a write went on
            String scrape = c.node(0).metrics().scrape() + c.node(2).metrics().scrape();
            assertTrue(scrape.contains("partita_replica_set_leading{set=\"node2+node3+node1\"} 1.0"), scrape);
            assertTrue(
                    scrape.contains(
                            "partita_replica_set_follower_lag_entries{follower=\"node2\",set=\"node2+node3+node1\"}"),
                    scrape);
        }
    }

    /**
     * {@code partitions} and {@code replicas} of a replicated queue changed through PartitaAdmin while
     * producers send and consumers receive on every node: the sends wait while the old layout
     * drains, then go on by the new one; nothing is lost and every key stays in order.
     */
    @Test
    void partitionsAndReplicasChangeLiveWithoutReorderingAKey() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3).startAll()) {
            changeLive(
                    c,
                    Map.of("partitions", "3", "hosts", "*", "replicas", "2"),
                    Map.of("partitions", "6", "replicas", "3"),
                    status -> {
                        assertEquals(
                                "node3,node1,node2", status.get("queue.lines.partition.5.replicas"), status.toString());
                        assertEquals("node3", status.get("queue.lines.partition.5.host"), status.toString());
                    });
        }
    }

    /**
     * {@code leaders=1}: every partition in one replica set, led by the first host, whichever node
     * a producer or consumer is on; then every host leading a set of its own again, live, without
     * reordering a key.
     */
    @Test
    void oneLeaderServesEveryPartitionThenEveryHostLeadsOneLive() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3).startAll()) {
            changeLive(c, Map.of("partitions", "6", "hosts", "*", "leaders", "1"), Map.of("leaders", "3"), status -> {
                for (int p = 0; p < 6; p++) {
                    assertEquals(
                            "node" + (p % 3 + 1),
                            status.get("queue.lines.partition." + p + ".host"),
                            "partition " + p + ": " + status);
                }
            });
        }
    }

    @Test
    void everyPartitionOfAQueueWithOneLeaderIsLedByItsFirstHost() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3).startAll()) {
            try (PartitaAdmin admin = PartitaAdmin.connect(c.factory(2))) {
                admin.updateQueue("single", Map.of("partitions", "4", "hosts", "*", "leaders", "1"));
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    Map<String, String> status = admin.clusterStatus();
                    for (int p = 0; p < 4; p++) {
                        assertEquals("node1", status.get("queue.single.partition." + p + ".host"), status.toString());
                        assertEquals(
                                "node1,node2,node3",
                                status.get("queue.single.partition." + p + ".replicas"),
                                status.toString());
                    }
                });
            }
        }
    }

    /**
     * A producer and a consumer on every node of the queue {@code lines} defined with {@code before}
     * (each producer with keys of its own); its options changed to {@code after} while they work:
     * every confirmed message consumed, each key in order, nothing repeated unflagged, and then {@code
     * check} holds for the cluster's status. The nodes apply the end of the change moments apart, so
     * a node already on the new layout forwards to one still on the old.
     */
    private static void changeLive(
            EmbeddedCluster c,
            Map<String, String> before,
            Map<String, String> after,
            org.junit.jupiter.api.function.ThrowingConsumer<Map<String, String>> check)
            throws Exception {
        String lines = "lines";
        try (PartitaAdmin admin = PartitaAdmin.connect(c.factory(0))) {
            admin.updateQueue(lines, before);
        }
        KeyOrderLedger ledger = new KeyOrderLedger();
        Set<String> confirmed = ConcurrentHashMap.newKeySet();
        List<Connection> connections = new ArrayList<>();
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        List<Thread> producers = new ArrayList<>();
        for (int node = 0; node < 3; node++) {
            int on = node;
            producers.add(new Thread(() -> {
                try (Connection conn = c.factory(on).createConnection()) {
                    Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                    MessageProducer p = s.createProducer(s.createQueue(lines));
                    for (int i = 0; i < 20_000 && !stop.get(); i++) {
                        String key = "line-n" + (on + 1) + "-" + (i % 10);
                        TextMessage m = s.createTextMessage("m");
                        m.setStringProperty("JMSXGroupID", key);
                        m.setIntProperty("seq", i / 10);
                        try {
                            p.send(m);
                            confirmed.add(key + "#" + (i / 10));
                        } catch (jakarta.jms.JMSException e) {
                            // refused while a set elects its leader: the next one goes on
                        }
                    }
                } catch (jakarta.jms.JMSException e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        try {
            for (int i = 0; i < 3; i++) {
                Connection conn = c.factory(i).createConnection();
                connections.add(conn);
                Session s = conn.createSession(false, Session.CLIENT_ACKNOWLEDGE);
                s.createConsumer(s.createQueue(lines)).setMessageListener(ledger.acknowledgingListener());
                conn.start();
            }
            producers.forEach(Thread::start);
            await().atMost(Duration.ofSeconds(60)).until(() -> confirmed.size() > 300);
            try (PartitaAdmin admin = PartitaAdmin.connect(c.factory(1))) {
                admin.updateQueue("lines", after);
            }
            int sentBefore = confirmed.size();
            await().atMost(Duration.ofSeconds(60)).until(() -> confirmed.size() > sentBefore + 300);
            stop.set(true);
            for (Thread producer : producers) {
                producer.join(30_000);
            }
            // names what is missing (key#seq) when it times out
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertTrue(
                            ledger.has(confirmed), "confirmed and not consumed: " + ledger.missing(confirmed)));
            assertEquals(0, ledger.violations(), "each key in order across the change");
            assertEquals(0, ledger.newRepeats(), "nothing twice unflagged");
            try (PartitaAdmin admin = PartitaAdmin.connect(c.factory(2))) {
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> check.accept(admin.clusterStatus()));
            }
        } finally {
            stop.set(true);
            for (Connection conn : connections) {
                conn.close();
            }
        }
    }

    /**
     * Large persistent messages through a replicated queue: each is one entry of its set's Raft log,
     * larger than Ratis's default appender buffer (4 MiB), up to 15 MiB (the default frame is 16), beside smaller ones, sent
     * through a node that leads none of their partitions. Every one arrives whole, in order per key.
     */
    @Test
    void largeMessagesGoThroughTheReplicaLogWhole() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3).startAll()) {
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> send(c, 0, 0, 1));
            drain(c, 0, new ConcurrentHashMap<>(), KEYS);
            int[] sizes = {6 << 20, 64 << 10, 15 << 20, 5 << 20, 1 << 20};
            try (Connection conn = c.factory(1).createConnection()) {
                Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer p = s.createProducer(s.createQueue(QUEUE));
                p.setDeliveryMode(DeliveryMode.PERSISTENT);
                for (int i = 0; i < sizes.length; i++) {
                    jakarta.jms.BytesMessage m = s.createBytesMessage();
                    byte[] body = new byte[sizes[i]];
                    java.util.Arrays.fill(body, (byte) ('a' + i));
                    m.writeBytes(body);
                    m.setStringProperty("JMSXGroupID", "big-" + (i % 2));
                    m.setIntProperty("seq", i);
                    p.send(m);
                }
            }
            List<String> arrived = new CopyOnWriteArrayList<>();
            try (Connection conn = c.factory(2).createConnection()) {
                Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageConsumer consumer = s.createConsumer(s.createQueue(QUEUE));
                conn.start();
                for (int n = 0; n < sizes.length; n++) {
                    jakarta.jms.BytesMessage m = (jakarta.jms.BytesMessage) consumer.receive(60_000);
                    assertTrue(m != null, "message " + n + " of " + sizes.length + " arrived: " + arrived);
                    int seq = m.getIntProperty("seq");
                    byte[] body = new byte[(int) m.getBodyLength()];
                    m.readBytes(body);
                    assertEquals(sizes[seq], body.length, "size of message " + seq);
                    assertWhole(seq, body, (byte) ('a' + seq));
                    arrived.add(m.getStringProperty("JMSXGroupID") + "#" + seq);
                }
            }
            assertEquals(
                    List.of("big-0#0", "big-0#2", "big-0#4"),
                    arrived.stream().filter(a -> a.startsWith("big-0")).toList());
            assertEquals(
                    List.of("big-1#1", "big-1#3"),
                    arrived.stream().filter(a -> a.startsWith("big-1")).toList());
        }
    }

    /** Fails naming where and how a body of {@code expected} bytes differs: the first and last bytes altered, and how many. */
    private static void assertWhole(int seq, byte[] body, byte expected) {
        int first = -1;
        int last = -1;
        int altered = 0;
        for (int i = 0; i < body.length; i++) {
            if (body[i] != expected) {
                first = first < 0 ? i : first;
                last = i;
                altered++;
            }
        }
        if (altered > 0) {
            throw new AssertionError("message " + seq + " altered: " + altered + " of " + body.length
                    + " bytes, from offset " + first + " (" + body[first] + ") to " + last + " (" + body[last]
                    + "), expected " + expected);
        }
    }

    /** Sends {@code count} rounds of one persistent message per key, seq from {@code from}, through node {@code node}. */
    private static void send(EmbeddedCluster c, int node, int from, int count) throws Exception {
        try (Connection conn = c.factory(node).createConnection()) {
            Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue(QUEUE));
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            for (int seq = from; seq < from + count; seq++) {
                for (int k = 0; k < KEYS; k++) {
                    TextMessage m = s.createTextMessage("m");
                    m.setStringProperty("JMSXGroupID", "key-" + k);
                    m.setIntProperty("seq", seq);
                    p.send(m);
                }
            }
        }
    }

    private static void drain(EmbeddedCluster c, int node, Map<String, List<Integer>> byKey, int expected)
            throws Exception {
        drainFrom(c, new int[] {node}, byKey, expected);
    }

    /** Consumes on every node named until {@code expected} messages arrived; each key's seqs in arrival order. */
    private static void drainFrom(EmbeddedCluster c, int[] nodes, Map<String, List<Integer>> byKey, int expected)
            throws Exception {
        List<Connection> connections = new ArrayList<>();
        List<String> received = new CopyOnWriteArrayList<>();
        try {
            for (int node : nodes) {
                Connection conn = c.factory(node).createConnection();
                connections.add(conn);
                Session s = conn.createSession(false, Session.CLIENT_ACKNOWLEDGE);
                MessageConsumer consumer = s.createConsumer(s.createQueue(QUEUE));
                consumer.setMessageListener(m -> {
                    try {
                        byKey.computeIfAbsent(m.getStringProperty("JMSXGroupID"), k -> new CopyOnWriteArrayList<>())
                                .add(m.getIntProperty("seq"));
                        received.add(m.getJMSMessageID());
                        m.acknowledge();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                conn.start();
            }
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> assertTrue(
                            received.size() >= expected, received.size() + " of " + expected + ": " + byKey));
        } finally {
            for (Connection conn : connections) {
                conn.close();
            }
        }
    }

    private static Map<String, String> admin(EmbeddedCluster c, int node) throws Exception {
        try (PartitaAdmin admin = PartitaAdmin.connect(c.factory(node))) {
            return admin.clusterStatus();
        }
    }
}
