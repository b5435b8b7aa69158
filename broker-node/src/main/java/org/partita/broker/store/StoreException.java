package org.partita.broker.store;

/** The store could not read or write; the message says which operation and why. */
public class StoreException extends RuntimeException {
    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
