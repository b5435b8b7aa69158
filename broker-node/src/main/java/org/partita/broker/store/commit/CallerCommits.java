package org.partita.broker.store.commit;

import org.partita.broker.store.ThreadTurns;

/**
 * Whether a thread that works in turns (a network event loop, {@link ThreadTurns}) may commit what it
 * gathered during a turn itself, and the times the writer's housekeeping needs.
 *
 * <p>A commit on the network thread spares the hand-offs to the writer thread and back (a futex wake
 * each way, an inter-processor interrupt in a virtual machine, and a thread that may wait for a
 * core). But while it syncs the disk, the network thread serves no connection. Where a sync takes
 * long (a spinning disk, a network volume: the median of the last syncs is over
 * {@link #LONGEST_CALLER_SYNC_NANOS}), the writer thread commits, so that consumers,
 * non-persistent traffic and new connections are served meanwhile; where it is short, the network
 * thread commits, and the sends that arrive meanwhile are read in its next turn and share the next
 * commit. A disk that stalls (a sync of {@link #STALLED_SYNC_NANOS} or more, whoever made it) holds a
 * network thread for as long as it stalls; after one, the writer thread makes every sync for
 * {@link #STALL_COOL_OFF_NANOS}, so a stalling disk holds the network threads at most once in that time.
 */
public final class CallerCommits {
    /** A network thread commits while a sync takes at most this long (the median of the last ones). */
    static final long LONGEST_CALLER_SYNC_NANOS = 500_000;
    /** A sync this long means the disk stalled. */
    static final long STALLED_SYNC_NANOS = 100_000_000L;
    /** After a stall, how long network threads leave syncs to the writer thread. */
    static final long STALL_COOL_OFF_NANOS = 60_000_000_000L;
    /** Syncs the median is taken over: a rare long one (a sync behind a checkpoint) does not count, a slower disk soon does. */
    private static final int SYNCS_KEPT = 16;

    /** The last syncs' durations, a ring; touched only by the holder of the writer's role. */
    private final long[] syncNanos = new long[SYNCS_KEPT];

    private final long[] sorted = new long[SYNCS_KEPT];
    private int syncCount;
    private volatile long medianSyncNanos;
    private final java.util.function.LongSupplier clock;
    private volatile long lastCommitEndNanos;
    /** When the last stalled sync ended; at start, a cool-off ago. */
    private volatile long stallEndedNanos;

    CallerCommits() {
        this(System::nanoTime);
    }

    /** @param clock {@link System#nanoTime}, or a test's clock */
    CallerCommits(java.util.function.LongSupplier clock) {
        this.clock = clock;
        this.lastCommitEndNanos = clock.getAsLong();
        this.stallEndedNanos = lastCommitEndNanos - STALL_COOL_OFF_NANOS - 1;
    }

    /** Whether a network thread may commit a turn's batches itself ({@code forced}: one of them needs a sync). */
    boolean mayCommit(boolean forced) {
        return !forced
                || medianSyncNanos <= LONGEST_CALLER_SYNC_NANOS
                        && clock.getAsLong() - stallEndedNanos > STALL_COOL_OFF_NANOS;
    }

    /** A disk sync took {@code nanos}; the caller holds the writer's role. */
    void synced(long nanos) {
        if (nanos >= STALLED_SYNC_NANOS) {
            stallEndedNanos = clock.getAsLong();
        }
        syncNanos[syncCount++ % SYNCS_KEPT] = nanos;
        int n = Math.min(syncCount, SYNCS_KEPT);
        System.arraycopy(syncNanos, 0, sorted, 0, n);
        java.util.Arrays.sort(sorted, 0, n);
        medianSyncNanos = sorted[n / 2];
        if (syncCount == 2 * SYNCS_KEPT) {
            syncCount = SYNCS_KEPT; // the same ring position, no overflow
        }
    }

    /** A commit (by the writer or a network thread) ended; the caller holds the writer's role. */
    void committed(long endNanos) {
        lastCommitEndNanos = endNanos;
    }

    /** When the last commit ended: the writer's housekeeping waits for a pause in commits, whoever made them. */
    long lastCommitEndNanos() {
        return lastCommitEndNanos;
    }
}
