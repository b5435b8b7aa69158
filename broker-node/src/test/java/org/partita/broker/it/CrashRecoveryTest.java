package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README: "A node killed with SIGKILL loses no message whose send had returned; it redelivers what
 * was not acknowledged." The node runs in a child JVM so that it can really be killed.
 */
@Tag("slow")
class CrashRecoveryTest {
    private static final int SENT = 500;
    private static final int ACKED = 100;
    private static final int SEEN_NOT_ACKED = 50;
    private static final long RECEIVE_MS = 10_000;

    @TempDir
    Path tmp;

    private final List<ChildNode> nodes = new ArrayList<>();

    @AfterEach
    void stopNodes() throws InterruptedException {
        for (ChildNode n : nodes) {
            n.close();
        }
    }

    private ChildNode startNode(String run) throws Exception {
        ChildNode n = ChildNode.start(tmp.resolve("data"), 0, tmp.resolve(run));
        nodes.add(n);
        return n;
    }

    @Test
    void sigkillLosesNoConfirmedMessageAndKeepsAcknowledgedOnesGone() throws Exception {
        ChildNode first = startNode("run1");
        Connection c = first.factory().createConnection();
        try {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = s.createQueue("crash");
            MessageProducer p = s.createProducer(q);
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            for (int i = 0; i < SENT; i++) {
                TextMessage m = s.createTextMessage("m-" + i);
                m.setIntProperty("seq", i);
                p.send(m); // returned = confirmed durable
            }

            c.start();
            Session ackSession = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageConsumer consumer = ackSession.createConsumer(q);
            Message last = null;
            for (int i = 0; i < ACKED; i++) {
                last = consumer.receive(RECEIVE_MS);
                assertNotNull(last, "message " + i + " before the crash");
                assertEquals(i, last.getIntProperty("seq"));
            }
            last.acknowledge(); // acknowledges 0..99; returns once the removal is durable
            for (int i = ACKED; i < ACKED + SEEN_NOT_ACKED; i++) {
                Message m = consumer.receive(RECEIVE_MS);
                assertNotNull(m, "message " + i + " before the crash");
                assertEquals(i, m.getIntProperty("seq"));
            }

            int code = first.kill();
            assertEquals(137, code, "SIGKILL exit status");
        } finally {
            closeQuietly(c);
        }

        ChildNode second = startNode("run2");
        List<Integer> redelivered = new ArrayList<>();
        List<Integer> seqs = drain(second, "crash", SENT - ACKED, redelivered);
        assertTrue(
                redelivered.containsAll(
                        IntStream.range(ACKED, ACKED + SEEN_NOT_ACKED).boxed().toList()),
                "every message delivered before the crash and not acknowledged comes back flagged redelivered: "
                        + redelivered);
        List<Integer> expected = IntStream.range(ACKED, SENT).boxed().toList();
        assertEquals(
                new HashSet<>(expected),
                new HashSet<>(seqs),
                "after the crash: every confirmed, unacknowledged message, and no acknowledged one");
        assertEquals(SENT - ACKED, seqs.size(), "each message exactly once: " + duplicates(seqs));
        assertEquals(expected, seqs, "in their original order");

        // The acknowledgements made after the restart are durable too.
        second.kill();
        ChildNode third = startNode("run3");
        try (Connection c3 = third.factory().createConnection()) {
            c3.start();
            Session s3 = c3.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Absence.assertNothingAhead(
                    s3,
                    s3.createQueue("crash"),
                    s3.createConsumer(s3.createQueue("crash")),
                    "messages acknowledged before the second SIGKILL must not come back");
        }
    }

    @Test
    void sigkillDuringSendsLosesNoConfirmedMessageAndDuplicatesNone() throws Exception {
        ChildNode first = startNode("run1");
        Set<Integer> confirmed = ConcurrentHashMap.newKeySet();
        AtomicInteger attempted = new AtomicInteger();
        AtomicReference<Throwable> unexpected = new AtomicReference<>();
        int producers = 3;
        List<Thread> threads = new ArrayList<>();
        List<Connection> connections = new ArrayList<>();
        for (int t = 0; t < producers; t++) {
            Connection c = first.factory().createConnection();
            connections.add(c);
            int base = t * 1_000_000;
            Thread th = new Thread(
                    () -> {
                        try {
                            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                            MessageProducer p = s.createProducer(s.createQueue("inflight"));
                            for (int i = 0; i < 100_000; i++) { // bounded; the kill ends it long before
                                int seq = base + i;
                                TextMessage m = s.createTextMessage("m-" + seq);
                                m.setIntProperty("seq", seq);
                                attempted.incrementAndGet();
                                p.send(m);
                                confirmed.add(seq);
                            }
                        } catch (JMSException expectedOnKill) {
                            // the node died under this send
                        } catch (Throwable e) {
                            unexpected.set(e);
                        }
                    },
                    "producer-" + t);
            th.start();
            threads.add(th);
        }
        try {
            await("300 confirmed sends")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> confirmed.size() >= 300 || unexpected.get() != null);
            first.kill();
            for (Thread th : threads) {
                th.join(30_000);
                assertTrue(!th.isAlive(), th.getName() + " still blocked 30 s after the node was killed");
            }
        } finally {
            connections.forEach(CrashRecoveryTest::closeQuietly);
        }
        if (unexpected.get() != null) {
            fail("producer failed unexpectedly", unexpected.get());
        }
        Set<Integer> confirmedAtKill = new HashSet<>(confirmed);

        ChildNode second = startNode("run2");
        List<Integer> recovered = drainAll(second, "inflight", attempted.get() + 10);
        Set<Integer> recoveredSet = new HashSet<>(recovered);
        Set<Integer> lost = new HashSet<>(confirmedAtKill);
        lost.removeAll(recoveredSet);
        assertTrue(lost.isEmpty(), "confirmed sends lost by SIGKILL: " + lost);
        assertEquals(recoveredSet.size(), recovered.size(), "duplicates after recovery: " + duplicates(recovered));
        assertTrue(recovered.size() <= attempted.get(), "more messages than were sent");
        // each producer's messages keep their order
        for (int t = 0; t < producers; t++) {
            int base = t * 1_000_000;
            List<Integer> mine = recovered.stream()
                    .filter(x -> x >= base && x < base + 1_000_000)
                    .toList();
            List<Integer> sorted = mine.stream().sorted().toList();
            assertEquals(sorted, mine, "order of producer " + t);
        }
    }

    /** Receives exactly {@code n} messages (each within 10 s), acknowledges them, then checks nothing is left. */
    private static List<Integer> drain(ChildNode node, String queue, int n) throws JMSException {
        return drain(node, queue, n, new ArrayList<>());
    }

    /** As {@link #drain(ChildNode, String, int)}, also collecting the sequence of each message flagged redelivered. */
    private static List<Integer> drain(ChildNode node, String queue, int n, List<Integer> redelivered)
            throws JMSException {
        List<Integer> seqs = new ArrayList<>();
        try (Connection c = node.factory().createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageConsumer consumer = s.createConsumer(s.createQueue(queue));
            Message last = null;
            for (int i = 0; i < n; i++) {
                Message m = consumer.receive(RECEIVE_MS);
                if (m == null) {
                    break;
                }
                int seq = m.getIntProperty("seq");
                assertEquals("m-" + seq, ((TextMessage) m).getText(), "body of message " + seq);
                seqs.add(seq);
                if (m.getJMSRedelivered()) {
                    assertTrue(
                            m.getIntProperty("JMSXDeliveryCount") >= 2,
                            "a redelivered message counts at least 2 deliveries");
                    redelivered.add(seq);
                }
                last = m;
            }
            Message extra = consumer.receive(1000);
            if (extra != null) {
                seqs.add(extra.getIntProperty("seq"));
            }
            if (last != null) {
                last.acknowledge();
            }
        }
        return seqs;
    }

    /** Receives until the queue stays empty for 2 s; at most {@code max} messages. */
    private static List<Integer> drainAll(ChildNode node, String queue, int max) throws JMSException {
        List<Integer> seqs = new ArrayList<>();
        try (Connection c = node.factory().createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = s.createConsumer(s.createQueue(queue));
            for (int i = 0; i <= max; i++) {
                Message m = consumer.receive(2000);
                if (m == null) {
                    break;
                }
                int seq = m.getIntProperty("seq");
                assertEquals("m-" + seq, ((TextMessage) m).getText(), "body of message " + seq);
                seqs.add(seq);
            }
        }
        return seqs;
    }

    private static String duplicates(List<Integer> seqs) {
        Set<Integer> seen = new HashSet<>();
        return seqs.stream().filter(x -> !seen.add(x)).map(String::valueOf).collect(Collectors.joining(",", "[", "]"));
    }

    static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (JMSException | RuntimeException ignored) {
            // the node is gone; the connection is gone with it
        }
    }
}
