package org.partita.broker.store;

import java.util.List;

/**
 * Where the {@link GroupCommitWriter} commits each group of batches. Two real implementations: H2
 * directly ({@link H2BatchApplier}), and an append-only journal in front of H2
 * ({@link JournaledH2Target}) that makes a group durable with one cheap sequential sync and moves
 * only what is still alive into H2 at checkpoints.
 */
interface CommitTarget {

    /** Makes the group committed (safe from a process crash); throws to let the writer isolate a bad batch. */
    void apply(List<StoreBatch> batches) throws Exception;

    /** Forces everything applied so far to the disk. */
    void sync();

    /** Called on the writer thread before a read of H2, so the read sees every committed change. */
    default void beforeRead() {
    }

    /** Called on the writer thread when the store closes, after the last group. */
    default void close() {
    }
}
