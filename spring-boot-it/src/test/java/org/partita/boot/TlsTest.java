package org.partita.boot;

import jakarta.jms.JMSException;
import java.nio.file.Path;
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

    private static TlsStores stores;

    private static NodeProcess node;

    @BeforeAll
    static void startNode() throws Exception {
        stores = TlsStores.make(dir);
        node = NodeProcess.startWithConfig(stores.nodeConfig());
    }

    @AfterAll
    static void stopNode() throws Exception {
        node.close();
    }

    @DynamicPropertySource
    static void tls(DynamicPropertyRegistry registry) {
        registry.add("spring.partita.url", () -> node.sslUrl());
        registry.add("spring.partita.ssl.trust-store", () -> stores.appTrust.toString());
        registry.add("spring.partita.ssl.trust-store-password", () -> TlsStores.APP_TRUST_PASSWORD);
        registry.add("spring.partita.ssl.key-store", () -> stores.appKeys.toUri().toString());
        registry.add("spring.partita.ssl.key-store-password", () -> TlsStores.APP_PASSWORD);
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
        String trustOnly = node.sslUrl() + "?trustStore=" + stores.appTrust + "&trustStorePassword="
                + TlsStores.APP_TRUST_PASSWORD;
        assertThrows(JMSException.class, () -> new PartitaConnectionFactory(trustOnly).createConnection().close());
    }
}
