package org.partita.broker.core.xa;

/**
 * An XA request the node refuses or a branch that can only roll back: {@code code} is the
 * {@code XAException} code the client's XAResource throws (XAER_NOTA, XAER_PROTO, XA_RBTIMEOUT, ...).
 */
public final class XaError extends RuntimeException {
    private final int code;

    public XaError(int code, String message) {
        super(message);
        this.code = code;
    }

    public int code() {
        return code;
    }
}
