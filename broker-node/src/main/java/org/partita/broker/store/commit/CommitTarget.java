package org.partita.broker.store.commit;

import java.util.List;
import org.partita.broker.store.StoreBatch;
import org.partita.broker.store.h2.H2BatchApplier;
import org.partita.broker.store.journal.JournaledH2Target;

/**
 * Where the {@link GroupCommitWriter} commits each group of batches. Two real implementations: H2
 * directly ({@link H2BatchApplier}), and an append-only journal in front of H2
 * ({@link JournaledH2Target}) that makes a group durable with one cheap sync and moves only what is
 * still alive into H2 at checkpoints.
 */
public interface CommitTarget {

    /** Makes the group committed (safe from a process crash); throws to let the writer isolate a bad batch. */
    void apply(List<StoreBatch> batches) throws Exception;

    /** Forces everything applied so far to the disk. */
    void sync();

    /**
     * The payload bytes, at their heap cost, one group may carry: the writer commits more as several
     * groups (a batch larger than this goes alone), so what a target holds of a group stays bounded.
     */
    default long groupBytes() {
        return Long.MAX_VALUE;
    }

    /**
     * Whether this batch must be committed apart from the others (the writer then gives it a group of
     * its own, shared only with such batches that come right after it: thousands of queues defined at
     * once cost one group, not one each).
     */
    default boolean standsAlone(StoreBatch batch) {
        return false;
    }

    /**
     * Whether {@link #apply} of these batches, now, would only append: no checkpoint to run or wait for,
     * nothing to move into H2 first. Only such batches may be committed by the thread that brings them
     * ({@link CallerCommits}), which may be a network thread that must not stall on housekeeping.
     */
    default boolean appendsAtOnce(List<StoreBatch> batches) {
        for (StoreBatch b : batches) {
            if (standsAlone(b)) {
                return false;
            }
        }
        return true;
    }

    /**
     * After {@link #apply} threw: true if the target is as it was before the failing call, so the
     * writer may retry batches one by one; false if the call left part of its work behind, which
     * only {@link #abandon} and a reopen undo.
     */
    default boolean cleanFailure() {
        return true;
    }

    /** Everything applied so far is confirmed to its senders: nothing applied may be voided any more. */
    default void settled() {}

    /**
     * After a fault: makes what was applied since the last {@link #settled} invisible to the next
     * opening of the store, since it was answered with an error. Retried until it succeeds.
     */
    default void abandon() throws Exception {}

    /** After a fault and {@link #abandon}: lets go of the files without a checkpoint. */
    default void release() {}

    /** Called on the writer thread when no request came for a while: time for housekeeping. */
    default void idle() throws Exception {}

    /** Called on the writer thread before a read of H2, so the read sees every committed change. */
    default void beforeRead() {}

    /** Called on the writer thread when the store closes, after the last group. */
    default void close() {}
}
