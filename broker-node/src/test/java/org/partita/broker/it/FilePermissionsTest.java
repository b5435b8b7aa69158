package org.partita.broker.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.protocol.auth.PasswordHash;

/**
 * docs/reliability.md, "Storage faults" point 14: what the node writes is its user's alone even
 * under umask 000, and it warns about a users file and a TLS key store others can read.
 */
@Tag("slow")
@Timeout(120)
class FilePermissionsTest {
    @TempDir
    Path dir;

    @Test
    void dataFolderDatabaseAndJournalAreOwnerOnlyWhateverTheUmaskAndAReadableUsersFileAndKeyStoreAreReported()
            throws Exception {
        Path users = dir.resolve("users.properties");
        Files.writeString(users, "alice = " + PasswordHash.create("s3cret".toCharArray()) + "\n");
        Files.setPosixFilePermissions(users, PosixFilePermissions.fromString("rw-r--r--"));
        Path keyStore = dir.resolve("node.p12");
        Keytool.keyPair(keyStore, "node", "CN=localhost", "changeit");
        Files.setPosixFilePermissions(keyStore, PosixFilePermissions.fromString("rw-r--r--"));
        Path conf = dir.resolve("node.conf");
        Files.writeString(
                conf, "users = " + users + "\ntls.keyStore = " + keyStore + "\ntls.keyStorePassword = changeit\n");
        Path data = dir.resolve("data");
        try (ChildNode node = ChildNode.startUnderUmask(
                        "000",
                        dir.resolve("logs"),
                        "--config",
                        conf.toString(),
                        "--port",
                        "0",
                        "--data",
                        data.toString())
                .awaitReady()) {
            try (Connection c = node.factory().createConnection("alice", "s3cret")) {
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer p = s.createProducer(s.createQueue("kept"));
                p.send(s.createTextMessage("a persistent message on the disk"));
            }
            assertOwnerOnly(data);
            assertTrue(
                    node.stderr()
                            .lines()
                            .anyMatch(l -> l.contains("WARN")
                                    && l.contains("users file")
                                    && l.contains("readable by users other than the node's")),
                    node.stderr());
            assertTrue(
                    node.stderr()
                            .lines()
                            .anyMatch(l -> l.contains("WARN")
                                    && l.contains("TLS key store " + keyStore)
                                    && l.contains("readable by users other than the node's")
                                    && l.contains("rw-r--r--")),
                    node.stderr());
            assertTrue(node.terminate(java.time.Duration.ofSeconds(30)) >= 0);
        }
        assertOwnerOnly(data); // the clean stop's files too
    }

    private static void assertOwnerOnly(Path data) throws Exception {
        List<Path> all;
        try (Stream<Path> s = Files.walk(data)) {
            all = s.toList();
        }
        assertTrue(all.stream().anyMatch(p -> p.getFileName().toString().equals("partita.mv.db")), all.toString());
        assertTrue(all.stream().anyMatch(p -> p.getFileName().toString().equals("partita.journal")), all.toString());
        for (Path p : all) {
            String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
            assertEquals(Files.isDirectory(p) ? "rwx------" : "rw-------", mode, p.toString());
        }
    }
}
