package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
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
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README: "SIGTERM (or Ctrl-C) stops the node cleanly." The node runs in a child JVM; SIGTERM comes
 * from {@link Process#destroy()}. A JVM that ends because of SIGTERM after running its shutdown hooks
 * exits with 143 (128 + 15), which is what this test observes for NodeMain; 0 is accepted too, for a
 * node that catches the signal and exits normally.
 */
@Tag("slow")
class CleanShutdownTest {
    private static final Duration EXIT_BOUND = Duration.ofSeconds(20);

    @TempDir
    Path tmp;

    private final List<ChildNode> nodes = new ArrayList<>();

    @AfterEach
    void stopNodes() throws InterruptedException {
        for (ChildNode n : nodes) {
            n.close();
        }
    }

    @Test
    void sigtermStopsTheNodeCleanlyAndARestartFindsThePersistedMessages() throws Exception {
        ChildNode first = ChildNode.start(tmp.resolve("data"), 0, tmp.resolve("run1"));
        nodes.add(first);
        List<JMSException> told = new CopyOnWriteArrayList<>();
        Connection c = first.factory().createConnection();
        try {
            c.setExceptionListener(told::add);
            Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            Queue q = s.createQueue("shutdown");
            MessageProducer p = s.createProducer(q);
            for (int i = 0; i < 20; i++) {
                TextMessage m = s.createTextMessage("m-" + i);
                m.setIntProperty("seq", i);
                p.send(m);
            }
            c.start();
            MessageConsumer consumer = s.createConsumer(q);
            Message m = null;
            for (int i = 0; i < 5; i++) {
                m = consumer.receive(10_000);
                assertNotNull(m);
                assertEquals(i, m.getIntProperty("seq"));
            }
            m.acknowledge(); // 0..4 consumed for good
            for (int i = 5; i < 8; i++) { // seen, never acknowledged: a connected client holding messages
                assertNotNull(consumer.receive(10_000));
            }

            long t0 = System.nanoTime();
            int code = first.terminate(EXIT_BOUND);
            long tookMs = (System.nanoTime() - t0) / 1_000_000;
            System.out.println(
                    "CleanShutdownTest: NodeMain exited with code " + code + " " + tookMs + " ms after SIGTERM");
            assertTrue(
                    Set.of(0, 143).contains(code), "exit code after SIGTERM: " + code + "; stderr:\n" + first.stderr());
            assertTrue(
                    first.stderr().contains("Partita node node1 stopped"),
                    "the shutdown hook closed the node; stderr:\n" + first.stderr());
            await("the client's ExceptionListener")
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> !told.isEmpty());
        } finally {
            CrashRecoveryTest.closeQuietly(c);
        }

        // The port was given back: a restart can bind the same one.
        ChildNode second = ChildNode.start(tmp.resolve("data"), first.port(), tmp.resolve("run2"));
        nodes.add(second);
        assertEquals(first.port(), second.port());
        List<Integer> seqs = new ArrayList<>();
        try (Connection c2 = second.factory().createConnection()) {
            c2.start();
            Session s2 = c2.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = s2.createConsumer(s2.createQueue("shutdown"));
            for (int i = 0; i < 15; i++) {
                TextMessage m = (TextMessage) consumer.receive(10_000);
                assertNotNull(m, "message " + i + " after the restart; got " + seqs);
                assertEquals("m-" + m.getIntProperty("seq"), m.getText());
                seqs.add(m.getIntProperty("seq"));
            }
            Absence.assertNothingAhead(
                    s2, s2.createQueue("shutdown"), consumer, "nothing beyond the 15 unacknowledged messages");
        }
        assertEquals(
                IntStream.range(5, 20).boxed().toList(),
                seqs,
                "the acknowledged messages are gone, the 15 others are back in order");
    }

    @Test
    void sigtermOnAnIdleNodeExitsPromptly() throws Exception {
        ChildNode node = ChildNode.start(tmp.resolve("data"), 0, tmp.resolve("run1"));
        nodes.add(node);
        int code = node.terminate(EXIT_BOUND);
        assertTrue(Set.of(0, 143).contains(code), "exit code after SIGTERM: " + code);
        assertTrue(node.stderr().contains("Partita node node1 stopped"), "stderr:\n" + node.stderr());
    }
}
