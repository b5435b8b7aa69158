package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.JMSSecurityException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.jms.api.PartitaAdmin;
import org.partita.protocol.auth.PasswordHash;

/** The operator's log of a node started from the command line: failed logins and admin changes, in text or JSON lines. */
@Tag("slow")
@Timeout(120)
class OperatorLogTest {
    @TempDir
    Path dir;

    private ChildNode start(String... extra) throws Exception {
        Path users = dir.resolve("users.properties");
        Files.writeString(users, "alice = " + PasswordHash.create("s3cret".toCharArray()) + "\n");
        Path roles = dir.resolve("admins.roles");
        Files.writeString(roles, "role admins = alice\nallow admins = all on >\n");
        Path conf = dir.resolve("node.conf");
        Files.writeString(conf, "users = " + users + "\nroles = " + roles + "\n");
        List<String> args = new java.util.ArrayList<>(List.of(
                "--config",
                conf.toString(),
                "--port",
                "0",
                "--data",
                dir.resolve("data").toString()));
        args.addAll(List.of(extra));
        return ChildNode.startWithArgs(dir.resolve("logs"), args.toArray(String[]::new))
                .awaitReady();
    }

    private static void loginFailureAndAdminChange(ChildNode node) throws Exception {
        assertThrows(
                JMSSecurityException.class,
                () -> node.factory().createConnection("alice", "wrong").close());
        try (Connection c = node.factory().createConnection("alice", "s3cret");
                PartitaAdmin admin = PartitaAdmin.on(c)) {
            admin.updateQueue("orders", Map.of("partitions", "4"));
        }
    }

    @Test
    void failedLoginsAndAdminChangesAreOneLineEachWithWhoAndFromWhere() throws Exception {
        try (ChildNode node = start()) {
            loginFailureAndAdminChange(node);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                String err = node.stderr();
                assertTrue(
                        err.lines()
                                .anyMatch(l -> l.contains("INFO")
                                        && l.contains("login refused for user alice from 127.0.0.1:")),
                        err);
                assertTrue(
                        err.lines()
                                .anyMatch(l -> l.contains("INFO")
                                        && l.contains(
                                                "admin queue.update orders?partitions=4 by alice from 127.0.0.1:")),
                        err);
            });
        }
    }

    @Test
    void logJsonWritesOneJsonObjectPerLineWithTheEventsFields() throws Exception {
        try (ChildNode node = start("--log-json")) {
            loginFailureAndAdminChange(node);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                List<String> lines =
                        node.stderr().lines().filter(l -> !l.isBlank()).toList();
                assertTrue(
                        lines.stream().allMatch(l -> l.startsWith("{") && l.endsWith("}")), String.join("\n", lines));
                assertTrue(
                        lines.stream()
                                .anyMatch(l -> l.contains("{\"event\":\"login.failed\"}")
                                        && l.contains("{\"user\":\"alice\"}")),
                        String.join("\n", lines));
                assertTrue(
                        lines.stream()
                                .anyMatch(l -> l.contains("{\"event\":\"admin\"}")
                                        && l.contains("{\"command\":\"queue.update\"}")
                                        && l.contains("{\"user\":\"alice\"}")),
                        String.join("\n", lines));
            });
        }
    }
}
