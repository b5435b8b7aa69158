package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.io.InputStream;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.FlowLimits;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.api.PartitaAdmin;
import org.partita.protocol.Frame;

/**
 * docs/reliability.md, point 2: bytes waiting to be written to clients count in the node-wide in-flight
 * budget, and while it is spent a connection holding more than its share that takes nothing for 2 s is
 * closed. Before, they were bounded only per connection ({@code limits.writeBufferBytes}, 64 MiB each):
 * several clients that never read, each under its own bound, made the node hold all they were sent.
 */
@Tag("slow")
@Timeout(180)
class WriteBudgetTest {
    private static final long BUDGET = 4L << 20;
    private static final int NON_READERS = 4;
    private static final int BODY = 16 * 1024;
    private static final int PER_READER = 768; // 12 MiB each: under the 64 MiB each may hold alone, 3 times the budget

    @TempDir
    Path dir;

    @AutoClose
    private final LimitedNode limited = new LimitedNode();

    @Test
    void clientsThatDoNotReadAreClosedPastTheBudgetWhileAClientThatReadsIsServed() throws Exception {
        PartitaNode node =
                limited.start(dir.resolve("data"), FlowLimits.defaults().withInFlightBytes(BUDGET));
        Connection good = limited.connect();
        Session s = good.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageProducer p = s.createProducer(null);
        p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
        for (int r = 0; r < NON_READERS; r++) {
            for (int i = 0; i < PER_READER; i++) {
                p.send(s.createQueue("unread-" + r), LimitedNode.numbered(s, i, BODY));
            }
        }
        PartitaAdmin admin = PartitaAdmin.on(good);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            for (int r = 0; r < NON_READERS; r++) {
                if (admin.queueStats("unread-" + r).depth() < PER_READER) {
                    return false;
                }
            }
            return true;
        });

        AtomicBoolean sampling = new AtomicBoolean(true);
        AtomicLong peak = new AtomicLong();
        Thread sampler = new Thread(
                () -> {
                    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
                    while (sampling.get() && System.nanoTime() < deadline) {
                        peak.accumulateAndGet(node.inFlightBytes(), Math::max);
                        LockSupport.parkNanos(200_000);
                    }
                },
                "in-flight-sampler");
        sampler.start();
        List<BadInputTest.Raw> nonReaders = new ArrayList<>();
        AtomicLong slowest = new AtomicLong();
        AtomicLong closedAfter = new AtomicLong();
        long opened = System.nanoTime();
        try {
            for (int r = 0; r < NON_READERS; r++) {
                BadInputTest.Raw raw = new BadInputTest.Raw(node.port());
                nonReaders.add(raw);
                raw.hello();
                raw.send(new Frame.SessionOpen(2, 1, false));
                raw.send(new Frame.ConsumerOpen(3, 1, 7, "queue:unread-" + r, null, null, 0, 100_000));
                // and never reads again
            }
            // meanwhile a client that reads is answered: persistent round trips, each within seconds
            MessageConsumer served = s.createConsumer(s.createQueue("served"));
            good.start();
            MessageProducer persistent = s.createProducer(s.createQueue("served"));
            for (int i = 0; i < 20; i++) {
                long t0 = System.nanoTime();
                persistent.send(s.createTextMessage("round trip " + i));
                TextMessage m = (TextMessage) served.receive(10_000);
                assertNotNull(m, "round trip " + i);
                assertEquals("round trip " + i, m.getText());
                slowest.accumulateAndGet((System.nanoTime() - t0) / 1_000_000, Math::max);
            }
            // the node closes the clients that do not read, though none of them is past its own 64 MiB: together
            // they hold the node's budget, and take nothing
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        for (int r = 0; r < NON_READERS; r++) {
                            if (admin.queueStats("unread-" + r).consumers() > 0) {
                                return false;
                            }
                        }
                        return true;
                    });
            closedAfter.set((System.nanoTime() - opened) / 1_000_000);
            sampling.set(false);
            sampler.join(5_000);
            for (BadInputTest.Raw raw : nonReaders) {
                assertTrue(readsToEndOfStream(raw.input(), Duration.ofSeconds(20)), "the node closed the connection");
            }
        } finally {
            sampling.set(false);
            for (BadInputTest.Raw raw : nonReaders) {
                raw.close();
            }
        }
        // what was waiting for them is given back: the node is under its budget again
        await().atMost(Duration.ofSeconds(10)).until(() -> node.inFlightBytes() <= BUDGET);
        System.out.printf(
                "%d clients not reading %d MiB each: closed %d ms after they opened their consumers; the node"
                        + " held at most %d bytes in flight meanwhile (budget %d), %d after; round trips of a client that"
                        + " reads took at most %d ms%n",
                NON_READERS,
                PER_READER * BODY >> 20,
                closedAfter.get(),
                peak.get(),
                BUDGET,
                node.inFlightBytes(),
                slowest.get());
        s.createProducer(s.createQueue("after")).send(s.createTextMessage("still served"));
    }

    private static boolean readsToEndOfStream(InputStream in, Duration bound) throws Exception {
        byte[] buf = new byte[64 * 1024];
        long deadline = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (in.read(buf) < 0) {
                    return true;
                }
            } catch (SocketTimeoutException e) {
                return false;
            } catch (SocketException reset) {
                return true;
            }
        }
        return false;
    }
}
