package org.partita.broker.store.replica;

import org.partita.broker.store.StoreException;

/**
 * A write handed to a replica set's log that was neither confirmed nor refused: leadership moved or
 * a majority stopped answering after the leader took it, so a majority may hold it (and then every
 * replica applies it) or not. Whoever asked for the write cannot tell which; the caller must treat
 * it as possibly stored.
 */
public final class ReplicaInDoubtException extends StoreException {
    public ReplicaInDoubtException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public boolean maybeStored() {
        return true;
    }
}
