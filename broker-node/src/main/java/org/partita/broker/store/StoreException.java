package org.partita.broker.store;

/** The store could not read or write; the message says which operation and why. */
public class StoreException extends RuntimeException {
    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Whether the refused write may have been stored all the same (a replica set took it and could
     * not confirm it): whoever tries it again must make sure it is not stored twice.
     */
    public boolean maybeStored() {
        return false;
    }

    /** A failure after which the write may have been stored all the same ({@link #maybeStored}). */
    public static StoreException inDoubt(String message, Throwable cause) {
        return new StoreException(message, cause) {
            @Override
            public boolean maybeStored() {
                return true;
            }
        };
    }
}
