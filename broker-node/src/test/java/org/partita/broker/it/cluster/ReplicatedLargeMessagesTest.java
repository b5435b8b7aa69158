package org.partita.broker.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Large messages on a replicated queue, in nodes of a small heap: three nodes of 256 MiB in their own
 * processes (the replica log's defaults, which follow the heap) take 300 MB of 512 KiB persistent
 * messages through {@code replicas=3} while a consumer drains them, one node killed halfway. Ratis
 * held every set's last six closed log files in the heap by default (up to 200 MB per set with 32 MiB
 * files): such nodes ran out of memory within seconds (docs/cluster.md, "The log kept").
 */
@Tag("slow")
@Timeout(300)
class ReplicatedLargeMessagesTest {
    private static final int BODY_BYTES = 512 * 1024;
    private static final int MESSAGES = 1200;
    private static final int KEYS = 6;
    private static final String QUEUE = "big";

    @TempDir(cleanup = org.junit.jupiter.api.io.CleanupMode.ON_SUCCESS)
    Path tmp;

    private static final List<String> CONFIG = List.of(
            "cluster.heartbeatMillis = 200",
            "cluster.downAfterMillis = 2000",
            "queue." + QUEUE + ".partitions = 3",
            "queue." + QUEUE + ".hosts = *"); // replicas by default: 3

    /**
     * 1,200 messages sent through node1 while node2's consumer takes them, node3 killed halfway; then
     * node3 comes back behind the 600 it missed (consumed and acknowledged meanwhile), takes them from
     * its sets' leaders and leads its set again. Ratis's transaction contexts held every entry node3
     * appended until it applied it, and it appends faster than its store writes: it ran out of memory
     * coming back ({@code LightEntries}).
     */
    @Test
    void nodesOfASmallHeapTakeAndDeliverLargeMessagesThroughTheirReplicasWithOneKilled() throws Exception {
        try (ProcessCluster cluster = new ProcessCluster(tmp, "large", 3, CONFIG).start()) {
            FaultsUnderLoad.awaitEveryNodeKnowsEveryLeader(cluster, QUEUE, 3);
            Delivered delivered = new Delivered();
            try (Connection consuming = cluster.node(1).factory().createConnection()) {
                delivered.listenOn(consuming, "node2's consumer");
                send(cluster, 0, MESSAGES / 2, delivered.confirmed);
                assertEquals(137, cluster.kill(2), "SIGKILL of node3");
                send(cluster, MESSAGES / 2, MESSAGES, delivered.confirmed);
                delivered.awaitAll();
            }
            delivered.check();
            assertRunsWithinItsHeap(cluster, 0);
            assertRunsWithinItsHeap(cluster, 1);
            cluster.restart(2);
            awaitLeadingAgain(cluster, 2);
            for (int i = 0; i < 3; i++) {
                assertRunsWithinItsHeap(cluster, i);
            }
        }
    }

    /**
     * node3 killed, 600 messages (300 MB) sent and left waiting, node3 started again: it catches up on
     * the backlog in its 256 MiB (its store then holds every message) and leads its set again, and a
     * consumer on node3 takes every message, each key in order.
     */
    @Test
    void aNodeOfASmallHeapComesBackBehindABacklogOfLargeMessages() throws Exception {
        try (ProcessCluster cluster = new ProcessCluster(tmp, "backlog", 3, CONFIG).start()) {
            FaultsUnderLoad.awaitEveryNodeKnowsEveryLeader(cluster, QUEUE, 3);
            Delivered delivered = new Delivered();
            assertEquals(137, cluster.kill(2), "SIGKILL of node3");
            send(cluster, 0, MESSAGES / 2, delivered.confirmed);
            cluster.restart(2);
            awaitLeadingAgain(cluster, 2);
            try (Connection consuming = cluster.node(2).factory().createConnection()) {
                delivered.listenOn(consuming, "node3's consumer");
                delivered.awaitAll();
            }
            delivered.check();
            for (int i = 0; i < 3; i++) {
                assertRunsWithinItsHeap(cluster, i);
            }
        }
    }

    /** Sends messages {@code from} to {@code to} (exclusive) through node1, keyed, each confirmed once. */
    private static void send(ProcessCluster cluster, int from, int to, Set<String> confirmed) throws Exception {
        try (Connection producing = cluster.node(0).factory().createConnection()) {
            Session ps = producing.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = ps.createProducer(ps.createQueue(QUEUE));
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            for (int i = from; i < to; i++) {
                String key = "k" + (i % KEYS);
                int seq = i / KEYS;
                BytesMessage m = ps.createBytesMessage();
                m.writeBytes(body(i));
                m.setStringProperty("JMSXGroupID", key);
                m.setIntProperty("seq", seq);
                m.setIntProperty("n", i);
                // a send to a partition whose leader was node3 waits for the next one, or is refused and tried again
                assertFalse(FaultsUnderLoad.sendUntilConfirmed(p, m), "send #" + i + " failed in doubt");
                confirmed.add(key + "#" + seq);
            }
        }
    }

    /** Until node {@code i} knows every partition's leader and leads its own set again (the preferred leader). */
    private static void awaitLeadingAgain(ProcessCluster cluster, int i) {
        FaultsUnderLoad.awaitEveryNodeKnowsEveryLeader(cluster, QUEUE, 3);
        String name = "node" + (i + 1);
        org.awaitility.Awaitility.await(name + " leading its set again")
                .atMost(java.time.Duration.ofSeconds(120))
                .ignoreExceptions()
                .until(() -> FaultsUnderLoad.leaders(cluster, i, QUEUE, 3).contains(name));
    }

    /** What was confirmed and what a consumer received of it, bodies checked. */
    private static final class Delivered {
        final Set<String> confirmed = ConcurrentHashMap.newKeySet();
        final KeyOrderLedger ledger = new KeyOrderLedger();
        final AtomicReference<Throwable> failure = new AtomicReference<>();

        void listenOn(Connection c, String by) throws JMSException {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = s.createConsumer(s.createQueue(QUEUE));
            consumer.setMessageListener(m -> {
                try {
                    checkBody(m);
                    ledger.arrived(m, by);
                } catch (JMSException | RuntimeException | AssertionError e) {
                    failure.compareAndSet(null, e);
                }
            });
            c.start();
        }

        void awaitAll() {
            org.awaitility.Awaitility.await("every confirmed message received")
                    .atMost(java.time.Duration.ofSeconds(120))
                    .until(() -> failure.get() != null || ledger.has(confirmed));
        }

        void check() {
            assertEquals(null, failure.get(), "every body arrived whole");
            assertTrue(ledger.missing(confirmed).isEmpty(), "missing: " + ledger.missing(confirmed));
            assertEquals(0, ledger.violations(), "key order: " + ledger.violationsSeen());
            assertEquals(0, ledger.newRepeats(), "unflagged repeats: " + ledger.newRepeatsSeen());
        }
    }

    private static void assertRunsWithinItsHeap(ProcessCluster cluster, int i) {
        assertTrue(cluster.node(i).process().isAlive(), "node" + (i + 1) + " still runs");
        assertFalse(
                cluster.node(i).stderr().contains("java.lang.OutOfMemoryError"),
                "node" + (i + 1) + " ran short of heap; see its stderr");
    }

    /** Message {@code n}'s body: its number spread over its bytes, so a body cut or mixed up shows. */
    private static byte[] body(int n) {
        byte[] b = new byte[BODY_BYTES];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (n + i / 4096);
        }
        return b;
    }

    private static void checkBody(Message m) throws JMSException {
        BytesMessage b = (BytesMessage) m;
        int n = m.getIntProperty("n");
        assertEquals(BODY_BYTES, b.getBodyLength(), "body length of #" + n);
        byte[] got = new byte[BODY_BYTES];
        b.readBytes(got);
        if (!java.util.Arrays.equals(body(n), got)) {
            throw new AssertionError("the body of #" + n + " arrived changed");
        }
    }
}
