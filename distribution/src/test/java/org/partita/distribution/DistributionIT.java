package org.partita.distribution;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.jms.Connection;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * The distribution as an operator gets it: {@code target/partita-VERSION-bin.tar.gz} unpacked with
 * {@code tar}, a node started with {@code bin/partita-node} and the shipped {@code conf/node.conf},
 * messages sent and received through the client library, {@code bin/partita} run against the node,
 * and SIGTERM. Runs after {@code package} (failsafe), where the assembly builds the archive.
 */
@Tag("slow")
@Timeout(300)
class DistributionIT {
    private static final Pattern READY = Pattern.compile("Partita node (\\S+) ready at (tcp://([^\\s:]+):(\\d+))");
    private static final Duration START_BOUND = Duration.ofSeconds(60);
    private static final Duration STOP_BOUND = Duration.ofSeconds(60);
    private static final Duration COMMAND_BOUND = Duration.ofSeconds(60);
    /** What a JVM ended by SIGTERM exits with (128 + 15), the unit's SuccessExitStatus. */
    private static final int SIGTERM_EXIT = 143;
    /** The unit's heap: the memory budgets conf/node.conf shows are those of -Xmx512m. */
    private static final String NODE_HEAP = "-Xmx512m";

    private static final String JAVA =
            Path.of(System.getProperty("java.home"), "bin", "java").toString();

    @TempDir
    Path tmp;

    @Test
    void aNodeStartedWithBinPartitaNodeSendsReceivesAndStopsOnSigterm() throws Exception {
        Path home = unpack();
        for (String file : List.of(
                "bin/partita-node",
                "bin/partita",
                "conf/node.conf",
                "conf/logback.xml",
                "lib/partita-node.jar",
                "lib/partita-cli.jar",
                "systemd/partita-node.service",
                "grafana/partita-dashboard.json",
                "README.txt")) {
            assertTrue(Files.isRegularFile(home.resolve(file)), file + " is in the distribution");
        }
        assertTrue(Files.isExecutable(home.resolve("bin/partita-node")), "bin/partita-node is executable");
        assertTrue(Files.isExecutable(home.resolve("bin/partita")), "bin/partita is executable");

        Path data = tmp.resolve("node-data");
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        try (Node node = Node.start(
                home.resolve("bin/partita-node"),
                elsewhere,
                Map.of("JAVA", JAVA, "JAVA_OPTS", NODE_HEAP + " -XX:+UseSerialGC"),
                "--port",
                "0",
                "--data",
                data.toString())) {
            node.awaitReady();
            assertEquals("127.0.0.1", node.host(), "the shipped node.conf keeps the node on loopback");
            assertTrue(
                    node.stderr().contains("config file " + home.resolve("conf/node.conf")),
                    "the node read the shipped conf/node.conf:\n" + node.stderr());
            assertTrue(
                    node.stderr().contains("with data in " + data),
                    "--data on the command line wins over the config file:\n" + node.stderr());

            List<String> jvm = node.commandLine();
            assertTrue(jvm.contains("-XX:+ExitOnOutOfMemoryError"), "a node out of memory exits: " + jvm);
            assertTrue(
                    jvm.contains("-Dlogback.configurationFile=" + home.resolve("conf/logback.xml")),
                    "the log configuration of conf/: " + jvm);
            assertTrue(jvm.contains(NODE_HEAP) && jvm.contains("-XX:+UseSerialGC"), "JAVA_OPTS: " + jvm);
            assertEquals(realPath(JAVA), realPath(jvm.get(0)), "the java of JAVA");

            PartitaConnectionFactory cf = new PartitaConnectionFactory(node.url());
            try (Connection connection = cf.createConnection()) {
                Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                Queue queue = session.createQueue("distribution-check");
                session.createProducer(queue).send(session.createTextMessage("hello from the distribution"));
                connection.start();
                TextMessage received =
                        (TextMessage) session.createConsumer(queue).receive(10_000);
                assertNotNull(received, "the message sent came back");
                assertEquals("hello from the distribution", received.getText());
            }

            Exit list = run(
                    List.of(home.resolve("bin/partita").toString(), "queue", "list", "--json", "--url", node.url()),
                    elsewhere,
                    Map.of("JAVA", JAVA));
            assertEquals(0, list.status(), list.stderr());
            assertTrue(list.stdout().contains("\"name\": \"distribution-check\""), list.stdout());

            assertEquals(SIGTERM_EXIT, node.terminate(), "exit status after SIGTERM; stderr:\n" + node.stderr());
            assertTrue(
                    node.stderr().contains("Partita node node1 stopped"),
                    "the JVM itself got SIGTERM and stopped the node cleanly:\n" + node.stderr());
        }
        assertTrue(Files.isRegularFile(data.resolve("partita.mv.db")), "the data went to --data");
        assertFalse(Files.exists(home.resolve("data")), "nothing in the distribution's data/ with --data");
        assertFalse(Files.exists(elsewhere.resolve("data")), "nothing where the script was started");
    }

    @Test
    void theShippedConfigKeepsTheDataInTheDistributionFolderWhereverTheNodeIsStartedFrom() throws Exception {
        Path home = unpack();
        // the scripts linked from another folder, relative links as ln -s makes them
        Path links = Files.createDirectories(tmp.resolve("links"));
        for (String script : List.of("partita-node", "partita")) {
            Files.createSymbolicLink(
                    links.resolve(script), links.relativize(home.resolve("bin").resolve(script)));
        }
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        // no JAVA: the java of JAVA_HOME
        Map<String, String> env = Map.of("JAVA_HOME", System.getProperty("java.home"), "JAVA_OPTS", NODE_HEAP);
        try (Node node = Node.start(links.resolve("partita-node"), elsewhere, env, "--port", "0")) {
            node.awaitReady();
            assertEquals("127.0.0.1", node.host());
            assertTrue(
                    node.stderr().contains("config file " + home.resolve("conf/node.conf")),
                    "the link found the distribution's conf/node.conf:\n" + node.stderr());
            assertTrue(
                    node.stderr().contains("with data in " + home.resolve("data")),
                    "data = data (the default) is the distribution's data/:\n" + node.stderr());
            assertEquals(realPath(JAVA), realPath(node.commandLine().get(0)), "the java of JAVA_HOME");

            Exit list = run(
                    List.of(links.resolve("partita").toString(), "queue", "list", "--url", node.url()), elsewhere, env);
            assertEquals(0, list.status(), "bin/partita through a link: " + list.stderr());

            assertEquals(SIGTERM_EXIT, node.terminate(), "stderr:\n" + node.stderr());
            assertTrue(node.stderr().contains("Partita node node1 stopped"), node.stderr());
        }
        assertTrue(Files.isRegularFile(home.resolve("data/partita.mv.db")), "the node's data in the distribution");
        assertFalse(Files.exists(elsewhere.resolve("data")), "nothing where the script was started");
    }

    /**
     * Every field the node knows (as its refusal of an unknown one lists them) is in conf/node.conf,
     * commented out, and the file with every default uncommented starts a node: no field is missing
     * or misspelt, no default shown is refused.
     */
    @Test
    void nodeConfShowsEveryFieldTheNodeKnowsWithDefaultsItAccepts() throws Exception {
        Path home = unpack();
        List<String> shipped = Files.readAllLines(home.resolve("conf/node.conf"), StandardCharsets.UTF_8);
        for (String line : shipped) {
            assertTrue(line.isBlank() || line.startsWith("#"), "as shipped, every line is a comment: " + line);
        }

        // a config file named relative to where the script is started, though the node runs in the distribution
        Path caller = Files.createDirectories(tmp.resolve("caller")).toRealPath();
        Files.writeString(caller.resolve("bad.conf"), "bogus = 1\n");
        Exit refused = run(
                List.of(home.resolve("bin/partita-node").toString(), "--config", "bad.conf"),
                caller,
                Map.of("JAVA", JAVA, "JAVA_OPTS", NODE_HEAP));
        assertEquals(2, refused.status(), "a config error: " + refused.stderr());
        assertTrue(
                refused.stderr().contains(caller.resolve("bad.conf") + ":1: unknown field 'bogus'"),
                "--config relative to the caller's folder: " + refused.stderr());
        Matcher known = Pattern.compile("known: (.*)").matcher(refused.stderr());
        assertTrue(known.find(), refused.stderr());
        List<String> fields = Arrays.stream(known.group(1).strip().split(",\\s*"))
                .map(f -> f.startsWith("queue.<") ? "queue." : f + " =")
                .toList();
        assertTrue(fields.size() > 40, "the node's fields: " + fields);
        for (String field : fields) {
            assertTrue(
                    shipped.stream().anyMatch(l -> l.startsWith("#" + field)),
                    "conf/node.conf shows field '" + field + "' (as #" + field + ")");
        }

        // every default shown, uncommented; TLS, cluster and users need files and peers of their own
        List<String> uncommented = shipped.stream()
                .filter(l -> l.matches("#[a-zA-Z][\\w.]* = .*"))
                .map(l -> l.substring(1))
                .filter(l -> !l.startsWith("tls.")
                        && !l.startsWith("cluster.")
                        && !l.startsWith("users ")
                        && !l.startsWith("roles "))
                .toList();
        assertTrue(uncommented.size() > 30, "fields set: " + uncommented);
        Path everyDefault = caller.resolve("every-default.conf");
        Files.write(everyDefault, uncommented, StandardCharsets.UTF_8);
        Path data = tmp.resolve("node-data");
        // G1, the JVM's own collector, whose heap is all of -Xmx: the values shown are its shares
        try (Node node = Node.start(
                home.resolve("bin/partita-node"),
                caller,
                Map.of("JAVA", JAVA, "JAVA_OPTS", NODE_HEAP + " -XX:+UseG1GC"),
                "--config=every-default.conf",
                "--port",
                "0",
                "--metrics-port",
                "0",
                "--data",
                data.toString())) {
            node.awaitReady();
            assertTrue(node.stderr().contains("config file " + everyDefault), node.stderr());
            Exit list = run(
                    List.of(home.resolve("bin/partita").toString(), "queue", "list", "--json", "--url", node.url()),
                    caller,
                    Map.of("JAVA", JAVA));
            assertEquals(0, list.status(), list.stderr());
            assertTrue(
                    list.stdout().contains("\"name\": \"orders\"")
                            && list.stdout().contains("\"partitions\": 8"),
                    "the declared queue of node.conf: " + list.stdout());
            assertEquals(SIGTERM_EXIT, node.terminate(), "stderr:\n" + node.stderr());
        }
    }

    /** docs/operations.md shows the unit the distribution ships, line for line. */
    @Test
    void theOperationsGuideShowsTheShippedUnit() throws Exception {
        Path home = unpack();
        String guide = Files.readString(Path.of("..", "docs", "operations.md"), StandardCharsets.UTF_8);
        String unit = Files.readString(home.resolve("systemd/partita-node.service"), StandardCharsets.UTF_8);
        assertTrue(
                guide.contains("```ini\n" + unit + "```\n"),
                "docs/operations.md has systemd/partita-node.service as its unit:\n" + unit);
    }

    private static Path realPath(String file) throws IOException {
        return Path.of(file).toRealPath();
    }

    /** The archive unpacked with tar into a folder of its own; the distribution's folder, its real path. */
    private Path unpack() throws Exception {
        Path archive = Path.of(System.getProperty("partita.distribution"));
        assertTrue(Files.isRegularFile(archive), archive + " is built at package: run mvn verify");
        Path into = Files.createDirectories(tmp.resolve("unpacked"));
        Exit tar = run(List.of("tar", "xzf", archive.toString(), "-C", into.toString()), into, Map.of());
        assertEquals(0, tar.status(), tar.stderr());
        try (Stream<Path> top = Files.list(into)) {
            assertEquals(
                    List.of(into.resolve("partita-" + System.getProperty("partita.version"))),
                    top.toList(),
                    "one top folder, partita-VERSION");
        }
        return into.resolve("partita-" + System.getProperty("partita.version")).toRealPath();
    }

    private record Exit(int status, String stdout, String stderr) {}

    /** Runs a command to its end, at most {@link #COMMAND_BOUND}. */
    private Exit run(List<String> command, Path dir, Map<String, String> env) throws Exception {
        Path out = Files.createTempFile(tmp, "out", ".txt");
        Path err = Files.createTempFile(tmp, "err", ".txt");
        ProcessBuilder pb = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        environment(pb, env);
        Process p = pb.start();
        try {
            assertTrue(
                    p.waitFor(COMMAND_BOUND.toMillis(), TimeUnit.MILLISECONDS),
                    command + " ended within " + COMMAND_BOUND + "; stderr:\n" + Files.readString(err));
            return new Exit(p.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            p.destroyForcibly();
        }
    }

    /** The scripts' environment as the test gives it, not as Maven's JVM happened to have it. */
    private static void environment(ProcessBuilder pb, Map<String, String> env) {
        pb.environment().keySet().removeAll(List.of("JAVA", "JAVA_HOME", "JAVA_OPTS", "PARTITA_CLI_OPTS"));
        pb.environment().putAll(env);
    }

    /** A node started by a script, its output in files; {@link #close} kills whatever is still running. */
    private static final class Node implements AutoCloseable {
        private final Process process;
        private final Path out;
        private final Path err;
        private Matcher ready;

        private Node(Process process, Path out, Path err) {
            this.process = process;
            this.out = out;
            this.err = err;
        }

        static Node start(Path script, Path dir, Map<String, String> env, String... args) throws IOException {
            Path logs = Files.createTempDirectory(dir.getParent(), "node");
            Path out = logs.resolve("stdout.txt");
            Path err = logs.resolve("stderr.txt");
            List<String> command = new ArrayList<>(List.of(script.toString()));
            command.addAll(List.of(args));
            ProcessBuilder pb = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            environment(pb, env);
            return new Node(pb.start(), out, err);
        }

        void awaitReady() {
            await("the node's ready line")
                    .atMost(START_BOUND)
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        Matcher m = READY.matcher(stdout());
                        if (m.find()) {
                            ready = m;
                            return true;
                        }
                        if (!process.isAlive()) {
                            fail("the node exited with status " + process.exitValue()
                                    + " before it was ready; stderr:\n" + stderr());
                        }
                        return false;
                    });
        }

        String url() {
            return ready.group(2);
        }

        String host() {
            return ready.group(3);
        }

        /** The running process's command line: the JVM's, since the script execs it. */
        List<String> commandLine() {
            ProcessHandle.Info info = process.info();
            List<String> line = new ArrayList<>();
            line.add(info.command().orElseThrow(() -> new AssertionError("no command for " + process.pid())));
            line.addAll(List.of(info.arguments().orElseThrow(() -> new AssertionError("no arguments"))));
            return line;
        }

        /** SIGTERM, then the exit status, within {@link #STOP_BOUND}. */
        int terminate() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(STOP_BOUND.toMillis(), TimeUnit.MILLISECONDS)) {
                fail("the node did not exit within " + STOP_BOUND + " of SIGTERM; stderr:\n" + stderr());
            }
            return process.exitValue();
        }

        String stdout() {
            return read(out);
        }

        String stderr() {
            return read(err);
        }

        private static String read(Path p) {
            try {
                return Files.exists(p) ? Files.readString(p) : "";
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void close() throws InterruptedException {
            if (process.isAlive()) {
                process.destroyForcibly();
                process.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }
}
