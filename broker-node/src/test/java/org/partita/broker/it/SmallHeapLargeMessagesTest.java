package org.partita.broker.it;

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
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.Session;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.HeapBudgets;
import org.partita.broker.config.JvmMemory;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * "Any message size in any heap", point 1: a node in a 128 MiB heap (G1, as operators run it) takes
 * the loads that ran it out of memory (exit 3) before: 15 MiB persistent messages and hundreds of
 * 1 MiB ones from one synchronous producer, then a drain. Each message is either stored and
 * delivered, or refused with {@code ResourceAllocationException} naming the limit; the process
 * never runs out of memory; killed after the drain, the same folder opens again in the same heap,
 * its journal's deletions replayed into H2, and stops cleanly.
 */
@Tag("slow")
class SmallHeapLargeMessagesTest {
    private static final String HEAP = "128m";
    private static final int MIB = 1 << 20;
    /** The node's largest message in that heap under G1 (1 MiB regions): its budgets are computed the same way. */
    private static final int LARGEST = new HeapBudgets(new JvmMemory(128L * MIB, 128L * MIB, MIB)).messageBytes();

    @TempDir
    Path tmp;

    private ChildNode node;

    @AfterEach
    void stop() throws InterruptedException {
        if (node != null) {
            node.close();
        }
    }

    private ChildNode start(String run) throws Exception {
        node = ChildNode.startInHeap(
                        tmp.resolve(run), HEAP, "--data", tmp.resolve("data").toString(), "--port", "0")
                .awaitReady();
        return node;
    }

    @Test
    void largeMessagesAreStoredOrRefusedAndTheNodeNeverRunsOutOfMemory() throws Exception {
        start("run1");
        Set<String> confirmed = new HashSet<>();
        List<String> refusals = new ArrayList<>();
        Connection c = node.factory().createConnection();
        try {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("large"));
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            send(s, p, "15m", 10, 15 * MIB, confirmed, refusals);
            send(s, p, "largest", 8, LARGEST - 64 * 1024, confirmed, refusals);
            send(s, p, "1m", 300, MIB, confirmed, refusals);
        } catch (JMSException e) {
            throw new AssertionError(
                    "a send failed other than refused: " + e + "; node alive: "
                            + node.process().isAlive() + "; its output:\n" + node.stdout() + node.stderr(),
                    e);
        } finally {
            CrashRecoveryTest.closeQuietly(c);
        }
        assertTrue(node.process().isAlive(), "the node died while taking the sends; stderr:\n" + node.stderr());
        assertEquals(10, refusals.size(), "every 15 MiB send is refused in a " + HEAP + " heap: " + refusals);
        for (String refusal : refusals) {
            assertTrue(refusal.contains("limits.messageBytes") && refusal.contains(LARGEST + " bytes"), refusal);
        }
        assertEquals(308, confirmed.size());

        assertEquals(confirmed, drain(confirmed.size()), "every confirmed message is delivered once");
        assertTrue(node.process().isAlive(), "the node died during the drain; stderr:\n" + node.stderr());
        assertNoMemoryTrouble();
        node.kill(); // the drain's deletions, those no checkpoint took yet, are replayed at the next start

        start("run2");
        Connection again = new PartitaConnectionFactory(node.url() + "?prefetch=1").createConnection();
        try {
            again.start();
            Session s = again.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Absence.assertNothingAhead(
                    s, s.createQueue("large"), s.createConsumer(s.createQueue("large")), "a drained message came back");
        } finally {
            CrashRecoveryTest.closeQuietly(again);
        }
        int code = node.terminate(Duration.ofSeconds(60)); // the clean stop's checkpoint and scan of the payloads
        assertTrue(Set.of(0, 143).contains(code), "exit code after SIGTERM: " + code + "; stderr:\n" + node.stderr());
        assertNoMemoryTrouble();
    }

    /** Synchronous persistent sends: a send that returns is confirmed stored; one refused must be so for its size. */
    private static void send(
            Session s,
            MessageProducer p,
            String kind,
            int count,
            int bytes,
            Set<String> confirmed,
            List<String> refusals)
            throws JMSException {
        byte[] body = new byte[bytes];
        for (int i = 0; i < count; i++) {
            BytesMessage m = s.createBytesMessage();
            m.writeBytes(body);
            String id = kind + "-" + i;
            m.setStringProperty("id", id);
            try {
                p.send(m);
                confirmed.add(id);
            } catch (ResourceAllocationException refused) {
                refusals.add(refused.getMessage());
            }
        }
    }

    /** Receives with a prefetch of one (the consumer's window is counted in messages, not bytes) until {@code expected} came. */
    private Set<String> drain(int expected) throws JMSException {
        Set<String> received = new HashSet<>();
        Connection c = new PartitaConnectionFactory(node.url() + "?prefetch=1").createConnection();
        try {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = s.createConsumer(s.createQueue("large"));
            Message m;
            while (received.size() < expected && (m = consumer.receive(10_000)) != null) {
                assertTrue(received.add(m.getStringProperty("id")), "delivered twice: " + m.getStringProperty("id"));
            }
        } finally {
            CrashRecoveryTest.closeQuietly(c);
        }
        return received;
    }

    private void assertNoMemoryTrouble() {
        String log = node.stdout() + node.stderr();
        assertFalse(log.contains("OutOfMemoryError"), log);
        assertFalse(log.contains("final checkpoint failed"), log);
    }
}
