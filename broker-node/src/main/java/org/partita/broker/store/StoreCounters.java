package org.partita.broker.store;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the store's work for the metrics: group commits and the batches in them (their ratio is
 * the group size), disk syncs, and checkpoints with their durations. The writer and checkpoint threads
 * count; anyone reads.
 */
public final class StoreCounters {
    private final LongAdder groups = new LongAdder();
    private final LongAdder groupsByCaller = new LongAdder();
    private final LongAdder batches = new LongAdder();
    private final LongAdder messagesWritten = new LongAdder();
    private final LongAdder entriesWritten = new LongAdder();
    private final LongAdder syncs = new LongAdder();
    private final LongAdder checkpoints = new LongAdder();
    private final LongAdder checkpointNanos = new LongAdder();
    private final LongAdder faults = new LongAdder();
    private final LongAdder recoveries = new LongAdder();
    private final LongAdder compactions = new LongAdder();
    private final LongAdder checkpointWaitNanos = new LongAdder();
    private final LongAdder checkpointsBegun = new LongAdder();
    private final LongAdder checkpointsEnded = new LongAdder();
    private final LongAdder writerAllocatedBytes = new LongAdder();
    private final java.util.concurrent.atomic.AtomicLong longestCheckpointWaitNanos =
            new java.util.concurrent.atomic.AtomicLong();
    private volatile long checkpointPendingBytes;
    private volatile String fault;
    private volatile java.util.function.LongSupplier fileBytes = () -> 0;

    public void faulted(String reason) {
        faults.increment();
        fault = reason;
    }

    public void recovered() {
        recoveries.increment();
        fault = null;
    }

    public void compacted() {
        compactions.increment();
    }

    public void fileBytes(java.util.function.LongSupplier sizes) {
        fileBytes = sizes;
    }

    /** Why the store cannot write now (such as "No space left on device"), or null while it can. */
    public String fault() {
        return fault;
    }

    /** Times the store stopped writing because of an I/O fault. */
    public long faults() {
        return faults.sum();
    }

    /** Times it reopened itself after one. */
    public long recoveries() {
        return recoveries.sum();
    }

    /** Online compactions that gave file space back. */
    public long compactions() {
        return compactions.sum();
    }

    /** Bytes the database and journal files take on the disk now. */
    public long fileBytes() {
        return fileBytes.getAsLong();
    }

    public void committedGroup(java.util.List<StoreBatch> group) {
        groups.increment();
        batches.add(group.size());
        long messages = 0;
        long entries = 0;
        for (StoreBatch b : group) {
            for (StoreOp op : b.ops()) {
                if (op instanceof StoreOp.InsertMessage) {
                    messages++;
                } else if (op instanceof StoreOp.InsertEntry) {
                    entries++;
                }
            }
        }
        messagesWritten.add(messages);
        entriesWritten.add(entries);
    }

    /**
     * Message payloads committed to the store since it opened: a fan-out to three AppIds writes one,
     * a broadcast none. With {@link #entriesWritten()}, what shows how often a message was stored.
     */
    public long messagesWritten() {
        return messagesWritten.sum();
    }

    /** Queue entries committed to the store since it opened: one per queue (or AppId) that holds a stored message. */
    public long entriesWritten() {
        return entriesWritten.sum();
    }

    /** The group just counted was committed by a network thread at the end of its turn, not by the writer. */
    public void committedByCaller() {
        groupsByCaller.increment();
    }

    public void synced() {
        syncs.increment();
    }

    public void checkpointed(long nanos) {
        checkpoints.increment();
        checkpointNanos.add(nanos);
    }

    /** Group commits (one transaction each). */
    public long groups() {
        return groups.sum();
    }

    /** Of the {@link #groups()}, those a network thread committed itself at the end of its turn. */
    public long groupsByCaller() {
        return groupsByCaller.sum();
    }

    /** Batches committed, over all groups. */
    public long batches() {
        return batches.sum();
    }

    /** Disk syncs forced to confirm persistent sends. */
    public long syncs() {
        return syncs.sum();
    }

    /** The writer waited {@code nanos} for a checkpoint (the previous segment's, or one a read needs). */
    public void waitedForCheckpoint(long nanos) {
        checkpointWaitNanos.add(nanos);
        longestCheckpointWaitNanos.accumulateAndGet(nanos, Math::max);
    }

    /** Time the writer spent waiting for checkpoints, in nanoseconds: appends held up by H2. */
    public long checkpointWaitNanos() {
        return checkpointWaitNanos.sum();
    }

    /** The writer's longest single wait for a checkpoint, in nanoseconds. */
    public long longestCheckpointWaitNanos() {
        return longestCheckpointWaitNanos.get();
    }

    /** A checkpoint starts moving a segment's net effect into H2 (any thread). */
    public void checkpointBegan() {
        checkpointsBegun.increment();
    }

    /** ... and ended, done or failed. */
    public void checkpointEnded() {
        checkpointsEnded.increment();
    }

    /** Checkpoints begun, done or not: one is in progress while this exceeds {@link #checkpointsEnded()}. */
    public long checkpointsBegun() {
        return checkpointsBegun.sum();
    }

    /** Checkpoints ended, done or failed. */
    public long checkpointsEnded() {
        return checkpointsEnded.sum();
    }

    /** True while a checkpoint moves a segment's net effect into H2 (appends go on meanwhile). */
    public boolean checkpointInProgress() {
        return checkpointsEnded.sum() < checkpointsBegun.sum();
    }

    /** The checkpoint in progress still holds {@code bytes} of the closed segment's payloads (0 when it ends). */
    public void checkpointPendingBytes(long bytes) {
        checkpointPendingBytes = bytes;
    }

    /**
     * Payload bytes of the closed journal segment a checkpoint in progress still holds on the heap:
     * they go down part by part as H2 commits them; 0 while no checkpoint runs.
     */
    public long checkpointPendingBytes() {
        return checkpointPendingBytes;
    }

    /** The writer zero-filled journal space itself, nobody having prepared it ahead. */
    public void writerAllocated(long bytes) {
        if (bytes > 0) {
            writerAllocatedBytes.add(bytes);
        }
    }

    /**
     * Journal bytes the writer had to allocate itself between group commits, each time holding the
     * sends behind them; 0 while the allocator keeps ahead of it.
     */
    public long writerAllocatedBytes() {
        return writerAllocatedBytes.sum();
    }

    /** Checkpoints that moved the journal's net effect into H2. */
    public long checkpoints() {
        return checkpoints.sum();
    }

    /** Time spent in those checkpoints, in nanoseconds. */
    public long checkpointNanos() {
        return checkpointNanos.sum();
    }
}
