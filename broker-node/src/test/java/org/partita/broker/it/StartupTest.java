package org.partita.broker.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.NodeStartException;
import org.partita.broker.embed.PartitaNode;
import org.partita.protocol.auth.PasswordHash;

/**
 * What an operator sees when a node starts: a failure is one line naming what to fix, with a
 * non-zero exit; a successful start logs where its data is, whether connections must authenticate
 * and which config file it read.
 */
@Tag("slow")
class StartupTest {
    private static final Duration EXIT_BOUND = Duration.ofSeconds(60);

    @TempDir
    Path tmp;

    /** The lines of stderr that are not log lines of the node (SLF4J simple prefixes those with "[main]" etc.). */
    private static List<String> messageLines(ChildNode p) {
        return p.stderr().lines().filter(l -> l.startsWith("partita-node:")).toList();
    }

    private static void assertOneLine(ChildNode p) {
        String err = p.stderr();
        assertFalse(err.contains("\tat "), "no stack trace: " + err);
        assertEquals(1, messageLines(p).size(), "one line says what is wrong: " + err);
    }

    @Test
    void aPortInUseIsOneLineNamingTheAddressAndPort() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            ChildNode p = ChildNode.startWithArgs(
                    tmp.resolve("log"),
                    "--data",
                    tmp.resolve("d").toString(),
                    "--port",
                    Integer.toString(taken.getLocalPort()));
            try {
                int code = p.awaitExit(EXIT_BOUND);
                assertNotEquals(0, code, "exit code; stderr:\n" + p.stderr());
                assertOneLine(p);
                String line = messageLines(p).get(0);
                // the README's words, so a user who searches for them finds the explanation
                assertTrue(
                        line.startsWith("partita-node: cannot start: cannot listen on 127.0.0.1:" + taken.getLocalPort()
                                + ": the address is in use"),
                        line);
                assertFalse(p.stdout().contains("ready at"), "no node was started");
            } finally {
                p.close();
            }
        }
    }

    @Test
    void anUnknownLogLevelIsAUsageErrorNamingTheLevels() throws Exception {
        ChildNode p = ChildNode.startWithArgs(
                tmp.resolve("log"), "--data", tmp.resolve("d").toString(), "--log-level", "LOUD");
        try {
            assertEquals(2, p.awaitExit(EXIT_BOUND), "usage error; stderr:\n" + p.stderr());
            assertTrue(
                    p.stderr().contains("--log-level")
                            && p.stderr().contains("LOUD")
                            && p.stderr().contains("DEBUG"),
                    p.stderr());
            assertFalse(p.stdout().contains("ready at"), "no node was started");
        } finally {
            p.close();
        }
    }

    @Test
    void aConfigFileThatDoesNotExistIsSaidSo() throws Exception {
        ChildNode p = ChildNode.startWithArgs(tmp.resolve("log"), "--config", "nope.conf");
        try {
            assertEquals(2, p.awaitExit(EXIT_BOUND), "a bad config exits with 2; stderr:\n" + p.stderr());
            assertOneLine(p);
            assertTrue(
                    messageLines(p).get(0).contains("config file nope.conf does not exist"),
                    messageLines(p).get(0));
        } finally {
            p.close();
        }
    }

    @Test
    void aDataFolderUsedByAnotherNodeIsOneLineNamingTheFolder() throws Exception {
        Path data = tmp.resolve("shared-data");
        try (PartitaNode first =
                PartitaNode.start(NodeConfig.defaults().withPort(0).withDataDir(data))) {
            ChildNode p = ChildNode.startWithArgs(tmp.resolve("log"), "--data", data.toString(), "--port", "0");
            try {
                int code = p.awaitExit(EXIT_BOUND);
                assertNotEquals(0, code, "exit code; stderr:\n" + p.stderr());
                assertOneLine(p);
                String line = messageLines(p).get(0);
                assertTrue(line.contains(data.toAbsolutePath().normalize().toString()), line);
                assertTrue(line.contains("another Partita node"), line);
            } finally {
                p.close();
            }
            // the running node was not disturbed: it still takes connections
            try (var c = new org.partita.jms.client.PartitaConnectionFactory(first.url()).createConnection()) {
                c.createSession().close();
            }
        }
    }

    @Test
    void aSecondNodeInTheSameJvmOnTheSameFolderIsRefusedAndTheFolderIsFreedOnClose() {
        Path data = tmp.resolve("in-process");
        NodeConfig config = NodeConfig.defaults().withPort(0).withDataDir(data);
        try (PartitaNode first = PartitaNode.start(config)) {
            NodeStartException e = assertThrows(NodeStartException.class, () -> PartitaNode.start(config));
            assertTrue(e.getMessage().contains(data.toAbsolutePath().normalize().toString()), e.getMessage());
        }
        try (PartitaNode again = PartitaNode.start(config)) {
            assertTrue(again.port() > 0);
        }
    }

    @Test
    void theStartUpLogNamesTheConfigFileTheNormalizedDataPathAndTheAuthentication() throws Exception {
        Path users = tmp.resolve("users.properties");
        Files.writeString(users, "alice = " + PasswordHash.create("pw".toCharArray()) + "\n");
        Path config = tmp.resolve("node.conf");
        Files.writeString(config, "users = " + users + "\nport = 0\n");
        Path data = tmp.resolve("a/../data");
        ChildNode p = ChildNode.startWithArgs(
                        tmp.resolve("log"), "--config", config.toString(), "--data", data.toString())
                .awaitReady();
        try {
            String log = p.stderr();
            assertTrue(log.contains("config file " + config.toAbsolutePath().normalize()), log);
            assertTrue(
                    log.contains("with data in "
                            + tmp.resolve("data").toAbsolutePath().normalize()),
                    log);
            assertFalse(log.contains("a/../data"), "the data path is normalized: " + log);
            assertTrue(
                    log.contains("authentication on: users from "
                            + users.toAbsolutePath().normalize()),
                    log);
        } finally {
            p.close();
        }

        ChildNode open = ChildNode.startWithArgs(
                        tmp.resolve("log2"), "--data", tmp.resolve("d2").toString(), "--port", "0")
                .awaitReady();
        try {
            String log = open.stderr();
            assertTrue(log.contains("authentication off"), log);
            assertTrue(log.contains("no config file"), log);
        } finally {
            open.close();
        }
    }

    @Test
    void hashPasswordRefusesAUserNameTheUsersFileCannotHold() throws Exception {
        ChildNode p = ChildNode.startWithArgs(tmp.resolve("log"), "--hash-password", "bob=admin");
        try {
            assertEquals(2, p.awaitExit(EXIT_BOUND), "exit code; stderr:\n" + p.stderr());
            assertTrue(p.stderr().contains("contains '='"), p.stderr());
            assertFalse(p.stdout().contains("pbkdf2"), "no users-file line is printed: " + p.stdout());
        } finally {
            p.close();
        }
    }
}
