package org.partita.broker.admin;

import java.util.List;

/** The node's open client connections, as the network front knows them. */
public interface ConnectionRegistry {
    List<ConnectionInfo> connections();

    /** Bytes received from all clients since the node started. */
    long bytesIn();

    /** Bytes sent to all clients since the node started. */
    long bytesOut();

    /** Logins refused for their credentials since the node started. */
    default long failedLogins() {
        return 0;
    }

    /** A registry without connections (a node core with no network front). */
    ConnectionRegistry NONE = new ConnectionRegistry() {
        @Override
        public List<ConnectionInfo> connections() {
            return List.of();
        }

        @Override
        public long bytesIn() {
            return 0;
        }

        @Override
        public long bytesOut() {
            return 0;
        }
    };
}
