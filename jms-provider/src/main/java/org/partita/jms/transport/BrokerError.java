package org.partita.jms.transport;

import org.partita.protocol.ErrorCode;

/**
 * The node answered a request with an ERROR frame, or the connection failed before it answered.
 * The {@link #code} picks the JMSException subclass; the {@link #errorCode} is what
 * {@code JMSException.getErrorCode()} says: the protocol code's name, unless the client has a more
 * precise one (a failover, {@code PARTITA_FAILOVER}; a node lost before it answered,
 * {@code PARTITA_NODE_LOST}; see {@link org.partita.jms.api.PartitaErrorCodes}).
 */
public class BrokerError extends RuntimeException {
    private final ErrorCode code;
    private final String errorCode;

    public BrokerError(ErrorCode code, String message) {
        this(code, code.name(), message);
    }

    public BrokerError(ErrorCode code, String errorCode, String message) {
        super(message);
        this.code = code;
        this.errorCode = errorCode;
    }

    public ErrorCode code() {
        return code;
    }

    /** The error code the application reads from the JMSException. */
    public String errorCode() {
        return errorCode;
    }
}
