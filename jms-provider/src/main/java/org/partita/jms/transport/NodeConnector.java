package org.partita.jms.transport;

/**
 * Opens a transport to one node, handshake included: what {@link FailoverBrokerConnection} calls for
 * each node it tries. {@link NettyNodeConnector} is the real one; tests give in-memory nodes.
 */
@FunctionalInterface
public interface NodeConnector {

    /**
     * A connection to {@code node} that completed the handshake with {@code login}, with
     * {@code listener} set before the handshake, so no event is missed. Waits at most
     * {@code timeoutMillis} (0: no limit).
     *
     * @throws BrokerError when the node cannot be reached or refuses the handshake
     */
    BrokerConnection connect(NodeAddress node, Login login, ConnectionListener listener, long timeoutMillis);
}
