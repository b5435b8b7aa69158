package org.partita.broker.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
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
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.FlowLimits;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.api.PartitaAdmin;
import org.partita.jms.api.QueueStats;

/**
 * Issue 12 point 2, latency: a non-persistent producer is paced by its queue's consumers while they
 * take messages ({@code limits.pacedBacklogBytes}), and never waits for consumers that do not.
 */
@Tag("slow")
class ConsumptionPaceTest {
    private static final int BODY = 1024;
    /** About 16 messages of 1 KiB. */
    private static final long BOUND = 16L << 10;
    /** A consumer this long between two messages may count as not taking any (the node's horizon is 20 ms). */
    private static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    @TempDir
    Path tmp;

    private final LimitedNode limited = new LimitedNode();
    private PartitaNode node;

    private void start(FlowLimits limits) {
        node = limited.start(tmp.resolve("data"), limits);
    }

    private Connection connect() throws JMSException {
        return limited.connect();
    }

    @AfterEach
    void stop() {
        limited.close();
    }

    /** A started thread sending messages 0 to {@code total - 1} through {@code p}; what it throws goes to {@code failed}. */
    private static Thread sending(
            MessageProducer p, Session s, int total, AtomicReference<Throwable> failed, String name) {
        Thread t = new Thread(
                () -> {
                    try {
                        for (int i = 0; i < total; i++) {
                            p.send(message(s, i));
                        }
                    } catch (Throwable e) {
                        failed.set(e);
                    }
                },
                name);
        t.start();
        return t;
    }

    private static BytesMessage message(Session s, int i) throws JMSException {
        return LimitedNode.numbered(s, i, BODY);
    }

    /**
     * Before: credit came back once a message was queued, so a producer ten times faster than its
     * consumer filled the queue (thousands waiting) and the consumer's prefetch (500 in flight).
     * Now, once the consumer has caught up with what the producer sent before pacing took hold (its
     * first window of credit), what the queue holds stays near the bound while the consumer works.
     */
    @Test
    void aFastProducerIsPacedByItsActiveSlowConsumer() throws Exception {
        start(FlowLimits.defaults().withPacedBacklogBytes(BOUND));
        int total = 3_000;
        Connection consuming = connect();
        Session cs = consuming.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer consumer = cs.createConsumer(cs.createQueue("paced"));
        consuming.start();
        Connection producing = connect();
        Session ps = producing.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageProducer p = ps.createProducer(ps.createQueue("paced"));
        p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
        for (int i = 0; i < 200; i++) { // warm up both paths first, so that the consumer's pace is its own
            p.send(message(ps, -1));
            assertNotNull(consumer.receive(10_000));
        }

        AtomicInteger received = new AtomicInteger();
        AtomicInteger pauses = new AtomicInteger();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread slow = new Thread(
                () -> {
                    try {
                        long last = System.nanoTime();
                        for (int i = 0; i < total; i++) {
                            Message m = consumer.receive(10_000);
                            assertNotNull(m, "message " + i);
                            assertEquals(i, m.getIntProperty("seq"));
                            received.incrementAndGet();
                            long now = System.nanoTime();
                            if (now - last > PAUSE_NANOS) {
                                pauses.incrementAndGet();
                            }
                            last = now;
                            LockSupport.parkNanos(
                                    TimeUnit.MILLISECONDS.toNanos(1)); // a consumer that works on each message
                        }
                    } catch (Throwable t) {
                        failed.set(t);
                    }
                },
                "slow-consumer");
        slow.start();
        Thread fast = sending(p, ps, total, failed, "fast-producer");

        // what the user sees of the queue: waiting plus delivered and unacknowledged
        Connection admin = connect();
        admin.start();
        PartitaAdmin a = PartitaAdmin.on(admin);
        long near = 100; // the bound is 16 messages; a batch of credit and the sends on their way come on top
        long most = 0;
        int samples = 0;
        int over = 0;
        boolean caughtUp = false;
        boolean everCaughtUp = false;
        // a sample counts once the consumer took another message after it without pausing: a pause
        // (a busy machine) rightly lets credit flow, and the consumer must then catch up again
        java.util.ArrayDeque<long[]> pending = new java.util.ArrayDeque<>(); // {held, received, pauses}
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (received.get() < total - 300 && System.nanoTime() < deadline && failed.get() == null) {
            int pausesBefore = pauses.get();
            int receivedBefore = received.get();
            QueueStats s = a.queueStats("paced");
            pending.add(new long[] {s.depth() + s.inFlight(), receivedBefore, pausesBefore});
            while (!pending.isEmpty() && received.get() > pending.peek()[1] + 1) {
                long[] sample = pending.poll();
                if (pauses.get() != sample[2]) {
                    caughtUp = false;
                    pending.clear();
                    break;
                }
                caughtUp |= sample[1] >= 100 && sample[0] <= near;
                everCaughtUp |= caughtUp;
                if (caughtUp) {
                    most = Math.max(most, sample[0]);
                    samples++;
                    if (sample[0] > near) {
                        over++;
                    }
                }
            }
            Thread.sleep(10); // the sampling interval: a pause on purpose, not a wait for something
        }
        slow.join(60_000);
        fast.join(10_000);
        assertNull(failed.get());
        assertEquals(total, received.get());
        assertTrue(everCaughtUp, "the consumer caught up with the producer while it still sent");
        assertTrue(samples >= 10, "sampled while the consumer worked: " + samples + " (pauses " + pauses.get() + ")");
        // The node sees the consumer take messages through its acknowledgements; on a busy machine they
        // can reach it 20 ms apart while the consumer thread did not pause, and then the credit withheld,
        // at most one producer window, goes back unpaced (by design: a producer never waits for a consumer
        // that stopped). So nearly all samples stay near the bound and none goes a window beyond it;
        // without pacing the queue held thousands.
        assertTrue(
                over <= samples / 10,
                "waiting plus unacknowledged stayed near the bound: " + over + " of " + samples + " samples above "
                        + near + ", the most " + most);
        long window = FlowLimits.DEFAULT_PRODUCER_WINDOW_BYTES / BODY;
        assertTrue(most <= near + window, "never more than a producer window beyond the bound: " + most);
    }

    /**
     * A single-threaded application sends many messages before it receives any: its consumer, having
     * taken a few, stops taking, so after a moment credit flows as without pacing and nothing waits for ever.
     */
    @Test
    void oneThreadSendingManyBeforeReceivingIsNeverHeldForEver() throws Exception {
        start(FlowLimits.defaults().withPacedBacklogBytes(BOUND));
        int total = 10_000;
        assertTimeoutPreemptively(Duration.ofSeconds(45), () -> {
            Connection c = connect();
            Session producing = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Session consuming = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = producing.createProducer(producing.createQueue("one-thread"));
            p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            MessageConsumer consumer = consuming.createConsumer(consuming.createQueue("one-thread"));
            c.start();
            for (int i = 0; i < 100; i++) { // the consumer was taking messages just before
                p.send(message(producing, i));
                assertNotNull(consumer.receive(10_000));
            }
            for (int i = 0; i < total; i++) {
                p.send(message(producing, i));
            }
            for (int i = 0; i < total; i++) {
                Message m = consumer.receive(10_000);
                assertNotNull(m, "message " + i);
                assertEquals(i, m.getIntProperty("seq"));
            }
        });
    }
    /**
     * A consumer that acknowledges every 500 messages holds far more than the bound unacknowledged;
     * while it waits for the rest of a batch it acknowledges nothing, so its producer is let go
     * within moments each time and both go on to the end.
     */
    @Test
    void aConsumerAcknowledgingInBatchesLargerThanTheBoundIsNeverStarved() throws Exception {
        start(FlowLimits.defaults().withPacedBacklogBytes(BOUND));
        int total = 3_000;
        int batch = 500;
        assertTimeoutPreemptively(Duration.ofSeconds(45), () -> {
            Connection consuming = connect();
            Session cs = consuming.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageConsumer consumer = cs.createConsumer(cs.createQueue("batches"));
            consuming.start();
            Connection producing = connect();
            Session ps = producing.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = ps.createProducer(ps.createQueue("batches"));
            p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread producer = sending(p, ps, total, failed, "producer");
            for (int i = 0; i < total; i++) {
                Message m = consumer.receive(10_000);
                assertNotNull(m, "message " + i + " (producer failure: " + failed.get() + ")");
                assertEquals(i, m.getIntProperty("seq"));
                if ((i + 1) % batch == 0) {
                    m.acknowledge();
                }
            }
            producer.join(10_000);
            assertNull(failed.get());
        });
    }
}
