package org.partita.boot;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A Partita node started from broker-node's jar in its own JVM, as the README's first command
 * starts one, on a free loopback port with its data in a temporary folder. The node runs on its own
 * Netty 4.2; the test's JVM has only what the Boot application has (Netty 4.1 under Boot 3, 4.2
 * under Boot 4).
 */
final class NodeProcess implements AutoCloseable {
    private final Process process;
    private final Path dir;
    private final int port;

    private NodeProcess(Process process, Path dir, int port) {
        this.process = process;
        this.dir = dir;
        this.port = port;
    }

    static NodeProcess start() throws Exception {
        return start(null, null, "");
    }

    /** A node with these lines in its configuration file ({@code tls.keyStore = ...}, say). */
    static NodeProcess startWithConfig(String config) throws Exception {
        return start(null, null, config);
    }

    /**
     * A node that requires every connection to authenticate, with one user in its users file (made by
     * the node's own {@code --hash-password}, as docs/security.md says).
     */
    static NodeProcess startWithUser(String user, String password) throws Exception {
        return start(user, password, "");
    }

    private static NodeProcess start(String user, String password, String extraConfig) throws Exception {
        Path jar = nodeJar();
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path dir = Files.createTempDirectory("partita-boot-it");
        Path out = dir.resolve("node.log");
        List<String> command = new ArrayList<>(List.of(java(), "-Xmx256m", "-jar", jar.toAbsolutePath().toString(),
                "--port", Integer.toString(port), "--data", dir.resolve("data").toString()));
        String config = extraConfig;
        if (user != null) {
            Path users = dir.resolve("users.properties");
            Files.writeString(users, hashLine(jar, user, password) + "\n");
            config += "\nusers = " + users.toAbsolutePath() + "\n";
        }
        if (!config.isBlank()) {
            Path file = dir.resolve("node.conf");
            Files.writeString(file, config + "\n");
            command.addAll(List.of("--config", file.toString()));
        }
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        try {
            await("the node's ready line")
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> !p.isAlive() || Files.readString(out).contains("ready at"));
        } catch (ConditionTimeoutException e) {
            // told below, with the node's output
        }
        if (!Files.readString(out).contains("ready at")) {
            p.destroyForcibly();
            throw new IllegalStateException("the node did not start: " + Files.readString(out));
        }
        return new NodeProcess(p, dir, port);
    }

    private static Path nodeJar() {
        Path jar = Path.of(System.getProperty("partita.nodeJar", "../broker-node/target/partita-node.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("node jar " + jar.toAbsolutePath() + " is missing: build broker-node first (mvn -B verify builds it)");
        }
        return jar;
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The users file line for the user: {@code partita-node --hash-password user}, the password on its standard input. */
    private static String hashLine(Path jar, String user, String password) throws Exception {
        Process p = new ProcessBuilder(java(), "-jar", jar.toAbsolutePath().toString(), "--hash-password", user).start();
        try (var in = p.getOutputStream()) {
            in.write((password + "\n").getBytes(StandardCharsets.UTF_8));
        }
        String line = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0 || !line.startsWith(user + " = ")) {
            p.destroyForcibly();
            throw new IllegalStateException("--hash-password failed: " + line
                    + new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        }
        return line;
    }

    String url() {
        return "tcp://127.0.0.1:" + port;
    }

    /** The node's URL for a client that speaks TLS to it (a node with {@code tls.keyStore}). */
    String sslUrl() {
        return "ssl://127.0.0.1:" + port;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            List<Path> all = files.sorted(Comparator.reverseOrder()).toList();
            for (Path f : all) {
                Files.deleteIfExists(f);
            }
        }
    }
}
