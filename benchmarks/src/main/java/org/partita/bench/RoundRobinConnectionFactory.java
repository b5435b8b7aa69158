package org.partita.bench;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Spreads the connections a scenario opens over the nodes of a cluster, one node after the other. */
final class RoundRobinConnectionFactory implements ConnectionFactory {
    private final List<ConnectionFactory> nodes;
    private final AtomicInteger next = new AtomicInteger();

    RoundRobinConnectionFactory(List<ConnectionFactory> nodes) {
        this.nodes = List.copyOf(nodes);
    }

    private ConnectionFactory next() {
        return nodes.get(Math.floorMod(next.getAndIncrement(), nodes.size()));
    }

    @Override
    public Connection createConnection() throws JMSException {
        return next().createConnection();
    }

    @Override
    public Connection createConnection(String user, String password) throws JMSException {
        return next().createConnection(user, password);
    }

    @Override
    public JMSContext createContext() {
        return next().createContext();
    }

    @Override
    public JMSContext createContext(String user, String password) {
        return next().createContext(user, password);
    }

    @Override
    public JMSContext createContext(String user, String password, int sessionMode) {
        return next().createContext(user, password, sessionMode);
    }

    @Override
    public JMSContext createContext(int sessionMode) {
        return next().createContext(sessionMode);
    }
}
