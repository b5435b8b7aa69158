package org.partita.bench;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One step of S11 on one broker, in a fresh data folder: the broker alone in a JVM limited to the heap
 * given fills a queue with persistent 1 KiB messages ({@code producers} connections, transacted batches);
 * its heap after full collections and the data folder's size are read; it is stopped cleanly (timed, the
 * stop's collections read from the JVM's GC log); a new JVM is started on the data and timed until a
 * consumer holds the first message, which is what a restart costs the users waiting on the backlog (a
 * broker may listen before it can deliver); the heap is read again; then the rest is drained, every
 * message checked once ({@link ArrivalBitmap}). Each phase (fill, restart to the first message, drain) has
 * the time cap; a phase that fails or runs out of time ends the step with an error, the figures reached kept.
 */
final class BacklogStep {
    static final String QUEUE = "backlog";
    static final int BODY_BYTES = 1024;
    /** How long the consumer waits for a further message once the drain looks done or stalled. */
    private static final long RECEIVE_MS = 5_000;
    /** After the last expected message, one more wait this long, so that a late duplicate is seen. */
    private static final long GRACE_MS = 500;

    /**
     * How a step runs: the broker JVM's -Xmx, the fill's producers and transaction size, the drain's
     * transaction size, each phase's cap.
     */
    record Settings(
            String heap, int producers, int batch, int drainBatch, long timeCapSeconds, long tunedBufferTimeoutNanos) {}

    private final Settings settings;
    private final Path root;
    private final PrintStream log;

    BacklogStep(Settings settings, Path root, PrintStream log) {
        this.settings = settings;
        this.root = root;
        this.log = log;
    }

    BacklogFigures run(Target target, int messages) {
        BacklogFigures f = new BacklogFigures(target, messages);
        String name = target.id() + "-" + messages;
        Path data = null;
        Path gcLog = root.resolve(name + "-fill-gc.log");
        try {
            data = Files.createTempDirectory(root, name + "-");
            fillAndStop(f, data, gcLog);
            restartAndDrain(f, data);
        } catch (Exception e) {
            f.error = phase(f) + ": " + e;
        } finally {
            Files2.deleteRecursively(data);
            Files2.deleteRecursively(gcLog);
        }
        return f;
    }

    /** The phase a step was in when it failed, from the figures it reached. */
    private static String phase(BacklogFigures f) {
        if (f.stopMillis < 0) {
            return Double.isNaN(f.fillRate) ? "fill" : "stop";
        }
        return f.firstDeliveryMillis < 0 ? "restart" : "drain";
    }

    private void fillAndStop(BacklogFigures f, Path data, Path gcLog) throws Exception {
        log.printf(Locale.ROOT, "%s, %,d: filling%n", f.target.label(), f.messages);
        try (ChildBroker broker = ChildBroker.start(
                f.target,
                data,
                settings.tunedBufferTimeoutNanos(),
                settings.heap(),
                List.of(GcLog.option(gcLog)),
                settings.timeCapSeconds())) {
            f.fillRate = fill(f.target.connectionFactory(broker.url), f.messages);
            f.heapAfterFill = broker.heapUsed();
            f.diskBytes = Files2.sizeOf(data);
            log.printf(
                    Locale.ROOT,
                    "%s, %,d: filled at %,.0f msg/s, heap %d MiB, %,.0f bytes on disk per message; stopping%n",
                    f.target.label(),
                    f.messages,
                    f.fillRate,
                    f.heapAfterFill >> 20,
                    f.diskBytesPerMessage());
            ChildBroker.Stop stop = broker.stop();
            f.stopMillis = stop.millis();
            f.stopGc = GcLog.since(gcLog, stop.requestedAtUptime());
        }
    }

    private void restartAndDrain(BacklogFigures f, Path data) throws Exception {
        log.printf(
                Locale.ROOT,
                "%s, %,d: stopped in %,d ms (%s); restarting%n",
                f.target.label(),
                f.messages,
                f.stopMillis,
                f.stopGc.describe());
        long cap = TimeUnit.SECONDS.toNanos(settings.timeCapSeconds());
        long launched = System.nanoTime();
        try (ChildBroker broker = ChildBroker.start(
                f.target, data, settings.tunedBufferTimeoutNanos(), settings.heap(), settings.timeCapSeconds())) {
            f.startMillis = broker.startMillis;
            ArrivalBitmap arrivals = new ArrivalBitmap(f.messages);
            f.arrivals = arrivals;
            try (Connection c = f.target.connectionFactory(broker.url).createConnection()) {
                Session s = c.createSession(true, Session.SESSION_TRANSACTED);
                MessageConsumer consumer = s.createConsumer(s.createQueue(QUEUE));
                c.start();
                long left = launched + cap - System.nanoTime();
                Message first = consumer.receive(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                if (first == null) {
                    throw new TimeoutException("no message delivered within the time cap after the restart");
                }
                f.firstDeliveryMillis = (System.nanoTime() - launched) / 1_000_000;
                arrivals.record(first.getIntProperty("index"));
                // read with the consumer attached and the first message held: the broker as it serves
                f.heapAfterRestart = broker.heapUsed();
                log.printf(
                        Locale.ROOT,
                        "%s, %,d: first message %,d ms after the JVM's launch (started in %,d ms), heap %d MiB;"
                                + " draining%n",
                        f.target.label(),
                        f.messages,
                        f.firstDeliveryMillis,
                        f.startMillis,
                        f.heapAfterRestart >> 20);
                long start = System.nanoTime();
                int before = arrivals.distinct();
                drain(s, consumer, arrivals, start + cap);
                f.drainRate = (arrivals.distinct() - before) / ((System.nanoTime() - start) / 1e9);
            }
            if (!broker.alive()) {
                f.error = "the broker process died";
            } else if (arrivals.distinct() < f.messages) {
                f.error = "drain: the queue ran dry or the time cap passed before every message arrived";
            }
            broker.stop();
        }
    }

    /** {@code producers} connections, transacted batches; returns messages per second, or throws if not all were sent. */
    private double fill(ConnectionFactory cf, int messages) throws Exception {
        int producers = Math.min(settings.producers(), messages);
        int per = messages / producers;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(settings.timeCapSeconds());
        AtomicInteger committed = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        List<Exception> failures = Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();
        for (int p = 0; p < producers; p++) {
            int first = p * per;
            int count = p == producers - 1 ? messages - per * (producers - 1) : per;
            Thread t = new Thread(
                    () -> {
                        try (Connection c = cf.createConnection()) {
                            Session s = c.createSession(true, Session.SESSION_TRANSACTED);
                            MessageProducer mp = s.createProducer(s.createQueue(QUEUE));
                            mp.setDeliveryMode(DeliveryMode.PERSISTENT);
                            byte[] body = new byte[BODY_BYTES];
                            int inBatch = 0;
                            for (int i = 0; i < count && System.nanoTime() < deadline; i++) {
                                BytesMessage m = s.createBytesMessage();
                                m.writeBytes(body);
                                m.setIntProperty("index", first + i);
                                mp.send(m);
                                if (++inBatch == settings.batch() || i == count - 1) {
                                    s.commit();
                                    committed.addAndGet(inBatch);
                                    inBatch = 0;
                                }
                            }
                        } catch (Exception e) {
                            failures.add(e);
                        }
                    },
                    "fill-" + p);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
        if (committed.get() < messages) {
            throw new TimeoutException(String.format(
                    Locale.ROOT,
                    "%,d of %,d messages sent within the time cap (%d s)",
                    committed.get(),
                    messages,
                    settings.timeCapSeconds()));
        }
        return messages / ((System.nanoTime() - start) / 1e9);
    }

    /** Takes the rest of the backlog in transactions of {@code drainBatch}, then waits briefly for a duplicate. */
    private void drain(Session s, MessageConsumer consumer, ArrivalBitmap arrivals, long deadline) throws Exception {
        int inBatch = 1; // the first message, received before the heap was read
        while (arrivals.distinct() < arrivals.expected() && System.nanoTime() < deadline) {
            Message m = consumer.receive(RECEIVE_MS);
            if (m == null) {
                break;
            }
            arrivals.record(m.getIntProperty("index"));
            if (++inBatch >= settings.drainBatch()) {
                s.commit();
                inBatch = 0;
            }
        }
        s.commit();
        Message late = consumer.receive(GRACE_MS);
        if (late != null) {
            arrivals.record(late.getIntProperty("index"));
            s.commit();
        }
    }
}
