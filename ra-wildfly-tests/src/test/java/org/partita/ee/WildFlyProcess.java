package org.partita.ee;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;

/**
 * A WildFly of its own for a test that kills it: the distribution the build unpacked, run in its
 * own process on a server folder of its own (configuration copied, deployments put in its
 * {@code deployments} folder for the scanner), on loopback with its own port offset and
 * transaction node identifier, so that it shares nothing with the Arquillian-managed server. A
 * kill is a SIGKILL of the server's JVM; a start after it boots from the same folder, with the
 * transaction log the killed one left.
 */
final class WildFlyProcess implements AutoCloseable {
    private static final Duration BOOT = Duration.ofMinutes(4);

    private final Path home = Path.of(System.getProperty("jboss.home"));
    private final Path base;
    private final int portOffset;
    private final List<String> properties;
    private Process process;

    /**
     * @param properties system properties for the server ({@code -Dname=value}), besides the
     *                   loopback bindings and the port offset
     */
    WildFlyProcess(int portOffset, List<String> properties) throws IOException {
        this.portOffset = portOffset;
        this.properties = List.copyOf(properties);
        this.base = Files.createTempDirectory("partita-wildfly-crash");
        copyTree(home.resolve("standalone/configuration"), base.resolve("configuration"));
        Files.createDirectories(base.resolve("deployments"));
    }

    /** Puts an archive in the deployments folder; the scanner deploys it when the server runs. */
    void deploy(Archive<?> archive) {
        archive.as(ZipExporter.class)
                .exportTo(base.resolve("deployments").resolve(archive.getName()).toFile(), true);
    }

    /**
     * Starts the server and waits until every archive in its deployments folder is deployed. The
     * scanner's markers of an earlier run are removed first, so that the new ones tell this boot.
     */
    void start() throws IOException, InterruptedException {
        List<Path> archives = new ArrayList<>();
        try (Stream<Path> files = Files.list(base.resolve("deployments"))) {
            for (Path f : files.toList()) {
                String name = f.getFileName().toString();
                if (name.endsWith(".war") || name.endsWith(".rar")) {
                    archives.add(f);
                } else {
                    Files.delete(f); // .deployed, .failed, .isdeploying markers
                }
            }
        }
        List<String> command = new ArrayList<>(List.of(
                home.resolve("bin/standalone.sh").toString(),
                "-c",
                "standalone-partita.xml",
                "-Djboss.server.base.dir=" + base,
                "-Djboss.socket.binding.port-offset=" + portOffset,
                "-Djboss.bind.address=127.0.0.1",
                "-Djboss.bind.address.management=127.0.0.1",
                "-Djboss.bind.address.private=127.0.0.1",
                "-Djboss.bind.address.unsecure=127.0.0.1"));
        command.addAll(properties);
        process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        base.resolve("console.log").toFile()))
                .start();
        long deadline = System.nanoTime() + BOOT.toNanos();
        while (!allDeployed(archives)) {
            for (Path a : archives) {
                if (Files.exists(marker(a, ".failed"))) {
                    throw new IllegalStateException(a.getFileName() + " failed to deploy: "
                            + Files.readString(marker(a, ".failed")) + "\n" + log());
                }
            }
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("WildFly did not deploy " + archives + "\n" + log());
            }
            Thread.sleep(200);
        }
    }

    private static boolean allDeployed(List<Path> archives) {
        return archives.stream().allMatch(a -> Files.exists(marker(a, ".deployed")));
    }

    private static Path marker(Path archive, String suffix) {
        return archive.resolveSibling(archive.getFileName() + suffix);
    }

    /** SIGKILL of the server's JVM (and of the script that started it): no shutdown of any kind. */
    void kill() throws InterruptedException {
        if (process == null) {
            return;
        }
        List<ProcessHandle> jvm = process.descendants().toList();
        jvm.forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor();
        jvm.forEach(p -> p.onExit().join());
        process = null;
    }

    /** The tail of the server's log, for a failure message. */
    String log() {
        return tail(line -> true);
    }

    /**
     * The last warnings and errors of the server's log (of every boot) and what the adapter said, for
     * a failure message.
     */
    String warnings() {
        return tail(line -> line.contains(" WARN ") || line.contains(" ERROR ") || line.contains("[org.partita"));
    }

    private String tail(java.util.function.Predicate<String> kept) {
        try {
            List<String> lines =
                    Files.readAllLines(logFile()).stream().filter(kept).toList();
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 80), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** The server's log, or its console's output when it did not get as far as a log. */
    private Path logFile() {
        Path log = base.resolve("log/server.log");
        return Files.exists(log) ? log : base.resolve("console.log");
    }

    /**
     * Keeps a copy of the server's whole log in the build's folder, for a failure to be read later;
     * says where, or why not.
     */
    String keepLog(String name) {
        Path copy = Path.of("target", name + "-server.log");
        try {
            Files.copy(logFile(), copy, StandardCopyOption.REPLACE_EXISTING);
            return copy.toAbsolutePath().toString();
        } catch (IOException e) {
            return "(not kept: " + e + ")";
        }
    }

    @Override
    public void close() throws Exception {
        kill();
        try (Stream<Path> files = Files.walk(base)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
