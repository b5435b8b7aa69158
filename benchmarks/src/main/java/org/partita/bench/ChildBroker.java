package org.partita.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A {@link BrokerProcess} started and driven from the load tool's JVM. */
final class ChildBroker implements AutoCloseable {
    private final Process process;
    private final PrintStream commands;
    /** The broker's stdout, line by line, filled by a reader thread. */
    private final BlockingQueue<String> lines;

    final long startMillis;
    final String url;

    private ChildBroker(Process process, long startMillis, String url, BlockingQueue<String> lines) {
        this.process = process;
        this.commands = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        this.startMillis = startMillis;
        this.url = url;
        this.lines = lines;
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
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java));
        if (maxHeap != null) {
            cmd.add("-Xmx" + maxHeap);
        }
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of(
                "-XX:+ExitOnOutOfMemoryError",
                "-cp",
                System.getProperty("java.class.path"),
                BrokerProcess.class.getName(),
                target.id(),
                data.toString(),
                Long.toString(tunedBufferTimeoutNanos)));
        Process p = new ProcessBuilder(cmd)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader r =
                            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                        for (String line; (line = r.readLine()) != null; ) {
                            lines.add(line);
                        }
                    } catch (IOException ignored) {
                        // the process ended
                    }
                    lines.add("EXITED");
                },
                "child-broker-output");
        reader.setDaemon(true);
        reader.start();
        String ready = awaitLine(lines, "READY", timeoutSeconds, p);
        String[] parts = ready.split(" ");
        return new ChildBroker(p, Long.parseLong(parts[1]), parts[2], lines);
    }

    /** Heap in use after a full GC in the broker's JVM. */
    long heapUsed() throws InterruptedException, IOException {
        commands.println("heap");
        return Long.parseLong(awaitLine(lines, "HEAP", 60, process).split(" ")[1]);
    }

    /** Asks the broker process one question and returns what follows the answer's word. */
    String ask(String command, String answer) throws InterruptedException, IOException {
        commands.println(command);
        String line = awaitLine(lines, answer, 60, process);
        return line.length() > answer.length() ? line.substring(answer.length() + 1) : "";
    }

    /** Stops the broker cleanly and waits for its JVM to end. */
    Stop stop() throws InterruptedException, IOException {
        long start = System.nanoTime();
        commands.println("stop");
        long requestedAtUptime =
                Long.parseLong(awaitLine(lines, "STOPPING", 60, process).split(" ")[1]);
        awaitLine(lines, "STOPPED", 120, process);
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
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
        return process.isAlive();
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }

    private static String awaitLine(BlockingQueue<String> lines, String prefix, long timeoutSeconds, Process p)
            throws InterruptedException, IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(200, TimeUnit.MILLISECONDS);
            if (line == null) {
                continue;
            }
            if (line.startsWith(prefix)) {
                return line;
            }
            if (line.equals("EXITED")) {
                throw new IOException("the broker process ended (exit " + p.waitFor() + ") before printing " + prefix);
            }
        }
        throw new IOException("no " + prefix + " from the broker process within " + timeoutSeconds + " s");
    }
}
