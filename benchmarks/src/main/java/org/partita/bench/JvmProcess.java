package org.partita.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A JVM started with the load tool's class path running one main class, its stdout read line by line
 * by a thread of its own (so that a chatty process never blocks on a full pipe), its stdin open for
 * commands. What every broker the tool runs outside its own JVM runs in.
 */
final class JvmProcess implements AutoCloseable {
    /** The line added once the process's stdout ended. */
    private static final String EXITED = "EXITED";

    /**
     * Processes not yet closed, killed if the tool's JVM ends first (a run stopped by a time limit), so
     * that no broker outlives the tool and weighs on the next measurement.
     */
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly), "jvm-process-reaper"));
    }

    private final Process process;
    private final PrintStream input;
    private final BlockingQueue<String> lines;

    private JvmProcess(Process process, BlockingQueue<String> lines) {
        this.process = process;
        this.input = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        this.lines = lines;
    }

    /** The process's id: where {@code /proc} tells its resident set ({@link BrokerMemory}). */
    long pid() {
        return process.pid();
    }

    /**
     * Starts {@code mainClass} with {@code args} in a JVM with {@code jvmOptions}.
     *
     * @param stderr where the process's stderr goes (its log): the tool's own, or a file
     */
    static JvmProcess start(
            String mainClass, List<String> jvmOptions, List<String> args, ProcessBuilder.Redirect stderr)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-XX:+ExitOnOutOfMemoryError", "-cp", System.getProperty("java.class.path"), mainClass));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectError(stderr).start();
        LIVE.add(p);
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
                    lines.add(EXITED);
                },
                "jvm-process-output-" + p.pid());
        reader.setDaemon(true);
        reader.start();
        return new JvmProcess(p, lines);
    }

    /** Writes one command line to the process's stdin. */
    void send(String line) {
        input.println(line);
    }

    /** Waits for the next line starting with {@code prefix}, skipping others; fails if the process ends first. */
    String awaitLine(String prefix, long timeoutSeconds) throws InterruptedException, IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(200, TimeUnit.MILLISECONDS);
            if (line == null) {
                continue;
            }
            if (line.startsWith(prefix)) {
                return line;
            }
            if (line.equals(EXITED)) {
                throw new IOException("the process ended (exit " + process.waitFor() + ") before printing " + prefix);
            }
        }
        throw new IOException("no " + prefix + " from the process within " + timeoutSeconds + " s");
    }

    boolean alive() {
        return process.isAlive();
    }

    boolean waitFor(long seconds) throws InterruptedException {
        return process.waitFor(seconds, TimeUnit.SECONDS);
    }

    /** SIGKILL, as a crash: nothing of the JVM runs after it (no shutdown hook, no clean close). */
    void kill() throws InterruptedException, IOException {
        close();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IOException("process " + process.pid() + " still alive 30 s after SIGKILL");
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
        LIVE.remove(process);
    }
}
