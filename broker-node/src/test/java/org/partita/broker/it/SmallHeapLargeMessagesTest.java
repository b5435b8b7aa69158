package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.HeapBudgets;
import org.partita.broker.config.JvmMemory;
import org.partita.jms.api.PartitaProperties;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * "Any message size in any heap", points 1 and 2: a node in a 128 MiB heap (G1, as operators run it)
 * takes the loads that ran it out of memory (exit 3) before. With the default client, messages
 * above 1 MiB travel as large messages, their bodies kept in files: 200 persistent 15 MiB messages,
 * hundreds of 1 MiB ones and a 2 GiB one sent from a stream are all stored and delivered. A client
 * that sends its bodies whole gets the largest message the heap allows, and beyond it a
 * {@code ResourceAllocationException} naming the limit. The process never runs out of memory; killed
 * in the middle of a 1 GiB send and of its delivery, it loses nothing confirmed and leaves no body
 * behind; killed after a drain, the same folder opens again in the same heap and stops cleanly.
 */
@Tag("slow")
class SmallHeapLargeMessagesTest {
    private static final String HEAP = "128m";
    /** 15 MiB messages sent as large messages: 3 GiB in all. */
    private static final int FIFTEENS = 200;

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

    private long bodyFiles() throws IOException {
        try (Stream<Path> files = Files.list(tmp.resolve("data").resolve("large"))) {
            return files.count();
        }
    }

    @Test
    void largeMessagesAreStoredOrRefusedAndTheNodeNeverRunsOutOfMemory() throws Exception {
        start("run1");
        Set<String> confirmed = new HashSet<>();
        List<String> refusals = new ArrayList<>();
        Connection c = node.factory().createConnection();
        // a client of an older kind, that sends every body whole
        Connection whole =
                new PartitaConnectionFactory(node.url() + "?largeMessageBytes=" + Integer.MAX_VALUE).createConnection();
        try {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("large"));
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            send(s, p, "15m", FIFTEENS, 15 * MIB, confirmed, refusals);
            send(s, p, "1m", 300, MIB, confirmed, refusals);
            Session ws = whole.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer wp = ws.createProducer(ws.createQueue("large"));
            wp.setDeliveryMode(DeliveryMode.PERSISTENT);
            send(ws, wp, "whole-15m", 10, 15 * MIB, confirmed, refusals);
            send(ws, wp, "largest", 8, LARGEST - 64 * 1024, confirmed, refusals);
        } catch (JMSException e) {
            throw new AssertionError(
                    "a send failed other than refused: " + e + "; node alive: "
                            + node.process().isAlive() + "; its output:\n" + node.stdout() + node.stderr(),
                    e);
        } finally {
            CrashRecoveryTest.closeQuietly(c);
            CrashRecoveryTest.closeQuietly(whole);
        }
        assertTrue(node.process().isAlive(), "the node died while taking the sends; stderr:\n" + node.stderr());
        assertEquals(
                10, refusals.size(), "every 15 MiB body sent whole is refused in a " + HEAP + " heap: " + refusals);
        for (String refusal : refusals) {
            assertTrue(refusal.contains("limits.messageBytes") && refusal.contains(LARGEST + " bytes"), refusal);
        }
        assertEquals(FIFTEENS + 308, confirmed.size());
        assertEquals(FIFTEENS, bodyFiles(), "each 15 MiB body in a file of its own");

        assertEquals(confirmed, drain(confirmed.size()), "every confirmed message is delivered once");
        assertTrue(node.process().isAlive(), "the node died during the drain; stderr:\n" + node.stderr());
        await().atMost(Duration.ofSeconds(60)).until(() -> bodyFiles() == 0);
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

    /**
     * Streamed bodies of 1 and 2 GiB: a SIGKILL in the middle of a send leaves no body behind and
     * confirms nothing; one in the middle of a delivery loses nothing, and the message comes again whole.
     */
    @Test
    void gigabyteBodiesSurviveKillsInTheMiddleOfTheirSendAndOfTheirDelivery() throws Exception {
        long oneGiB = 1L << 30;
        start("run1");
        // killed while the body is on its way: nothing confirmed, nothing left once the node is back
        Connection c = node.factory().createConnection();
        java.util.concurrent.CompletableFuture<Void> sending = java.util.concurrent.CompletableFuture.runAsync(() -> {
            try {
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                BytesMessage m = s.createBytesMessage();
                m.setObjectProperty(PartitaProperties.INPUT_STREAM, new LargeMessagesTest.Generated(oneGiB, 1));
                s.createProducer(s.createQueue("huge")).send(m);
            } catch (JMSException e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
        await().atMost(Duration.ofSeconds(60)).until(() -> largestBody() > 200L * MIB);
        node.kill();
        assertThrows(java.util.concurrent.ExecutionException.class, () -> sending.get(60, TimeUnit.SECONDS));
        CrashRecoveryTest.closeQuietly(c);
        start("run2");
        assertEquals(0, bodyFiles(), "the body of the send cut short is gone at start");

        // 1 and 2 GiB confirmed; killed while the first one is read: it comes again, whole
        Connection c2 = node.factory().createConnection();
        try {
            Session s = c2.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("huge"));
            for (long length : new long[] {oneGiB, 2 * oneGiB}) {
                BytesMessage m = s.createBytesMessage();
                m.setObjectProperty(PartitaProperties.INPUT_STREAM, new LargeMessagesTest.Generated(length, 2));
                p.send(m);
            }
        } finally {
            CrashRecoveryTest.closeQuietly(c2);
        }
        assertEquals(2, bodyFiles());
        Connection reader = node.factory().createConnection();
        java.util.concurrent.CompletableFuture<Message> reading =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                    try {
                        reader.start();
                        Session s = reader.createSession(false, Session.CLIENT_ACKNOWLEDGE);
                        return s.createConsumer(s.createQueue("huge")).receive(120_000);
                    } catch (JMSException e) {
                        throw new java.util.concurrent.CompletionException(e);
                    }
                });
        await().atMost(Duration.ofSeconds(60)).until(() -> clientBodyFileBytes() > 100L * MIB);
        node.kill();
        assertThrows(java.util.concurrent.ExecutionException.class, () -> reading.get(60, TimeUnit.SECONDS));
        CrashRecoveryTest.closeQuietly(reader);

        start("run3");
        assertEquals(2, bodyFiles(), "both bodies kept through the kills");
        Connection last = node.factory().createConnection();
        try {
            last.start();
            Session s = last.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = s.createConsumer(s.createQueue("huge"));
            for (long length : new long[] {oneGiB, 2 * oneGiB}) {
                BytesMessage got = (BytesMessage) consumer.receive(120_000);
                assertNotNull(got, "the message of " + length + " bytes came");
                assertEquals(length, got.getBodyLength());
                LargeMessagesTest.Digesting saved = new LargeMessagesTest.Digesting();
                got.setObjectProperty(PartitaProperties.SAVE_STREAM, saved);
                assertEquals(length, saved.count);
                assertArrayEquals(new LargeMessagesTest.Generated(length, 2).digest(), saved.digest.digest());
            }
        } finally {
            CrashRecoveryTest.closeQuietly(last);
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> bodyFiles() == 0);
        assertTrue(node.process().isAlive(), "stderr:\n" + node.stderr());
        assertNoMemoryTrouble();
    }

    private long largestBody() throws IOException {
        try (Stream<Path> files = Files.list(tmp.resolve("data").resolve("large"))) {
            return files.mapToLong(f -> f.toFile().length()).max().orElse(0);
        }
    }

    /** Bytes of the bodies this JVM's client is receiving into temporary files. */
    private static long clientBodyFileBytes() throws IOException {
        try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return files.filter(f -> f.getFileName().toString().startsWith("partita-body-"))
                    .mapToLong(f -> f.toFile().length())
                    .max()
                    .orElse(0);
        }
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

    /** Receives with the default client until {@code expected} came. */
    private Set<String> drain(int expected) throws JMSException {
        Set<String> received = new HashSet<>();
        Connection c = node.factory().createConnection();
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
