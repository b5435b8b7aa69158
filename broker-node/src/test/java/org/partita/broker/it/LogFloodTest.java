package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.protocol.auth.PasswordHash;

/**
 * docs/reliability.md, "Storage faults" point 10: a burst of malformed connections, of dropped
 * non-persistent sends or of failed logins leaves a bounded log, and says how much it held back.
 */
@Tag("slow")
@Timeout(120)
class LogFloodTest {
    private static final int BURST = 1_000;
    /** Each refusal is answered 250 ms late (a fresh user name is never delayed more): many guess at once. */
    private static final int GUESSERS = 16;

    private static final int LOGINS = 400;

    @TempDir
    Path dir;

    @Test
    void burstsOfBadConnectionsAndDroppedSendsLogAFewLinesAndCountTheRest() throws Exception {
        try (ChildNode node = ChildNode.startWithArgs(
                        dir.resolve("logs"),
                        "--port",
                        "0",
                        "--data",
                        dir.resolve("data").toString())
                .awaitReady()) {
            for (int i = 0; i < BURST; i++) {
                malformedConnection(node.port());
            }
            AtomicInteger refused = new AtomicInteger();
            try (Connection c = node.factory().createConnection()) {
                c.setExceptionListener(e -> refused.incrementAndGet());
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer p = s.createProducer(s.createQueue("tiny?maxDepthMessages=1"));
                p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
                for (int i = 0; i < BURST; i++) {
                    p.send(s.createTextMessage("m" + i));
                }
                await().atMost(Duration.ofSeconds(30)).until(() -> refused.get() >= BURST - 1);
            }
            String err = node.stderr();
            long closing =
                    err.lines().filter(l -> l.contains("closing connection")).count();
            long dropped = err.lines()
                    .filter(l -> l.contains("without confirmation from"))
                    .count();
            System.out.printf(
                    "%d malformed connections and %d dropped sends: %d lines, %d bytes of log%n",
                    BURST, BURST, err.lines().count(), err.length());
            assertTrue(closing >= 1 && closing <= 20, closing + " lines of closed connections:\n" + err);
            assertTrue(dropped >= 1 && dropped <= 20, dropped + " lines of dropped sends:\n" + err);

            // once the window has passed, the next line says how many were held back
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        malformedConnection(node.port());
                        return node.stderr()
                                .lines()
                                .anyMatch(l -> l.contains("closing connection") && l.contains("more suppressed"));
                    });
        }
    }

    @Test
    void aBurstOfFailedLoginsLogsAFewLinesAndCountsTheRest() throws Exception {
        Path users = dir.resolve("users.properties");
        // a cheap hash keeps the burst short: an unknown user's check costs as much as the file's hashes
        Files.writeString(users, "alice = " + PasswordHash.create("s3cret".toCharArray(), 1_000) + "\n");
        Path conf = dir.resolve("node.conf");
        Files.writeString(conf, "users = " + users + "\n");
        try (ChildNode node = ChildNode.startWithArgs(
                        dir.resolve("logs"),
                        "--config",
                        conf.toString(),
                        "--port",
                        "0",
                        "--data",
                        dir.resolve("data").toString())
                .awaitReady()) {
            long start = System.nanoTime();
            ExecutorService pool = Executors.newFixedThreadPool(GUESSERS);
            List<Future<Integer>> refusals = new ArrayList<>();
            for (int g = 0; g < GUESSERS; g++) {
                int guesser = g;
                refusals.add(pool.submit(() -> {
                    int refused = 0;
                    // a fresh user name each time, so no per-user delay spaces the attempts out
                    for (int i = 0; i < LOGINS / GUESSERS; i++) {
                        try {
                            node.factory()
                                    .createConnection("guess-" + guesser + "-" + i, "wrong")
                                    .close();
                        } catch (JMSSecurityException expected) {
                            refused++;
                        }
                    }
                    return refused;
                }));
            }
            int refused = 0;
            for (Future<Integer> f : refusals) {
                refused += f.get(90, TimeUnit.SECONDS);
            }
            pool.shutdown();
            long tookMs = (System.nanoTime() - start) / 1_000_000;
            assertEquals(LOGINS, refused);
            String err = node.stderr();
            long lines = err.lines()
                    .filter(l -> l.contains("login refused for user"))
                    .count();
            System.out.printf(
                    "%d failed logins in %d ms: %d lines of them, %d lines and %d bytes of log in all%n",
                    LOGINS, tookMs, lines, err.lines().count(), err.length());
            // 10 lines per 10 s window, whatever the number of attempts
            long bound = 10 * (tookMs / 10_000 + 2);
            assertTrue(
                    lines >= 1 && lines <= bound && lines < LOGINS / 4,
                    lines + " lines of refused logins (bound " + bound + "):\n" + err);

            // once the window has passed, the next line says how many were held back
            AtomicInteger next = new AtomicInteger();
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        assertThrows(
                                JMSSecurityException.class,
                                () -> node.factory()
                                        .createConnection("late-" + next.incrementAndGet(), "wrong")
                                        .close());
                        return node.stderr()
                                .lines()
                                .anyMatch(l -> l.contains("login refused for user") && l.contains("more suppressed"));
                    });
        }
    }

    @Test
    void anApplicationWithoutExceptionListenerLogsOneLinePerConnectionForItsRefusedSends() throws Exception {
        ch.qos.logback.classic.Logger client = (ch.qos.logback.classic.Logger)
                org.slf4j.LoggerFactory.getLogger(org.partita.jms.client.PartitaConnection.class);
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> lines =
                new ch.qos.logback.core.read.ListAppender<>();
        lines.start();
        client.addAppender(lines);
        try (org.partita.broker.embed.PartitaNode node =
                        org.partita.broker.embed.PartitaNode.start(org.partita.broker.config.NodeConfig.defaults()
                                .withPort(0)
                                .withDataDir(dir.resolve("in-process")));
                Connection c = new org.partita.jms.client.PartitaConnectionFactory(node.url()).createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("tiny?maxDepthMessages=1"));
            p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            for (int i = 0; i < BURST; i++) {
                p.send(s.createTextMessage("m" + i));
            }
            // a confirmed request after them: every refusal before it has reached the client
            try (MessageProducer other = s.createProducer(s.createQueue("other"))) {
                other.send(s.createTextMessage("sync"));
            }
            long warnings = lines.list.stream()
                    .filter(e -> e.getFormattedMessage().contains("refused a request sent without"))
                    .count();
            assertTrue(warnings == 1, warnings + " warnings for " + (BURST - 1) + " refused sends");
        } finally {
            client.detachAppender(lines);
        }
    }

    private static void malformedConnection(int port) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(5_000);
            s.getOutputStream().write(new byte[] {0, 0, 0, 8, (byte) 0xFF, 1, 2, 3, 4, 5, 6, 7});
            s.getOutputStream().flush();
            while (s.getInputStream().read() >= 0) {
                // until the node closes it
            }
        } catch (java.net.SocketException reset) {
            // closed with a reset: closed all the same
        }
    }
}
