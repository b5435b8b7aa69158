package org.partita.bench;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import java.util.ArrayList;
import java.util.List;

/** The connections one scenario run opened, closed together at its end. */
final class Clients implements AutoCloseable {
    private final ConnectionFactory cf;
    private final List<Connection> connections = new ArrayList<>();

    Clients(ConnectionFactory cf) {
        this.cf = cf;
    }

    /** A started connection. */
    synchronized Connection open() throws JMSException {
        return open(null);
    }

    /** A started connection with the given client id (null for none). */
    synchronized Connection open(String clientId) throws JMSException {
        Connection c = cf.createConnection();
        connections.add(c);
        if (clientId != null) {
            c.setClientID(clientId);
        }
        c.start();
        return c;
    }

    @Override
    public synchronized void close() {
        for (Connection c : connections) {
            try {
                c.close();
            } catch (JMSException | RuntimeException ignored) {
                // the broker goes away next anyway
            }
        }
        connections.clear();
    }
}
