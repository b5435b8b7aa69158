package org.partita.jms.transport;

import org.partita.jms.protocol.ErrorCode;

/** The node answered a request with an ERROR frame, or the connection failed before it answered. */
public class BrokerError extends RuntimeException {
    private final ErrorCode code;

    public BrokerError(ErrorCode code, String message) {
        super(message);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }
}
