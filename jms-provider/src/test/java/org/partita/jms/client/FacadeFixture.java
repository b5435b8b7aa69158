package org.partita.jms.client;

import org.partita.jms.transport.InMemoryBrokerConnection;

/** A connection of the JMS facade over an {@link InMemoryBrokerConnection}: no node, no network. */
final class FacadeFixture implements AutoCloseable {
    final InMemoryBrokerConnection transport = new InMemoryBrokerConnection();
    final PartitaConnection connection;

    FacadeFixture() throws jakarta.jms.JMSException {
        this("tcp://127.0.0.1:1");
    }

    FacadeFixture(String url) throws jakarta.jms.JMSException {
        connection = new PartitaConnection(transport, ConnectionOptions.parse(url), null, Domain.ANY);
    }

    @Override
    public void close() throws jakarta.jms.JMSException {
        connection.close();
    }
}
