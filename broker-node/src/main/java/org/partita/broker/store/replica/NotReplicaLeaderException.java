package org.partita.broker.store.replica;

import org.partita.broker.store.StoreUnavailableException;

/**
 * A write refused before it reached the replica set's log because this node does not lead the set
 * (now): nothing of it was kept. {@link #leader()} names the node that leads it, if known, where the
 * write should go instead.
 */
public final class NotReplicaLeaderException extends StoreUnavailableException {
    private final String leader;

    public NotReplicaLeaderException(String message, String leader) {
        super(message, null);
        this.leader = leader;
    }

    @Override
    public boolean servedElsewhereNow() {
        return true;
    }

    /** The node leading the set as this node last heard, or null when it knows of none (an election). */
    public String leader() {
        return leader;
    }
}
