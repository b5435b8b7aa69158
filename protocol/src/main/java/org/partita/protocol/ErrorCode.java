package org.partita.protocol;

/**
 * Error codes carried by {@link Frame.Error}. The numbers are part of the wire protocol
 * (docs/protocol.md): never renumber, only add.
 */
public enum ErrorCode {
    /** Anything the broker did not classify; the message says more. */
    INTERNAL(1),
    /** The frame could not be decoded (truncated, unknown type, bad field). Connection closed. */
    MALFORMED_FRAME(2),
    /** The frame is larger than the negotiated maximum. Connection closed. */
    FRAME_TOO_LARGE(3),
    /** The client speaks a protocol version this node does not. Connection closed. */
    UNSUPPORTED_VERSION(4),
    /** Wrong user or password, or credentials required. Connection closed. */
    AUTHENTICATION_FAILED(5),
    /** The user may not perform this operation on that destination. */
    NOT_AUTHORIZED(6),
    /** The destination does not exist and may not be created on first use. */
    UNKNOWN_DESTINATION(7),
    /** The request names a session, consumer or delivery this connection does not have. */
    ILLEGAL_STATE(8),
    /** The message selector does not parse. */
    INVALID_SELECTOR(9),
    /** The client id is already in use or not acceptable. */
    INVALID_CLIENT_ID(10),
    /** A queue is at its maximum depth or the node ran out of a resource. Nothing was stored. */
    RESOURCE_EXHAUSTED(11),
    /** The transaction could not be committed and was rolled back. */
    TRANSACTION_ROLLED_BACK(12),
    /** A request that is valid in form but not in content (bad option value, bad name). */
    INVALID_REQUEST(13),
    /** The node is shutting down. */
    SHUTTING_DOWN(14),
    /** The destination name cannot be used as written, e.g. its queue options conflict with the existing queue. */
    INVALID_DESTINATION(15),
    /**
     * A send made again after its node was lost, to a destination that keeps one copy on one node:
     * whether the lost node stored it cannot be told here. Nothing was stored.
     */
    IN_DOUBT(16);

    private final int wire;

    ErrorCode(int wire) {
        this.wire = wire;
    }

    public int wire() {
        return wire;
    }

    public static ErrorCode fromWire(int wire) {
        for (ErrorCode c : values()) {
            if (c.wire == wire) {
                return c;
            }
        }
        return INTERNAL;
    }
}
