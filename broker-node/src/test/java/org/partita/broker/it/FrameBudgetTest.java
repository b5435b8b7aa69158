package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.FlowLimits;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.protocol.Frame;
import org.partita.protocol.MessageCodec;

/**
 * Issue 12 point 2, frames being read: the bytes a connection's decoder holds of a frame not yet
 * complete count against the node-wide in-flight budget ({@code limits.inFlightBytes}); past it the
 * node stops reading connections in the middle of a large frame, lets one of them at a time finish,
 * and still answers others. Real TCP on loopback, frames written by hand after a proper HELLO.
 */
@Tag("slow")
class FrameBudgetTest {
    private static final long BUDGET = 1L << 20;
    private static final int HOSTILE = 8;
    /** What each hostile connection tries to write of its frame: 16 MiB in all, sixteen times the budget. */
    private static final int TRICKLE = 2 << 20;

    private static final int CHUNK = 64 << 10;

    @TempDir
    Path tmp;

    private PartitaNode node;
    private final List<Connection> connections = new ArrayList<>();

    @AfterEach
    void stop() {
        connections.forEach(CrashRecoveryTest::closeQuietly);
        if (node != null) {
            node.close();
        }
    }

    private void start() {
        node = PartitaNode.start(NodeConfig.defaults()
                .withPort(0)
                .withDataDir(tmp.resolve("data"))
                .withLimits(FlowLimits.defaults().withInFlightBytes(BUDGET)));
    }

    private Connection connect() throws JMSException {
        Connection c = new PartitaConnectionFactory(node.url()).createConnection();
        connections.add(c);
        return c;
    }

    /**
     * Before: each connection's decoder buffered its partial frame outside any budget, so these eight
     * made the node hold all 16 MiB they wrote (and connections × 16 MiB with more of them), while the
     * in-flight figure said 0. Now the figure counts them and stays near the budget.
     */
    @Test
    void partialLargeFramesCountAgainstTheBudgetAndStopBeingRead() throws Exception {
        start();
        Connection normal = connect();
        Session s = normal.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageProducer p = s.createProducer(s.createQueue("normal"));

        List<BadInputTest.Raw> hostile = new ArrayList<>();
        List<Thread> writers = new ArrayList<>();
        AtomicLong written = new AtomicLong();
        BadInputTest.Raw answered = new BadInputTest.Raw(node.port());
        try {
            answered.hello();
            for (int i = 0; i < HOSTILE; i++) {
                BadInputTest.Raw raw = new BadInputTest.Raw(node.port());
                hostile.add(raw);
                raw.hello();
                Thread w = new Thread(() -> trickle(raw, written), "hostile-" + i);
                w.setDaemon(true);
                writers.add(w);
                w.start();
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> node.inFlightBytes() >= BUDGET);
            // the budget, the one connection that may finish its frame, a read's buffer per connection
            long most = BUDGET + TRICKLE + HOSTILE * (128L << 10);
            await().during(Duration.ofSeconds(2))
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> node.inFlightBytes() <= most);

            // the node answers others meanwhile: a request, and a persistent send (stored and confirmed)
            answered.send(new Frame.Ping(9));
            assertEquals(new Frame.Ok(9), answered.read());
            CompletableFuture.runAsync(() -> {
                        try {
                            p.send(s.createTextMessage("answered while the budget is spent"));
                        } catch (JMSException e) {
                            throw new IllegalStateException(e);
                        }
                    })
                    .get(10, TimeUnit.SECONDS);
        } finally {
            for (BadInputTest.Raw r : hostile) {
                r.close();
            }
            answered.close();
        }
        for (Thread w : writers) {
            w.join(10_000);
        }
        // closing them releases their partial frames, and the waiting connection reads again
        await().atMost(Duration.ofSeconds(10)).until(() -> node.inFlightBytes() == 0);
        BytesMessage big = s.createBytesMessage();
        big.writeBytes(new byte[3 << 20]); // larger than the whole budget
        p.send(big);
        MessageConsumer consumer = s.createConsumer(s.createQueue("normal"));
        normal.start();
        assertNotNull(consumer.receive(10_000));
        assertNotNull(consumer.receive(10_000));
    }

    /** Connections each sending a message larger than the whole budget: one at a time finishes, none waits for ever. */
    @Test
    void framesLargerThanTheBudgetAllComplete() throws Exception {
        start();
        byte[] blob = MessageCodec.encode(BadInputTest.wire("queue:large", new byte[2 << 20]));
        int senders = 4;
        List<CompletableFuture<Frame>> answers = new ArrayList<>();
        List<BadInputTest.Raw> raws = new ArrayList<>();
        try {
            for (int i = 0; i < senders; i++) {
                BadInputTest.Raw raw = new BadInputTest.Raw(node.port());
                raws.add(raw);
                raw.hello();
                raw.send(new Frame.SessionOpen(2, 1, false));
                assertEquals(new Frame.Ok(2), raw.read());
            }
            for (BadInputTest.Raw raw : raws) {
                answers.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        raw.send(new Frame.Send(3, 1, blob));
                        return raw.read();
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                }));
            }
            for (CompletableFuture<Frame> a : answers) {
                assertEquals(new Frame.Ok(3), a.get(30, TimeUnit.SECONDS));
            }
        } finally {
            for (BadInputTest.Raw r : raws) {
                r.close();
            }
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> node.inFlightBytes() == 0);
        Connection c = connect();
        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer consumer = s.createConsumer(s.createQueue("large"));
        c.start();
        for (int i = 0; i < senders; i++) {
            assertNotNull(consumer.receive(10_000), "message " + i);
        }
    }

    /** A HELLO'd connection that announces a frame of 16 MiB and writes {@link #TRICKLE} bytes of it, chunk by chunk. */
    private static void trickle(BadInputTest.Raw raw, AtomicLong written) {
        try {
            raw.sendRaw(ByteBuffer.allocate(4).putInt((16 << 20) - 64).array());
            byte[] chunk = new byte[CHUNK];
            for (int sent = 0; sent < TRICKLE; sent += CHUNK) {
                raw.sendRaw(chunk);
                written.addAndGet(CHUNK);
            }
        } catch (IOException closed) {
            // the test closed the socket while the node was not reading it
        }
    }
}
