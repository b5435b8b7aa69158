package org.partita.ee.payara;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;

/**
 * A Payara Server domain of its own, created with {@code asadmin create-domain} in a temporary
 * folder from the distribution the build unpacked, every listener bound to loopback, its ports from
 * a base of their own, Hazelcast and the built-in message broker off (neither is used; both would
 * listen on every interface). Set up and driven with {@code asadmin}, as the README tells an
 * operator to.
 */
final class PayaraDomain implements AutoCloseable {
    private static final String NAME = "partita";
    private static final long COMMAND_SECONDS = 240;

    private final Path home = Path.of(System.getProperty("payara.home"));
    private final Path domains;
    private final int portBase;

    PayaraDomain(int portBase) throws IOException, InterruptedException {
        this.portBase = portBase;
        this.domains = Files.createTempDirectory("partita-payara");
        run(List.of(
                "create-domain",
                "--domaindir",
                domains.toString(),
                "--portbase",
                String.valueOf(portBase),
                "--nopassword=true",
                NAME));
        Path config = domains.resolve(NAME).resolve("config/domain.xml");
        String xml = Files.readString(config, StandardCharsets.UTF_8)
                .replace("address=\"0.0.0.0\"", "address=\"127.0.0.1\"")
                .replace("<network-listener port=", "<network-listener address=\"127.0.0.1\" port=")
                .replace(
                        "<hazelcast-config-specific-configuration ",
                        "<hazelcast-config-specific-configuration enabled=\"false\" ")
                .replace(
                        "<hazelcast-config-specific-configuration>",
                        "<hazelcast-config-specific-configuration enabled=\"false\">")
                .replace("type=\"EMBEDDED\"", "type=\"DISABLED\"");
        Files.writeString(config, xml, StandardCharsets.UTF_8);
    }

    /** The HTTP port of the domain's applications. */
    int httpPort() {
        return portBase + 80;
    }

    void start() throws IOException, InterruptedException {
        run(List.of("start-domain", "--domaindir", domains.toString(), NAME));
    }

    /** Runs an {@code asadmin} command against the running domain; its output, or a failure naming it. */
    String asadmin(String... command) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("--port", String.valueOf(portBase + 48)));
        args.addAll(List.of(command));
        return run(args);
    }

    /** Deploys an archive under a name ({@code asadmin deploy}). */
    void deploy(Archive<?> archive, String name) throws IOException, InterruptedException {
        Path file = domains.resolve(archive.getName());
        archive.as(ZipExporter.class).exportTo(file.toFile(), true);
        asadmin("deploy", "--name", name, file.toString());
    }

    /** The tail of the domain's log, for a failure message. */
    String log() {
        try {
            List<String> lines = Files.readAllLines(domains.resolve(NAME).resolve("logs/server.log"));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 120), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private String run(List<String> args) throws IOException, InterruptedException {
        List<String> command =
                new ArrayList<>(List.of(home.resolve("bin/asadmin").toString(), "--interactive=false"));
        command.addAll(args);
        // output to a file, not a pipe: the server start-domain forks could hold a pipe open for its lifetime
        Path out = Files.createTempFile(domains, "asadmin", ".out");
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        if (!p.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("asadmin " + args + " did not finish");
        }
        String text = Files.readString(out, StandardCharsets.UTF_8);
        Files.delete(out);
        if (p.exitValue() != 0) {
            throw new IllegalStateException("asadmin " + args + " failed:\n" + text + "\n" + log());
        }
        return text;
    }

    @Override
    public void close() throws Exception {
        try {
            run(List.of("stop-domain", "--domaindir", domains.toString(), NAME));
        } finally {
            try (Stream<Path> files = Files.walk(domains)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
