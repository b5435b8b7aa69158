package org.partita.boot;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With Boot's actuator: Boot's health registry has the starter's {@code partita} indicator, UP
 * against a running node, and the meter registry the {@code partita.client.*} meters, which move as
 * the application sends and receives.
 */
@Tag("slow")
@Timeout(180)
@DirtiesContext
@SpringBootTest(classes = OrdersApplication.class)
class HealthAndMetricsTest {
    private static NodeProcess node;

    @BeforeAll
    static void startNode() throws Exception {
        node = NodeProcess.start();
    }

    @AfterAll
    static void stopNode() throws Exception {
        node.close();
    }

    @DynamicPropertySource
    static void nodeUrl(DynamicPropertyRegistry registry) {
        registry.add("spring.partita.url", () -> node.url() + "?prefetch=10");
    }

    @Autowired
    HealthContributorRegistry health;

    @Autowired
    MeterRegistry meters;

    @Autowired
    JmsTemplate jms;

    @Test
    void thePartitaHealthIsUpWithTheNodesUrl() {
        Health h = ((HealthIndicator) health.getContributor("partita")).health();
        assertEquals(Status.UP, h.getStatus(), h.toString());
        assertEquals(node.url(), h.getDetails().get("url"));
    }

    private double count(String name) {
        return meters.get(name).tag("url", node.url()).functionCounter().count();
    }

    @Test
    void theClientMetersCountWhatTheApplicationSendsAndReceives() {
        double sent = count("partita.client.messages.sent");
        double received = count("partita.client.messages.received");
        jms.setReceiveTimeout(10_000);
        for (int i = 0; i < 3; i++) {
            jms.convertAndSend("metered", "m" + i);
        }
        for (int i = 0; i < 3; i++) {
            assertEquals("m" + i, jms.receiveAndConvert("metered"));
        }
        assertEquals(sent + 3, count("partita.client.messages.sent"));
        assertEquals(received + 3, count("partita.client.messages.received"));
        assertEquals(0, count("partita.client.sends.failed"));
        assertTrue(count("partita.client.connections.opened") >= 1);
        double open = meters.get("partita.client.connections.open").tag("url", node.url()).gauge().value();
        assertTrue(open >= 1, "the caching factory's shared connection, and the listener containers': " + open);
    }
}
