package org.partita.broker.it.cluster;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.jms.api.PartitaAdmin;

/**
 * Three nodes in this JVM, a queue with hosts on all three and {@code replicas=3}, so each node is
 * the preferred leader of its own partitions' replica set. A node is stopped under a steady load and
 * started again: the sets it led go to the others, and come back to it once it caught up, while the
 * load goes on; every confirmed message is consumed, each key in order.
 */
@Tag("slow")
@Timeout(300)
class PreferredLeaderTest {
    private static final String QUEUE = "lanes"; // made by updateQueue: 6 partitions, hosts *, replicas 3
    private static final int PARTITIONS = 6;
    private static final int KEYS_PER_PRODUCER = 10;
    private static final int MAX_PER_PRODUCER = 50_000;
    private static final long MAX_LOAD_MILLIS = 180_000;

    @TempDir
    Path tmp;

    /** Sends persistent keyed messages one after the other through a node; a send that fails is not counted. */
    private static final class Producer implements Runnable {
        final String name;
        final EmbeddedCluster cluster;
        final int node;
        final Set<String> confirmed;
        final AtomicBoolean stop;
        final AtomicInteger failures = new AtomicInteger();

        Producer(String name, EmbeddedCluster cluster, int node, Set<String> confirmed, AtomicBoolean stop) {
            this.name = name;
            this.cluster = cluster;
            this.node = node;
            this.confirmed = confirmed;
            this.stop = stop;
        }

        @Override
        public void run() {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MAX_LOAD_MILLIS);
            int i = 0;
            while (!stop.get() && i < MAX_PER_PRODUCER && System.nanoTime() < deadline) {
                try (Connection c = cluster.factory(node).createConnection()) {
                    Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                    MessageProducer p = s.createProducer(s.createQueue(QUEUE));
                    p.setDeliveryMode(DeliveryMode.PERSISTENT);
                    while (!stop.get() && i < MAX_PER_PRODUCER && System.nanoTime() < deadline) {
                        String key = name + "-k" + (i % KEYS_PER_PRODUCER);
                        int seq = i / KEYS_PER_PRODUCER;
                        i++;
                        TextMessage m = s.createTextMessage("m");
                        m.setStringProperty("JMSXGroupID", key);
                        m.setIntProperty("seq", seq);
                        p.send(m);
                        confirmed.add(key + "#" + seq);
                    }
                } catch (Exception e) {
                    failures.incrementAndGet(); // refused (nothing stored) or in doubt; the next goes on
                }
            }
        }
    }

    @Test
    void leadershipGoesBackToEachSetsPreferredLeaderAfterItsNodeReturnsUnderLoad() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3).startAll()) {
            try (PartitaAdmin admin = PartitaAdmin.connect(c.factory(0))) {
                admin.updateQueue("lanes", Map.of("partitions", "6", "hosts", "*", "replicas", "3"));
            }
            await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> assertPreferredLeaders(c, 3));

            KeyOrderLedger ledger = new KeyOrderLedger();
            Set<String> confirmed = ConcurrentHashMap.newKeySet();
            AtomicBoolean stop = new AtomicBoolean();
            List<Connection> consumers = new ArrayList<>();
            List<Producer> producers = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            try {
                for (int node : new int[] {0, 2}) { // the nodes that stay up
                    Connection conn = c.factory(node).createConnection();
                    consumers.add(conn);
                    Session s = conn.createSession(false, Session.CLIENT_ACKNOWLEDGE);
                    s.createConsumer(s.createQueue(QUEUE)).setMessageListener(ledger.acknowledgingListener());
                    conn.start();
                    for (int t = 0; t < 2; t++) {
                        Producer p = new Producer("n" + node + "p" + t, c, node, confirmed, stop);
                        producers.add(p);
                        threads.add(new Thread(p, "producer-" + p.name));
                    }
                }
                threads.forEach(Thread::start);
                await().atMost(Duration.ofSeconds(60)).until(() -> confirmed.size() > 500);

                c.stop(1); // node2, the preferred leader of partitions 1 and 4 (set node2+node3+node1)
                await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> {
                    for (int node : new int[] {0, 2}) {
                        Map<String, String> status = status(c, node);
                        for (int p : new int[] {1, 4}) {
                            String leader = status.get("queue.lanes.partition." + p + ".host");
                            assertTrue("node1".equals(leader) || "node3".equals(leader), status.toString());
                        }
                    }
                });
                int during = confirmed.size();
                await().atMost(Duration.ofSeconds(60)).until(() -> confirmed.size() > during + 500);

                c.start(1);
                long back = System.nanoTime();
                await().atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(250))
                        .ignoreExceptions()
                        .untilAsserted(() -> assertPreferredLeaders(c, 3));
                long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - back);
                // and while the load runs: every producer is still sending, and sends go on being confirmed
                for (Thread t : threads) {
                    assertTrue(t.isAlive(), t.getName() + " still sending when the leaders were back");
                }
                int after = confirmed.size();
                await().atMost(Duration.ofSeconds(60)).until(() -> confirmed.size() > after + 500);
                stop.set(true);
                for (Thread t : threads) {
                    t.join(60_000);
                }
                await().atMost(Duration.ofSeconds(90))
                        .pollInterval(Duration.ofMillis(500))
                        .until(() -> ledger.has(confirmed));
                int failed = producers.stream().mapToInt(p -> p.failures.get()).sum();
                System.out.println("preferred leaders back " + tookMillis + " ms after node2 started; "
                        + confirmed.size() + " confirmed, " + failed + " sends failed (refused or in doubt), "
                        + ledger.repeats() + " repeats (flagged)");
                assertTrue(
                        ledger.missing(confirmed).isEmpty(),
                        "confirmed but never consumed: " + ledger.missing(confirmed));
                assertEquals(0, ledger.violations(), "each key's first arrivals in order");
                assertEquals(0, ledger.newRepeats(), "a message that comes again is flagged redelivered");
            } finally {
                stop.set(true);
                for (Connection conn : consumers) {
                    conn.close();
                }
            }
        }
    }

    /** Every node of the first {@code nodes} sees each partition led by the first node of its replica set. */
    private static void assertPreferredLeaders(EmbeddedCluster c, int nodes) throws Exception {
        for (int node = 0; node < nodes; node++) {
            Map<String, String> status = status(c, node);
            for (int p = 0; p < PARTITIONS; p++) {
                String replicas = status.get("queue.lanes.partition." + p + ".replicas");
                String leader = status.get("queue.lanes.partition." + p + ".host");
                assertTrue(replicas != null, "partition " + p + " has replicas: " + status);
                assertEquals(
                        replicas.substring(0, replicas.indexOf(',')),
                        leader,
                        "node" + (node + 1) + " sees partition " + p + " (" + replicas + ") led by " + leader);
            }
        }
    }

    private static Map<String, String> status(EmbeddedCluster c, int node) throws Exception {
        try (PartitaAdmin admin = PartitaAdmin.connect(c.factory(node))) {
            return admin.clusterStatus();
        }
    }
}
