package org.partita.boot;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A Partita node started from broker-node's jar in its own JVM, as the README's first command
 * starts one, on a free loopback port with its data in a temporary folder. The node runs on its own
 * Netty 4.2; the test's JVM has only what the Boot application has, Netty 4.1.
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
        Path jar = Path.of(System.getProperty("partita.nodeJar", "../broker-node/target/partita-node.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("node jar " + jar.toAbsolutePath() + " is missing: build broker-node first (mvn -B verify builds it)");
        }
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path dir = Files.createTempDirectory("partita-boot-it");
        Path out = dir.resolve("node.log");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-jar", jar.toAbsolutePath().toString(), "--port", Integer.toString(port), "--data", dir.resolve("data").toString())
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!Files.readString(out).contains("ready at")) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                p.destroyForcibly();
                throw new IllegalStateException("the node did not start: " + Files.readString(out));
            }
            Thread.sleep(50);
        }
        return new NodeProcess(p, dir, port);
    }

    String url() {
        return "tcp://127.0.0.1:" + port;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        process.destroy();
        if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
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
