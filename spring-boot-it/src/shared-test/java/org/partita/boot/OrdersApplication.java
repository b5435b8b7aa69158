package org.partita.boot;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.jms.annotation.JmsListener;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A Spring Boot application (3 in spring-boot-it, 4 in spring-boot4-it) as its users write one with the Partita starter: no connection factory
 * of its own (the starter makes it from {@code spring.partita.url}), Boot's JMS auto-configuration,
 * and a {@code @JmsListener} with concurrency 4 on a partitioned queue. It records what it handled,
 * per order and per listener thread.
 */
@SpringBootApplication
public class OrdersApplication {

    @Component
    static class OrderEvents {
        final Map<String, List<Integer>> byOrder = new ConcurrentHashMap<>();
        final Set<String> threads = ConcurrentHashMap.newKeySet();
        final List<String> all = new CopyOnWriteArrayList<>();

        @JmsListener(destination = "order-events?partitions=4", concurrency = "4")
        void onEvent(Message m) throws JMSException {
            String order = m.getStringProperty("JMSXGroupID");
            byOrder.computeIfAbsent(order, k -> new CopyOnWriteArrayList<>()).add(m.getIntProperty("seq"));
            threads.add(Thread.currentThread().getName());
            all.add(order + "#" + m.getIntProperty("seq"));
        }
    }
}
