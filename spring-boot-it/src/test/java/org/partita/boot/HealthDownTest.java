package org.partita.boot;

import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthContributorRegistry;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code partita} health is DOWN, with the client's error code, when no node listens at the URL. */
@Tag("slow")
@Timeout(60)
@DirtiesContext
// the listener containers would only retry against the missing node meanwhile
@SpringBootTest(classes = OrdersApplication.class, properties = "spring.jms.listener.auto-startup=false")
class HealthDownTest {
    private static int port;

    @DynamicPropertySource
    static void nowhere(DynamicPropertyRegistry registry) throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        registry.add("spring.partita.url", () -> "tcp://127.0.0.1:" + port);
    }

    @Autowired
    HealthContributorRegistry health;

    @Test
    void downWithTheErrorCodeWhenNothingListens() {
        Health h = ((HealthIndicator) health.getContributor("partita")).health();
        assertEquals(Status.DOWN, h.getStatus(), h.toString());
        assertEquals("tcp://127.0.0.1:" + port, h.getDetails().get("url"));
        assertEquals("PARTITA_NODE_UNREACHABLE", h.getDetails().get("errorCode"));
        assertTrue(String.valueOf(h.getDetails().get("error")).contains("127.0.0.1:" + port), h.toString());
    }
}
