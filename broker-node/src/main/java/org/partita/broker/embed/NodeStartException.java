package org.partita.broker.embed;

/**
 * A node could not start for a reason an operator can fix (the port is taken, the data folder is
 * used by another node); the message says which, in one line.
 */
public class NodeStartException extends RuntimeException {
    public NodeStartException(String message) {
        super(message);
    }

    public NodeStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
