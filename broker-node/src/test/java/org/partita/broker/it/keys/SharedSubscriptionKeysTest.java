package org.partita.broker.it.keys;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.partita.broker.it.NodeExtension;

/**
 * A shared subscription is consumed like a queue by several consumers: keyed messages published to
 * the topic keep each key's order there too, while every consumer gets work.
 */
@Tag("slow")
class SharedSubscriptionKeysTest {
    private static final int KEYS = 10;
    private static final int PER_KEY = 30;

    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    @ParameterizedTest(name = "durable: {0}")
    @ValueSource(booleans = {true, false})
    void eachKeyStaysInOrderAcrossTheSubscriptionsConsumers(boolean durable) throws Exception {
        Map<String, List<Integer>> byKey = new ConcurrentHashMap<>();
        AtomicIntegerArray perConsumer = new AtomicIntegerArray(2);
        List<Connection> connections = new ArrayList<>();
        try {
            for (int c = 0; c < 2; c++) {
                int consumer = c;
                Connection conn = node.factory().createConnection();
                connections.add(conn);
                Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                Topic t = s.createTopic("events");
                MessageConsumer mc =
                        durable ? s.createSharedDurableConsumer(t, "workers") : s.createSharedConsumer(t, "workers");
                mc.setMessageListener(m -> {
                    try {
                        byKey.computeIfAbsent(m.getStringProperty("JMSXGroupID"), k -> new CopyOnWriteArrayList<>())
                                .add(m.getIntProperty("seq"));
                        perConsumer.incrementAndGet(consumer);
                        if (consumer == 0) {
                            Thread.sleep(2); // one slow consumer: its buffer fills while the other's runs dry
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                conn.start();
            }
            try (Connection p = node.factory().createConnection()) {
                Session s = p.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer producer = s.createProducer(s.createTopic("events"));
                for (int i = 0; i < PER_KEY; i++) {
                    for (int k = 0; k < KEYS; k++) {
                        Message m = s.createMessage();
                        m.setStringProperty("JMSXGroupID", "key-" + k);
                        m.setIntProperty("seq", i);
                        producer.send(m);
                    }
                }
            }
            await().atMost(java.time.Duration.ofSeconds(30))
                    .until(() -> byKey.values().stream().mapToInt(List::size).sum() >= KEYS * PER_KEY);
        } finally {
            for (Connection c : connections) {
                c.close();
            }
        }
        for (Map.Entry<String, List<Integer>> e : byKey.entrySet()) {
            List<Integer> sorted = new ArrayList<>(e.getValue());
            sorted.sort(null);
            assertEquals(sorted, e.getValue(), e.getKey() + " in order");
            assertEquals(PER_KEY, e.getValue().size(), e.getKey() + " complete");
        }
        assertTrue(perConsumer.get(0) > 0 && perConsumer.get(1) > 0, "both consumers got work: " + perConsumer);
    }
}
