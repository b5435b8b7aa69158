package org.partita.boot;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSSecurityException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.messaginghub.pooled.jms.JmsPoolConnectionFactory;
import org.partita.jms.client.PartitaConnectionFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The starter against a node that requires authentication: {@code spring.partita.user} and
 * {@code password} reach it, through a pooled-jms pool ({@code spring.partita.pool.enabled=true}).
 */
@Tag("slow")
@Timeout(180)
// closed after the class, so its listeners do not outlive the node the class started
@DirtiesContext
@SpringBootTest(
        classes = OrdersApplication.class,
        properties = {
            "spring.partita.user=orders-service",
            "spring.partita.password=s3cret & more",
            "spring.partita.pool.enabled=true",
            "spring.partita.pool.max-connections=2"
        })
class CredentialsAndPoolTest {
    private static NodeProcess node;

    @BeforeAll
    static void startNode() throws Exception {
        node = NodeProcess.startWithUser("orders-service", "s3cret & more");
    }

    @AfterAll
    static void stopNode() throws Exception {
        node.close();
    }

    @DynamicPropertySource
    static void nodeUrl(DynamicPropertyRegistry registry) {
        registry.add("spring.partita.url", () -> node.url());
    }

    @Autowired
    JmsTemplate jms;

    @Autowired
    ConnectionFactory connectionFactory;

    @Test
    void theTemplateSendsAndReceivesAsTheConfiguredUserThroughThePool() {
        JmsPoolConnectionFactory pool = assertInstanceOf(JmsPoolConnectionFactory.class, connectionFactory);
        assertEquals(2, pool.getMaxConnections());
        assertThrows(
                JMSSecurityException.class,
                () -> new PartitaConnectionFactory(node.url()).createConnection().close(),
                "the node lets no one in without credentials");
        jms.setReceiveTimeout(10_000);
        for (int i = 0; i < 5; i++) {
            jms.convertAndSend("audit", "entry " + i);
        }
        for (int i = 0; i < 5; i++) {
            assertEquals("entry " + i, jms.receiveAndConvert("audit"));
        }
    }
}
