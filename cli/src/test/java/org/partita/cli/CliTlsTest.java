package org.partita.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.config.SecuritySettings;
import org.partita.broker.config.TlsSettings;
import org.partita.broker.embed.PartitaNode;

/** The CLI against a node that takes TLS only: an {@code ssl://} URL with the client's trust store in it. */
@Tag("slow")
@Timeout(60)
class CliTlsTest {
    private static final String PASS = "changeit";

    @TempDir
    Path dir;

    @Test
    void theCliTalksToATlsOnlyNodeOverAnSslUrl() throws Exception {
        Path nodeKeys = dir.resolve("node.p12");
        keytool(
                "-genkeypair",
                "-alias",
                "node",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=localhost",
                "-ext",
                "SAN=ip:127.0.0.1,dns:localhost",
                "-validity",
                "2",
                "-keystore",
                nodeKeys.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                PASS,
                "-keypass",
                PASS);
        Path cert = dir.resolve("node.crt");
        keytool(
                "-exportcert",
                "-alias",
                "node",
                "-keystore",
                nodeKeys.toString(),
                "-storepass",
                PASS,
                "-file",
                cert.toString());
        Path trust = dir.resolve("trust.p12");
        keytool(
                "-importcert",
                "-noprompt",
                "-alias",
                "node",
                "-file",
                cert.toString(),
                "-keystore",
                trust.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                PASS);
        TlsSettings tls = TlsSettings.of(nodeKeys, PASS).withPlaintext(TlsSettings.Plaintext.OFF);
        try (PartitaNode node = PartitaNode.start(NodeConfig.defaults()
                .withPort(0)
                .withDataDir(dir.resolve("data"))
                .withSecurity(SecuritySettings.defaults().withTls(tls)))) {
            String ssl = "ssl://127.0.0.1:" + node.port() + "?trustStore=" + trust + "&trustStorePassword=" + PASS;

            CliTest.Run created = CliTest.raw("queue", "create", "secure-orders", "-o", "partitions=2", "--url", ssl);
            assertEquals(0, created.code(), created.err());
            CliTest.Run list = CliTest.raw("queue", "list", "--url", ssl);
            assertEquals(0, list.code(), list.err());
            assertTrue(list.lines().stream().anyMatch(l -> l.startsWith("secure-orders ")), list.out());
            CliTest.Run status = CliTest.raw("node", "status", "--url", ssl);
            assertEquals(0, status.code(), status.err());

            CliTest.Run plain = CliTest.raw("queue", "list", "--url", "tcp://127.0.0.1:" + node.port());
            // the node refuses a plaintext connection as it refuses credentials, and says why
            assertEquals(ExitCodes.AUTHENTICATION, plain.code(), "plaintext is off, loopback included: " + plain.err());
            assertTrue(plain.err().contains("connect with ssl://"), plain.err());
            CliTest.Run untrusted = CliTest.raw("queue", "list", "--url", "ssl://127.0.0.1:" + node.port());
            assertEquals(
                    ExitCodes.UNREACHABLE,
                    untrusted.code(),
                    "the node's certificate is not in the JVM's default trust");
            assertEquals(1, untrusted.err().strip().lines().count(), "one line: " + untrusted.err());
            assertTrue(untrusted.err().startsWith("partita: cannot use the node at ssl://127.0.0.1:"), untrusted.err());
        }
    }

    private static void keytool(String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "keytool " + cmd + ": " + out);
    }
}
