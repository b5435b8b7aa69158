package org.partita.broker.store;

/**
 * The store cannot write because of an I/O fault (disk full, a failed write or sync): nothing of
 * the refused operation was kept. The node keeps trying to reopen the store and resumes by itself
 * once the cause is gone; clients see a {@code ResourceAllocationException} naming the cause.
 */
public class StoreUnavailableException extends StoreException {
    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Whether the write was refused because another node serves it now (a replica set's leadership
     * moved): the same write may go there at once, nothing of it having been kept here.
     */
    public boolean servedElsewhereNow() {
        return false;
    }
}
