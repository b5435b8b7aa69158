package org.partita.broker.core.queue;

/** A destination was named that does not exist and may not be created on first use. */
public class UnknownDestinationException extends RuntimeException {
    public UnknownDestinationException(String message) {
        super(message);
    }
}
