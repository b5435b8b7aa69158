package org.partita.bench;

import jakarta.jms.ConnectionFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A broker in a JVM of its own ({@link BrokerProcess}), as users run one: the load tool's clients
 * reach it over loopback only, and neither shares the other's heap, garbage collector or JIT.
 * Everything else is asked of the broker process.
 */
final class OwnJvmBroker implements BrokerUnderTest {
    private final ChildBroker child;
    private final ConnectionFactory cf;
    private final String storedBytesMethod;
    private final Target target;
    /** The broker JVM's GC log ({@link GcLog}), beside its data folder; deleted once the JVM ended. */
    private final Path gcLog;

    private OwnJvmBroker(ChildBroker child, Target target, Path gcLog) throws IOException, InterruptedException {
        this.child = child;
        this.target = target;
        this.gcLog = gcLog;
        this.cf = target.connectionFactory(child.url);
        this.storedBytesMethod = child.ask("method", "METHOD");
    }

    /**
     * @param maxHeap    the broker JVM's {@code -Xmx}, or null for the JVM's default
     * @param jvmOptions more options for the broker JVM (a flight recording, a collector)
     */
    static OwnJvmBroker start(
            Target target, Path dir, long tunedBufferTimeoutNanos, String maxHeap, List<String> jvmOptions)
            throws Exception {
        if (target.isCluster()) {
            throw new IllegalArgumentException(target.id() + " runs its three nodes in the load tool's JVM only");
        }
        Path gcLog = dir.resolveSibling(dir.getFileName() + "-gc.log");
        List<String> options = new java.util.ArrayList<>(jvmOptions);
        options.add(GcLog.option(gcLog));
        ChildBroker child = ChildBroker.start(target, dir, tunedBufferTimeoutNanos, maxHeap, options, 120);
        try {
            return new OwnJvmBroker(child, target, gcLog);
        } catch (IOException | InterruptedException | RuntimeException e) {
            child.close();
            java.nio.file.Files.deleteIfExists(gcLog);
            throw e;
        }
    }

    @Override
    public ConnectionFactory connectionFactory() {
        return cf;
    }

    @Override
    public String url() {
        return child.url;
    }

    @Override
    public String queueName(String base, String partitaOptions) {
        String options = partitaOptions == null || partitaOptions.isEmpty() ? "-" : partitaOptions;
        return ask("queue " + base + " " + options, "QUEUE");
    }

    @Override
    public long storedBytes() {
        String answer = ask("stored", "STORED");
        int space = answer.indexOf(' ');
        return Long.parseLong(space < 0 ? answer : answer.substring(0, space));
    }

    @Override
    public String storedBytesMethod() {
        return storedBytesMethod;
    }

    @Override
    public String storeDetails() {
        String answer = ask("stored", "STORED");
        int space = answer.indexOf(' ');
        return space < 0 ? "" : answer.substring(space + 1);
    }

    /** Starts a second broker in this broker's JVM for a warm-up load; closing it stops and deletes it. */
    WarmUpBroker startWarmUpBroker() {
        String url = ask("warm-up-start", "WARMUP");
        return WarmUpBroker.beside(this, url, target.connectionFactory(url));
    }

    void stopWarmUpBroker() {
        ask("warm-up-stop", "WARMUPSTOPPED");
    }

    /** Milliseconds the broker JVM's JIT compilers have spent so far ({@link JitQuiet#compilationMillis()}). */
    long compilationMillis() {
        return Long.parseLong(ask("jit-ms", "JITMS"));
    }

    @Override
    public CommitFigures commitFigures() {
        String answer = ask("commits", "COMMITS");
        return answer.equals("-") ? null : CommitFigures.parse(answer);
    }

    /** The broker JVM's deoptimizations between two moments ({@link Deoptimizations}). */
    String deoptimizations(java.time.Instant from, java.time.Instant to) {
        return ask("deopts " + from + " " + to, "DEOPTS");
    }

    /** The broker JVM's uptime in ms: the time base of its GC log, where a run begins ({@link #gcSince}). */
    long uptimeMillis() {
        return Long.parseLong(ask("uptime", "UPTIME"));
    }

    /**
     * The broker JVM's collections from {@code uptimeMillis} ({@link #uptimeMillis()}) on, read from its
     * GC log while it runs (the JVM writes each line through).
     */
    GcLog.Summary gcSince(long uptimeMillis) {
        try {
            return GcLog.since(gcLog, uptimeMillis);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Heap the broker's JVM holds once a full collection ran in it (its {@code heap} answer, {@link BrokerProcess}). */
    long heapAfterGc() {
        try {
            return child.heapUsed();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted asking the broker process", e);
        }
    }

    /** The broker JVM's process id, whose resident set {@link BrokerMemory} reads. */
    long pid() {
        return child.pid();
    }

    /** Waits until the broker JVM's JIT compilers are idle ({@link JitQuiet}); returns how long that took, in ms. */
    long awaitJitQuiet() {
        return Long.parseLong(ask("jit", "JIT"));
    }

    private String ask(String command, String answer) {
        try {
            return child.ask(command, answer);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted asking the broker process", e);
        }
    }

    @Override
    public void close() {
        try {
            child.stop();
        } catch (IOException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
        } finally {
            child.close();
            try {
                java.nio.file.Files.deleteIfExists(gcLog);
            } catch (IOException ignored) {
                // left in the work folder, which the tool deletes when it made it
            }
        }
    }
}
