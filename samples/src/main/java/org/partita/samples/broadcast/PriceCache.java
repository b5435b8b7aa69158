package org.partita.samples.broadcast;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** One live instance of a service with a local price cache, dropping the entries it is told are stale. */
final class PriceCache implements AutoCloseable {
    private final String name;
    private final Map<String, String> prices = new ConcurrentHashMap<>();
    private final List<String> invalidations = new ArrayList<>();
    private final Connection connection;

    PriceCache(String name, ConnectionFactory factory, Queue invalidationQueue, List<String> products)
            throws JMSException {
        this.name = name;
        products.forEach(p -> prices.put(p, "price of " + p + " as loaded at start"));
        connection = factory.createConnection();
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        session.createConsumer(invalidationQueue).setMessageListener(m -> {
            try {
                String product = m.getBody(String.class);
                prices.remove(product);
                synchronized (invalidations) {
                    invalidations.add(product);
                }
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
        });
        connection.start();
    }

    String name() {
        return name;
    }

    boolean holds(String product) {
        return prices.containsKey(product);
    }

    /** The invalidations this instance received, in order. */
    List<String> invalidations() {
        synchronized (invalidations) {
            return List.copyOf(invalidations);
        }
    }

    @Override
    public void close() throws JMSException {
        connection.close();
    }
}
