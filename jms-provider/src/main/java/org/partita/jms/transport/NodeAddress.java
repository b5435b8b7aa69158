package org.partita.jms.transport;

/** Where one node listens, as a connection URL names it. */
public record NodeAddress(String host, int port) {

    public NodeAddress {
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException("a node address needs a host");
        }
    }

    /** {@code host:port}, the way error messages and failover reports name a node. */
    @Override
    public String toString() {
        return host + ":" + port;
    }
}
