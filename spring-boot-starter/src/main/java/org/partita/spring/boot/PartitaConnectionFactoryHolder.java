package org.partita.spring.boot;

import org.partita.jms.client.PartitaConnectionFactory;

/**
 * The {@link PartitaConnectionFactory} the starter made, whichever {@code ConnectionFactory} bean wraps
 * it (Spring's caching factory, the pool, or none): the health indicator and the meters find it here.
 * It is a bean of its own rather than a second {@code ConnectionFactory} bean, which would leave Boot's
 * JMS auto-configuration two to choose from.
 */
public final class PartitaConnectionFactoryHolder {
    private final PartitaConnectionFactory connectionFactory;

    PartitaConnectionFactoryHolder(PartitaConnectionFactory connectionFactory) {
        this.connectionFactory = connectionFactory;
    }

    /** The client's factory the application's connections come from. */
    public PartitaConnectionFactory getConnectionFactory() {
        return connectionFactory;
    }

    @Override
    public String toString() {
        return "PartitaConnectionFactoryHolder[" + connectionFactory + "]";
    }
}
