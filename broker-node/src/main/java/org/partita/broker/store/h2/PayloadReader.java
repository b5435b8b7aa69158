package org.partita.broker.store.h2;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.partita.broker.store.StoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads single payloads from H2 on its own connection, so that queue threads delivering paged-out
 * messages never queue behind the writer. H2 lets this connection read committed rows while the
 * writer's connection commits.
 */
public final class PayloadReader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PayloadReader.class);

    private final Connection connection;
    private final PreparedStatement select;

    public PayloadReader(Connection connection) throws SQLException {
        this.connection = connection;
        try {
            // H2 keeps an eager query's last result in its statement, the payload with it, until the next read
            try (java.sql.Statement lazy = connection.createStatement()) {
                lazy.execute("SET LAZY_QUERY_EXECUTION TRUE");
            }
            this.select = connection.prepareStatement("SELECT PAYLOAD FROM MESSAGES WHERE ID = ?");
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
    }

    /** The payload, or null if no row holds it. */
    public synchronized byte[] read(long messageId) {
        try {
            select.setLong(1, messageId);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next() ? rs.getBytes(1) : null;
            }
        } catch (SQLException e) {
            throw new StoreException("cannot read message " + messageId + ": " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            LOG.debug("payload reader close: {}", e.toString());
        }
    }
}
