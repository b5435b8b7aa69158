package org.partita.boot;

import jakarta.jms.ConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.partita.jms.client.PartitaConnectionFactory;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jms.connection.CachingConnectionFactory;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * A Boot application starts with the Partita starter (Boot 3: no NoClassDefFoundError on Netty 4.1;
 * Boot 4: Spring Framework 7 and Netty 4.2), which
 * makes its connection factory from {@code spring.partita.url}; its {@code JmsTemplate} sends, its
 * {@code @JmsListener(concurrency = "4")} consumes a partitioned queue, and each order's events are
 * handled in order.
 */
@Tag("slow")
@Timeout(180)
// closed after the class, so its listeners do not outlive the node the class started
@DirtiesContext
@SpringBootTest(classes = OrdersApplication.class)
class JmsListenerOnPartitionedQueueTest {
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
        registry.add("spring.partita.url", () -> node.url());
    }

    @Autowired
    JmsTemplate jms;

    @Autowired
    ConnectionFactory connectionFactory;

    @Autowired
    OrdersApplication.OrderEvents events;

    @Test
    void theStarterMadeTheConnectionFactoryFromTheProperties() {
        CachingConnectionFactory caching = assertInstanceOf(CachingConnectionFactory.class, connectionFactory);
        PartitaConnectionFactory partita =
                assertInstanceOf(PartitaConnectionFactory.class, caching.getTargetConnectionFactory());
        assertEquals(node.url(), partita.getUrl());
        assertSame(connectionFactory, jms.getConnectionFactory());
    }

    @Test
    void everyOrdersEventsAreHandledInOrderByTheListenerContainer() throws Exception {
        int orders = 40;
        int perOrder = 25;
        for (int seq = 0; seq < perOrder; seq++) {
            for (int o = 0; o < orders; o++) {
                int s = seq;
                String order = "order-" + o;
                jms.convertAndSend("order-events", "event", m -> {
                    m.setStringProperty("JMSXGroupID", order);
                    m.setIntProperty("seq", s);
                    return m;
                });
            }
        }
        await("every event handled").atMost(Duration.ofSeconds(60)).until(() -> events.all.size() >= orders * perOrder);
        assertEquals(orders * perOrder, events.all.stream().distinct().count(), "every event handled");
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < perOrder; i++) {
            expected.add(i);
        }
        for (Map.Entry<String, List<Integer>> e : events.byOrder.entrySet()) {
            List<Integer> firsts = e.getValue().stream().distinct().toList();
            assertEquals(expected, firsts, "events of " + e.getKey() + " in order");
        }
        System.out.println("listener threads that handled events: " + events.threads);
    }
}
