package org.partita.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;

/** The packaged {@code target/partita} script and {@code target/partita-cli.jar}, run as an operator would. */
@Tag("slow")
@Timeout(120)
class PartitaScriptIT {
    @TempDir
    Path dir;

    private static String[] run(Path script, String... args) throws Exception {
        return run(script, java.util.Map.of(), args);
    }

    private static String[] run(Path script, java.util.Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of(script.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment()
                .put(
                        "JAVA",
                        Path.of(System.getProperty("java.home"), "bin", "java").toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the CLI ended");
        return new String[] {Integer.toString(p.exitValue()), out, err};
    }

    @Test
    void theScriptRunsTheJarAgainstANode() throws Exception {
        Path script = Path.of("target", "partita").toAbsolutePath();
        assertTrue(Files.isExecutable(script), script + " is executable");
        assertTrue(Files.exists(script.resolveSibling("partita-cli.jar")));
        try (PartitaNode node =
                PartitaNode.start(NodeConfig.defaults().withPort(0).withDataDir(dir))) {
            String[] created = run(script, "queue", "create", "orders", "-o", "partitions=2", "--url", node.url());
            assertEquals("0", created[0], created[2]);
            String[] list = run(script, "queue", "list", "--json", "--url", node.url());
            assertEquals("0", list[0], list[2]);
            assertTrue(list[1].contains("\"name\": \"orders\"") && list[1].contains("\"partitions\": 2"), list[1]);
            String[] missing = run(script, "queue", "stat", "nope", "--url", node.url());
            assertEquals("4", missing[0]);
            assertEquals("partita: queue 'nope' does not exist", missing[2].strip());
            String[] fromEnvironment =
                    run(script, java.util.Map.of("PARTITA_URL", node.url(), "PARTITA_OUTPUT", "json"), "queue", "list");
            assertEquals("0", fromEnvironment[0], fromEnvironment[2]);
            assertTrue(
                    fromEnvironment[1].contains("\"name\": \"orders\""),
                    "the URL and the output format from the environment: " + fromEnvironment[1]);
        }
    }
}
