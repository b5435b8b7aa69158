package org.partita.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A {@link BrokerProcess} started and driven from the load tool's JVM. */
final class ChildBroker implements AutoCloseable {
    private final JvmProcess process;

    final long startMillis;
    final String url;

    private ChildBroker(JvmProcess process, long startMillis, String url) {
        this.process = process;
        this.startMillis = startMillis;
        this.url = url;
    }

    /**
     * Starts the broker in a JVM with {@code maxHeap} (for example {@code 512m}; null for the JVM's
     * default) and waits until it serves.
     */
    static ChildBroker start(
            Target target, Path data, long tunedBufferTimeoutNanos, String maxHeap, long timeoutSeconds)
            throws IOException, InterruptedException {
        return start(target, data, tunedBufferTimeoutNanos, maxHeap, List.of(), timeoutSeconds);
    }

    /** As {@link #start(Target, Path, long, String, long)}, with more options for the broker's JVM. */
    static ChildBroker start(
            Target target,
            Path data,
            long tunedBufferTimeoutNanos,
            String maxHeap,
            List<String> jvmOptions,
            long timeoutSeconds)
            throws IOException, InterruptedException {
        List<String> jvm = new ArrayList<>();
        if (maxHeap != null) {
            jvm.add("-Xmx" + maxHeap);
        }
        jvm.addAll(jvmOptions);
        JvmProcess p = JvmProcess.start(
                BrokerProcess.class.getName(),
                jvm,
                List.of(target.id(), data.toString(), Long.toString(tunedBufferTimeoutNanos)),
                ProcessBuilder.Redirect.INHERIT);
        try {
            String[] parts = p.awaitLine("READY", timeoutSeconds).split(" ");
            return new ChildBroker(p, Long.parseLong(parts[1]), parts[2]);
        } catch (IOException | InterruptedException | RuntimeException e) {
            p.close();
            throw e;
        }
    }

    /** Heap in use after a full GC in the broker's JVM. */
    long heapUsed() throws InterruptedException, IOException {
        process.send("heap");
        return Long.parseLong(process.awaitLine("HEAP", 60).split(" ")[1]);
    }

    /** The broker JVM's process id. */
    long pid() {
        return process.pid();
    }

    /** Asks the broker process one question and returns what follows the answer's word. */
    String ask(String command, String answer) throws InterruptedException, IOException {
        process.send(command);
        String line = process.awaitLine(answer, 60);
        return line.length() > answer.length() ? line.substring(answer.length() + 1) : "";
    }

    /** Stops the broker cleanly and waits for its JVM to end. */
    Stop stop() throws InterruptedException, IOException {
        long start = System.nanoTime();
        process.send("stop");
        long requestedAtUptime =
                Long.parseLong(process.awaitLine("STOPPING", 60).split(" ")[1]);
        process.awaitLine("STOPPED", 120);
        if (!process.waitFor(30)) {
            throw new IOException("the broker JVM had not ended 30 s after stopping its broker");
        }
        return new Stop(requestedAtUptime, (System.nanoTime() - start) / 1_000_000);
    }

    /**
     * @param requestedAtUptime the broker JVM's uptime in ms when it read the stop request
     * @param millis            from the request to the JVM's end
     */
    record Stop(long requestedAtUptime, long millis) {}

    boolean alive() {
        return process.alive();
    }

    @Override
    public void close() {
        process.close();
    }
}
