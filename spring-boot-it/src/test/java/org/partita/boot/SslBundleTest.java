package org.partita.boot;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.spring.boot.PartitaConnectionFactoryHolder;
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
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * {@code spring.partita.ssl.bundle}: the application's trust and certificate come from one of Boot's
 * SSL bundles ({@code spring.ssl.bundle.jks.partita}), not from store files given to the client,
 * against a node that speaks TLS only and needs a client certificate. JmsTemplate sends and receives,
 * and the health check's own connections (which take the bundle too) report UP.
 */
@Tag("slow")
@Timeout(180)
@DirtiesContext
@SpringBootTest(classes = OrdersApplication.class)
class SslBundleTest {
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
        registry.add("spring.partita.ssl.bundle", () -> "partita");
        registry.add("spring.ssl.bundle.jks.partita.truststore.location", () -> stores.appTrust.toUri().toString());
        registry.add("spring.ssl.bundle.jks.partita.truststore.password", () -> TlsStores.APP_TRUST_PASSWORD);
        registry.add("spring.ssl.bundle.jks.partita.keystore.location", () -> stores.appKeys.toUri().toString());
        registry.add("spring.ssl.bundle.jks.partita.keystore.password", () -> TlsStores.APP_PASSWORD);
    }

    @Autowired
    JmsTemplate jms;

    @Autowired
    HealthContributorRegistry health;

    @Autowired
    PartitaConnectionFactoryHolder partita;

    @Test
    void theApplicationSendsAndReceivesWithTheBundlesTrustAndCertificate() {
        PartitaConnectionFactory cf = partita.getConnectionFactory();
        assertFalse(cf.getUrl().contains("Store"), "no store option in the URL: " + cf.getUrl());
        jms.setReceiveTimeout(10_000);
        jms.convertAndSend("bundled", "over TLS, from a bundle");
        assertEquals("over TLS, from a bundle", jms.receiveAndConvert("bundled"));
        Health h = ((HealthIndicator) health.getContributor("partita")).health();
        assertEquals(Status.UP, h.getStatus(), h.toString());
    }
}
