package org.partita.broker.core.xa;

import java.util.concurrent.CompletableFuture;

/**
 * Something a branch consumed that lives on another node of the cluster (a delivery relayed from
 * the node hosting its partition). The branch settles it there after it committed here and hands
 * it back if it rolls back; it is not part of what the branch stores, so across nodes a crash
 * between the two redelivers it (at least once, as for a local transaction; docs/cluster.md).
 */
public interface OutsideWork {

    /** The branch committed: consume it where it lives. */
    CompletableFuture<Void> commit();

    /** The branch rolled back: hand it back, redelivered. */
    void rollback();
}
