package org.partita.bench;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A deep backlog, then a restart: each broker runs alone in a JVM limited to {@code --heap}; the
 * tool fills one queue with {@code --messages} persistent 1 KiB messages, reads the broker's heap
 * after a full GC, stops it cleanly (timing the stop and reading the broker JVM's GC log for what its
 * heap held meanwhile), starts it again on the same data (timing the start until it
 * serves), reads the heap again, and drains the queue checking that every message arrived once.
 */
@Command(
        name = "backlog",
        mixinStandardHelpOptions = true,
        description = "Heap and restart time of a broker holding a deep backlog, Partita against Artemis")
public final class BacklogRestart implements Callable<Integer> {
    private static final String QUEUE = "backlog";

    @Option(names = "--messages", description = "messages in the backlog (default ${DEFAULT-VALUE})")
    int messages = 1_000_000;

    @Option(names = "--heap", description = "the broker JVM's -Xmx (default ${DEFAULT-VALUE})")
    String heap = "512m";

    @Option(names = "--targets", split = ",", description = "brokers (default partita,artemis-tuned)")
    List<String> targetIds = List.of("partita", "artemis-tuned");

    @Option(names = "--producers", description = "producer connections filling the queue (default ${DEFAULT-VALUE})")
    int producers = 4;

    @Option(
            names = "--batch",
            description = "messages per transaction when filling and draining (default ${DEFAULT-VALUE})")
    int batch = 500;

    @Option(names = "--time-cap", description = "seconds the fill or the drain may take (default ${DEFAULT-VALUE})")
    long timeCapSeconds = 900;

    @Option(names = "--out", description = "Markdown report (default: backlog-results.md next to the jar)")
    Path out;

    record Result(
            Target target,
            double fillRate,
            long heapAfterFill,
            long stopMillis,
            GcLog.Summary stopGc,
            long restartMillis,
            long heapAfterRestart,
            double drainRate,
            int arrived,
            int duplicates,
            String error) {
        boolean passed(int expected) {
            return error == null && arrived == expected && duplicates == 0;
        }
    }

    public static void main(String[] args) {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.activemq", "error");
        System.exit(new CommandLine(new BacklogRestart()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Path dir = Files.createTempDirectory("partita-backlog");
        try {
            DiskSync.Result sync = DiskSync.measure(dir, 1000, 3);
            List<Result> results = new ArrayList<>();
            for (String id : targetIds) {
                Result r = run(Target.fromId(id), dir, sync.nanosPerSync());
                results.add(r);
                System.out.println(r);
            }
            String md = markdown(results);
            System.out.println();
            System.out.println(md);
            Path file = out != null ? out : Path.of("benchmarks", "target", "backlog-results.md");
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, md);
            System.out.println("written to " + file.toAbsolutePath());
            return results.stream().allMatch(r -> r.passed(messages)) ? 0 : 1;
        } finally {
            Files2.deleteRecursively(dir);
        }
    }

    private Result run(Target target, Path root, long bufferTimeout) throws Exception {
        Path data = Files.createTempDirectory(root, target.id() + "-");
        System.out.printf(Locale.ROOT, "%s: filling %,d messages%n", target.label(), messages);
        Path gcLog = root.resolve(target.id() + "-fill-gc.log");
        double fillRate;
        long heapAfterFill;
        ChildBroker.Stop stop;
        GcLog.Summary stopGc;
        try (ChildBroker broker =
                ChildBroker.start(target, data, bufferTimeout, heap, List.of(GcLog.option(gcLog)), 120)) {
            fillRate = fill(target.connectionFactory(broker.url));
            heapAfterFill = broker.heapUsed();
            System.out.printf(
                    Locale.ROOT,
                    "%s: filled at %.0f msg/s, heap %d MiB; stopping%n",
                    target.label(),
                    fillRate,
                    heapAfterFill >> 20);
            stop = broker.stop();
            stopGc = GcLog.since(gcLog, stop.requestedAtUptime());
        } catch (Exception e) {
            return new Result(target, 0, 0, 0, GcLog.Summary.NONE, 0, 0, 0, 0, 0, "fill: " + e);
        }
        System.out.printf(
                Locale.ROOT,
                "%s: stopped in %d ms (%s); restarting%n",
                target.label(),
                stop.millis(),
                stopGc.describe());
        try (ChildBroker broker = ChildBroker.start(target, data, bufferTimeout, heap, 600)) {
            long heapAfterRestart = broker.heapUsed();
            Tally tally = new Tally(messages);
            long start = System.nanoTime();
            drain(target.connectionFactory(broker.url), tally);
            double drainRate = tally.distinct() / ((System.nanoTime() - start) / 1e9);
            String error = broker.alive() ? null : "the broker process died";
            broker.stop();
            return new Result(
                    target,
                    fillRate,
                    heapAfterFill,
                    stop.millis(),
                    stopGc,
                    broker.startMillis,
                    heapAfterRestart,
                    drainRate,
                    tally.distinct(),
                    tally.duplicates(),
                    error);
        } catch (Exception e) {
            return new Result(target, fillRate, heapAfterFill, stop.millis(), stopGc, 0, 0, 0, 0, 0, "restart: " + e);
        } finally {
            Files2.deleteRecursively(data);
        }
    }

    /** {@code producers} connections, transacted batches of {@code batch}; returns messages per second. */
    private double fill(ConnectionFactory cf) throws Exception {
        int per = messages / producers;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeCapSeconds);
        List<Thread> threads = new ArrayList<>();
        List<Exception> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();
        for (int p = 0; p < producers; p++) {
            int producer = p;
            int count = p == producers - 1 ? messages - per * (producers - 1) : per;
            Thread t = new Thread(
                    () -> {
                        try (Connection c = cf.createConnection()) {
                            Session s = c.createSession(true, Session.SESSION_TRANSACTED);
                            MessageProducer mp = s.createProducer(s.createQueue(QUEUE));
                            mp.setDeliveryMode(DeliveryMode.PERSISTENT);
                            byte[] body = new byte[1024];
                            for (int i = 0; i < count && System.nanoTime() < deadline; i++) {
                                BytesMessage m = s.createBytesMessage();
                                m.writeBytes(body);
                                m.setIntProperty("index", producer * per + i);
                                mp.send(m);
                                if ((i + 1) % batch == 0 || i == count - 1) {
                                    s.commit();
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
        return messages / ((System.nanoTime() - start) / 1e9);
    }

    /** One transacted consumer takes everything, checking each index arrives exactly once. */
    private void drain(ConnectionFactory cf, Tally tally) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeCapSeconds);
        try (Connection c = cf.createConnection()) {
            Session s = c.createSession(true, Session.SESSION_TRANSACTED);
            Queue q = s.createQueue(QUEUE);
            MessageConsumer consumer = s.createConsumer(q);
            c.start();
            int inBatch = 0;
            while (tally.distinct() < messages && System.nanoTime() < deadline) {
                Message m = consumer.receive(5_000);
                if (m == null) {
                    break;
                }
                tally.record(m.getIntProperty("index"));
                if (++inBatch == batch) {
                    s.commit();
                    inBatch = 0;
                }
            }
            s.commit();
        }
    }

    private String markdown(List<Result> results) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(
                Locale.ROOT,
                "## Backlog of %,d persistent 1 KiB messages, broker heap limited to %s, %s%n%n",
                messages,
                heap,
                LocalDate.now()));
        sb.append("| Broker | fill msg/s | heap after fill | clean stop (request until the JVM ended) "
                + "| heap during the stop: most after a GC / before one | GCs during the stop (full) "
                + "| restart (start until serving) | heap after restart | drain msg/s | exactly once |\n");
        sb.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (Result r : results) {
            GcLog.Summary gc = r.stopGc();
            String stopHeap = gc.collections() == 0
                    ? "no GC"
                    : String.format(Locale.ROOT, "%d / %d MiB", gc.maxAfter() >> 20, gc.maxBefore() >> 20);
            sb.append(String.format(
                    Locale.ROOT,
                    "| %s | %,.0f | %d MiB | %,d ms | %s | %d (%d) | %,d ms | %d MiB | %,.0f | %s |%n",
                    r.target().label(),
                    r.fillRate(),
                    r.heapAfterFill() >> 20,
                    r.stopMillis(),
                    stopHeap,
                    gc.collections(),
                    gc.full(),
                    r.restartMillis(),
                    r.heapAfterRestart() >> 20,
                    r.drainRate(),
                    r.passed(messages)
                            ? "yes"
                            : "NO: " + r.arrived() + " arrived, " + r.duplicates() + " duplicates"
                                    + (r.error() == null ? "" : ", " + r.error())));
        }
        return sb.toString();
    }
}
