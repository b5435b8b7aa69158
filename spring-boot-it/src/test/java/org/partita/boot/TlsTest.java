package org.partita.boot;

import jakarta.jms.JMSException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.jms.client.PartitaConnectionFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthContributorRegistry;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@code spring.partita.ssl.*} against a node that speaks TLS only ({@code tls.plaintext = off}) and
 * asks clients for a certificate ({@code tls.clientAuth = need}): the application trusts the node's
 * certificate through {@code ssl.trust-store} and presents its own through {@code ssl.key-store}; its
 * JmsTemplate sends and receives and the health is UP. Stores are made with keytool, as
 * docs/security.md says.
 */
@Tag("slow")
@Timeout(180)
@DirtiesContext
@SpringBootTest(classes = OrdersApplication.class)
class TlsTest {
    @TempDir
    static Path dir;

    private static NodeProcess node;

    @BeforeAll
    static void startNode() throws Exception {
        keyPair(dir.resolve("node.p12"), "node", "node-pw");
        keyPair(dir.resolve("app.p12"), "app", "app-pw");
        trust(dir.resolve("node.p12"), "node", "node-pw", dir.resolve("app-trust.p12"), "app-trust-pw");
        trust(dir.resolve("app.p12"), "app", "app-pw", dir.resolve("node-trust.p12"), "node-trust-pw");
        node = NodeProcess.startWithConfig(String.join("\n",
                "tls.keyStore = " + dir.resolve("node.p12"),
                "tls.keyStorePassword = node-pw",
                "tls.trustStore = " + dir.resolve("node-trust.p12"),
                "tls.trustStorePassword = node-trust-pw",
                "tls.clientAuth = need",
                "tls.plaintext = off"));
    }

    @AfterAll
    static void stopNode() throws Exception {
        node.close();
    }

    @DynamicPropertySource
    static void tls(DynamicPropertyRegistry registry) {
        registry.add("spring.partita.url", () -> node.sslUrl());
        registry.add("spring.partita.ssl.trust-store", () -> dir.resolve("app-trust.p12").toString());
        registry.add("spring.partita.ssl.trust-store-password", () -> "app-trust-pw");
        registry.add("spring.partita.ssl.key-store", () -> dir.resolve("app.p12").toUri().toString());
        registry.add("spring.partita.ssl.key-store-password", () -> "app-pw");
    }

    @Autowired
    JmsTemplate jms;

    @Autowired
    HealthContributorRegistry health;

    @Test
    void theApplicationSendsAndReceivesOverTlsWithItsCertificate() {
        jms.setReceiveTimeout(10_000);
        jms.convertAndSend("secure", "over TLS");
        assertEquals("over TLS", jms.receiveAndConvert("secure"));
        Health h = ((HealthIndicator) health.getContributor("partita")).health();
        assertEquals(Status.UP, h.getStatus(), h.toString());
    }

    @Test
    void withoutTheClientCertificateTheNodeRefuses() {
        String trustOnly = node.sslUrl() + "?trustStore=" + dir.resolve("app-trust.p12") + "&trustStorePassword=app-trust-pw";
        assertThrows(JMSException.class, () -> new PartitaConnectionFactory(trustOnly).createConnection().close());
    }

    private static void keytool(String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("keytool " + cmd + ": " + out);
        }
    }

    /** A PKCS12 key store with an EC key pair whose certificate names 127.0.0.1 and localhost. */
    private static void keyPair(Path store, String alias, String password) throws Exception {
        keytool("-genkeypair", "-alias", alias, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + alias,
                "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2", "-keystore", store.toString(),
                "-storetype", "PKCS12", "-storepass", password, "-keypass", password);
    }

    /** A PKCS12 trust store holding the certificate of {@code keyStore}. */
    private static void trust(Path keyStore, String alias, String password, Path trustStore, String trustPassword)
            throws Exception {
        Path cert = dir.resolve(alias + ".cer");
        if (!Files.exists(cert)) {
            keytool("-exportcert", "-alias", alias, "-keystore", keyStore.toString(), "-storepass", password,
                    "-file", cert.toString());
        }
        keytool("-importcert", "-noprompt", "-alias", alias, "-file", cert.toString(), "-keystore",
                trustStore.toString(), "-storetype", "PKCS12", "-storepass", trustPassword);
    }
}
