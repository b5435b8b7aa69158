package org.partita.protocol;

/** A frame or message that does not follow docs/protocol.md. The connection that sent it is closed. */
public class ProtocolException extends RuntimeException {
    private final ErrorCode code;

    public ProtocolException(ErrorCode code, String message) {
        super(message);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }
}
