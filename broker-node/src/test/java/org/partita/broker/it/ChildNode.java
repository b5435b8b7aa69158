package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * A node started the way an operator starts one: {@code NodeMain} in its own JVM, with the test's
 * class path. Its stdout and stderr go to files in {@code logDir}; the URL is taken from the
 * "Partita node NAME ready at tcp://HOST:PORT" line. Lets a test kill the node with SIGKILL or stop it
 * with SIGTERM, which an in-process node cannot show.
 */
public final class ChildNode implements AutoCloseable {
    static final Pattern READY = Pattern.compile("Partita node (\\S+) ready at (tcp://[^\\s:]+:(\\d+))");
    static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final Process process;
    private final Path out;
    private final Path err;
    private String url;
    private String nodeName;
    private int port;

    private ChildNode(Process process, Path out, Path err) {
        this.process = process;
        this.out = out;
        this.err = err;
    }

    /** Starts {@code NodeMain --data dataDir --port port} and waits until it says it is ready. */
    public static ChildNode start(Path dataDir, int port, Path logDir) throws IOException {
        return startWithArgs(logDir, "--data", dataDir.toString(), "--port", Integer.toString(port))
                .awaitReady();
    }

    /** Starts {@code NodeMain} with these arguments; does not wait. */
    public static ChildNode startWithArgs(Path logDir, String... args) throws IOException {
        Files.createDirectories(logDir);
        Path out = logDir.resolve("stdout.txt");
        Path err = logDir.resolve("stderr.txt");
        ProcessBuilder pb =
                new ProcessBuilder(command(args)).redirectOutput(out.toFile()).redirectError(err.toFile());
        return new ChildNode(pb.start(), out, err);
    }

    /** Like {@link #startWithArgs}, with the process's umask set first (such as {@code 000}: everything readable by all). */
    public static ChildNode startUnderUmask(String umask, Path logDir, String... args) throws IOException {
        Files.createDirectories(logDir);
        Path out = logDir.resolve("stdout.txt");
        Path err = logDir.resolve("stderr.txt");
        List<String> cmd = new ArrayList<>(List.of("sh", "-c", "umask " + umask + " && exec \"$@\"", "sh"));
        cmd.addAll(command(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
        return new ChildNode(pb.start(), out, err);
    }

    /** Starts {@code NodeMain} in a JVM with {@code jvmArgs} after the usual ones (a later -Xmx wins); does not wait. */
    public static ChildNode startWithJvmArgs(Path logDir, List<String> jvmArgs, String... args) throws IOException {
        return startMain(logDir, jvmArgs, "org.partita.broker.main.NodeMain", args);
    }

    /** Starts {@code mainClass}, which prints the ready line as NodeMain does, in a JVM with {@code jvmArgs} after the usual ones; does not wait. */
    static ChildNode startMain(Path logDir, List<String> jvmArgs, String mainClass, String... args) throws IOException {
        List<String> cmd = javaCommand(mainClass, args);
        cmd.addAll(cmd.indexOf("-cp"), jvmArgs);
        return startCommand(logDir, cmd);
    }

    /**
     * Starts {@code NodeMain} in a JVM of {@code maxHeap} (such as {@code 128m}) with the JVM's own
     * collector, G1, as an operator runs a node: the heap its budgets are shares of, and the collector
     * whose regions decide what a large payload costs. Does not wait.
     */
    public static ChildNode startInHeap(Path logDir, String maxHeap, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + maxHeap,
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                "org.partita.broker.main.NodeMain"));
        cmd.addAll(List.of(args));
        return startCommand(logDir, cmd);
    }

    private static ChildNode startCommand(Path logDir, List<String> cmd) throws IOException {
        Files.createDirectories(logDir);
        Path out = logDir.resolve("stdout.txt");
        Path err = logDir.resolve("stderr.txt");
        Process p = new ProcessBuilder(cmd)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        return new ChildNode(p, out, err);
    }

    static List<String> command(String... args) {
        return javaCommand("org.partita.broker.main.NodeMain", args);
    }

    /** A JVM like a node's, with the test's class path, running {@code mainClass}. */
    static List<String> javaCommand(String mainClass, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx256m");
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(mainClass);
        cmd.addAll(List.of(args));
        return cmd;
    }

    public ChildNode awaitReady() {
        await("node " + process.pid() + " to print its ready line")
                .atMost(START_TIMEOUT)
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    if (!process.isAlive()) {
                        fail("the node exited with code " + process.exitValue() + " before it was ready; stderr:\n"
                                + stderr());
                    }
                    Matcher m = READY.matcher(stdout());
                    if (!m.find()) {
                        return false;
                    }
                    nodeName = m.group(1);
                    url = m.group(2);
                    port = Integer.parseInt(m.group(3));
                    return true;
                });
        return this;
    }

    public String url() {
        return url;
    }

    public int port() {
        return port;
    }

    public String nodeName() {
        return nodeName;
    }

    public long pid() {
        return process.pid();
    }

    public Process process() {
        return process;
    }

    public PartitaConnectionFactory factory() {
        return new PartitaConnectionFactory(url);
    }

    public String stdout() {
        return read(out);
    }

    public String stderr() {
        return read(err);
    }

    private static String read(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SIGKILL: no shutdown hook, no H2 close, nothing flushed that was not already on disk. */
    public int kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            fail("node " + process.pid() + " still alive 30 s after SIGKILL");
        }
        return process.exitValue();
    }

    /** SIGSTOP: the process stays alive, its sockets open, and answers nothing until {@link #resume}. */
    public void pause() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** SIGCONT after {@link #pause}. */
    public void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, String.valueOf(process.pid()))
                .inheritIO()
                .start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            fail("kill -" + name + " " + process.pid() + " failed");
        }
    }

    /** Sends SIGTERM and waits at most {@code bound} for the exit; returns the exit code. */
    public int terminate(Duration bound) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            fail("node " + process.pid() + " did not exit within " + bound + " of SIGTERM; stderr:\n" + stderr());
        }
        return process.exitValue();
    }

    /** Waits for the process to exit by itself; returns the exit code. */
    public int awaitExit(Duration bound) throws InterruptedException {
        if (!process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            fail("process " + process.pid() + " did not exit within " + bound + "; stdout:\n" + stdout() + "\nstderr:\n"
                    + stderr());
        }
        return process.exitValue();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
