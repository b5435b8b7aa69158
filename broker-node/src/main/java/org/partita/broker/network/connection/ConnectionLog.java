package org.partita.broker.network.connection;

import org.partita.broker.logging.RateLimitedLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log of client connections, shared by a connection and its frame handlers: one logger, named
 * after {@link ClientConnection} because that is the name operators filter on (docs/operations.md),
 * and one rate limit for the events any client can repeat at will (bad frames, dropped sends, refused
 * logins), so that a burst of them cannot flood the log whichever handler reports it.
 */
final class ConnectionLog {
    static final Logger LOG = LoggerFactory.getLogger(ClientConnection.class);
    static final RateLimitedLog EVENTS = new RateLimitedLog(LOG);

    private ConnectionLog() {}
}
