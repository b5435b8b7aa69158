package org.partita.jms.transport;

/**
 * Where one node listens, as a connection URL names it: {@code tcp://host:port}, or
 * {@code ssl://host:port} for TLS.
 */
public record NodeAddress(String host, int port, boolean tls) {

    public NodeAddress {
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException("a node address needs a host");
        }
    }

    /** A plain TCP address. */
    public NodeAddress(String host, int port) {
        this(host, port, false);
    }

    /** The URL scheme: {@code tcp} or {@code ssl}. */
    public String scheme() {
        return tls ? "ssl" : "tcp";
    }

    /** {@code host:port}, the way error messages and failover reports name a node. */
    @Override
    public String toString() {
        return host + ":" + port;
    }
}
