package org.partita.broker.it;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.JMSSecurityException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.jms.transport.NettyBrokerConnection;
import org.partita.protocol.Protocol;
import org.partita.protocol.auth.PasswordHash;

/** Docs/security.md, point 13: password checks never hold up a network thread; failures are slowed and counted. */
@Tag("slow")
class LoginThrottlingTest {
    private static final int GUESSERS = 8;

    @TempDir
    Path dir;

    private PartitaNode start() throws Exception {
        Path users = dir.resolve("users.properties");
        Files.writeString(users, "alice = " + PasswordHash.create("s3cret".toCharArray()) + "\n");
        return PartitaNode.start(NodeConfig.defaults()
                .withPort(0)
                .withDataDir(dir.resolve("data"))
                .withUsersFile(users));
    }

    @Test
    void guessingConnectionsDoNotSlowALoggedInClient() throws Exception {
        try (PartitaNode node = start()) {
            NettyBrokerConnection alice =
                    NettyBrokerConnection.connect("127.0.0.1", node.port(), Protocol.DEFAULT_MAX_FRAME_SIZE, 5_000);
            alice.open("alice", "s3cret", null).get(10, TimeUnit.SECONDS);
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger guesses = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(GUESSERS);
            for (int g = 0; g < GUESSERS; g++) {
                int guesser = g;
                pool.execute(() -> {
                    // a fresh user name each time: no per-user delay applies, every guess costs a full hash
                    for (int i = 0; !stop.get() && i < 100_000; i++) {
                        NettyBrokerConnection c = NettyBrokerConnection.connect(
                                "127.0.0.1", node.port(), Protocol.DEFAULT_MAX_FRAME_SIZE, 5_000);
                        try {
                            c.open("guess-" + guesser + "-" + i, "password" + i, null)
                                    .get(20, TimeUnit.SECONDS);
                        } catch (Exception refused) {
                            guesses.incrementAndGet();
                        } finally {
                            c.abort();
                        }
                    }
                });
            }
            List<Long> rtt = new ArrayList<>();
            try {
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
                while (System.nanoTime() < end) {
                    long t = System.nanoTime();
                    alice.ping().get(10, TimeUnit.SECONDS);
                    rtt.add(System.nanoTime() - t);
                    Thread.sleep(10); // the interval between pings: a pause on purpose, not a wait for something
                }
            } finally {
                stop.set(true);
                pool.shutdown();
                assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS));
            }
            Collections.sort(rtt);
            double median = rtt.get(rtt.size() / 2) / 1e6;
            double p90 = rtt.get(rtt.size() * 9 / 10) / 1e6;
            System.out.printf(
                    "%d guesses; logged-in round trip median %.2f ms, p90 %.2f ms over %d pings%n",
                    guesses.get(), median, p90, rtt.size());
            assertTrue(guesses.get() >= GUESSERS, "the guessers ran: " + guesses.get());
            // with the check on the event loop, the median was 336 ms with 8 guessers
            assertTrue(median < 25, "median round trip " + median + " ms");
            alice.close().get(5, TimeUnit.SECONDS);
            assertTrue(
                    node.metrics()
                            .scrape()
                            .contains("partita_logins_failed_total "
                                    + (double)
                                            node.reader().connectionRegistry().failedLogins()),
                    "counted in the figures");
            assertTrue(node.reader().connectionRegistry().failedLogins() >= guesses.get() - 64);
        }
    }

    @Test
    void repeatedFailuresOfOneUserAreSlowedDown() throws Exception {
        try (PartitaNode node = start()) {
            PartitaConnectionFactory cf = new PartitaConnectionFactory("tcp://127.0.0.1:" + node.port());
            List<Long> took = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                long t = System.nanoTime();
                assertThrows(JMSSecurityException.class, () -> cf.createConnection("alice", "wrong"));
                took.add((System.nanoTime() - t) / 1_000_000);
            }
            System.out.println("refusals of alice took " + took + " ms");
            // 250 ms after the first failure, doubling: the fourth waits for the third's delay, then its own
            assertTrue(took.get(0) >= 250, took.toString());
            assertTrue(took.get(3) >= 2_000, took.toString());
            long t = System.nanoTime();
            assertThrows(JMSSecurityException.class, () -> cf.createConnection("bob", "wrong"));
            assertTrue((System.nanoTime() - t) / 1_000_000 < 2_000, "another user is not slowed by alice's failures");
            cf.createConnection("alice", "s3cret").close(); // the right password still works
        }
    }
}
