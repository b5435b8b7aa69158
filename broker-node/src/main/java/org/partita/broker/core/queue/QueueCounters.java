package org.partita.broker.core.queue;

import java.util.Arrays;
import org.partita.broker.core.partition.PartitionFigures;

/**
 * Counts what happens to one queue's messages, per partition (a queue without partitions counts
 * everything in partition 0): its one job is counting. The queue's executor writes; admin and
 * metrics read from any thread, so every figure is read under the partition's monitor.
 *
 * <p>The counts start when the node starts: they are not stored.
 */
public final class QueueCounters {
    /** The rate is taken over this many one-second buckets. */
    static final int RATE_WINDOW_SECONDS = 60;

    private final long createdAt;
    private volatile Partition[] partitions = new Partition[0];

    QueueCounters(long now) {
        this.createdAt = now;
    }

    void enqueued(int partition) {
        partition(partition).add(Kind.ENQUEUED);
    }

    /** @param redelivery the consumer sees it flagged redelivered (it was seen before) */
    void delivered(int partition, boolean redelivery, long now) {
        Partition p = partition(partition);
        p.delivered(now);
        if (redelivery) {
            p.add(Kind.REDELIVERED);
        }
    }

    void acknowledged(int partition) {
        partition(partition).add(Kind.ACKNOWLEDGED);
    }

    void deadLettered(int partition) {
        partition(partition).add(Kind.DEAD_LETTERED);
    }

    void expired(int partition) {
        partition(partition).add(Kind.EXPIRED);
    }

    void handedOff(int partition) {
        partition(partition).add(Kind.HANDOFFS);
    }

    /** The counts of one partition now; zeros for a partition nothing happened to yet. */
    public PartitionFigures.Counts read(int partition, long now) {
        Partition[] ps = partitions;
        if (partition < ps.length && ps[partition] != null) {
            return ps[partition].read(now, createdAt);
        }
        return new PartitionFigures.Counts(0, 0, 0, 0, 0, 0, 0, 0.0);
    }

    private Partition partition(int p) {
        int i = Math.max(0, p); // an entry not placed in a partition belongs to the only one
        Partition[] ps = partitions;
        if (i < ps.length && ps[i] != null) {
            return ps[i];
        }
        synchronized (this) {
            ps = partitions;
            if (i >= ps.length) {
                ps = Arrays.copyOf(ps, i + 1);
            }
            if (ps[i] == null) {
                ps[i] = new Partition();
            }
            partitions = ps;
            return ps[i];
        }
    }

    private enum Kind {
        ENQUEUED,
        ACKNOWLEDGED,
        REDELIVERED,
        DEAD_LETTERED,
        EXPIRED,
        HANDOFFS
    }

    private static final class Partition {
        private final long[] counts = new long[Kind.values().length];
        private long delivered;
        /** Deliveries per second of the last {@link #RATE_WINDOW_SECONDS} seconds, as a ring. */
        private final long[] buckets = new long[RATE_WINDOW_SECONDS];

        private long bucketSecond = -1;

        synchronized void add(Kind k) {
            counts[k.ordinal()]++;
        }

        synchronized void delivered(long now) {
            delivered++;
            roll(now / 1000);
            buckets[(int) (bucketSecond % RATE_WINDOW_SECONDS)]++;
        }

        /** Clears the buckets of the seconds that passed since the last one written. */
        private void roll(long second) {
            if (bucketSecond < 0) {
                bucketSecond = second;
                return;
            }
            long gap = Math.min(RATE_WINDOW_SECONDS, second - bucketSecond);
            for (long s = 1; s <= gap; s++) {
                buckets[(int) ((bucketSecond + s) % RATE_WINDOW_SECONDS)] = 0;
            }
            bucketSecond = Math.max(bucketSecond, second);
        }

        synchronized PartitionFigures.Counts read(long now, long createdAt) {
            roll(now / 1000);
            long inWindow = 0;
            for (long b : buckets) {
                inWindow += b;
            }
            // A queue younger than the window is measured over its life, at least one second.
            double seconds = Math.max(1.0, Math.min(RATE_WINDOW_SECONDS, (now - createdAt) / 1000.0));
            return new PartitionFigures.Counts(
                    counts[Kind.ENQUEUED.ordinal()],
                    delivered,
                    counts[Kind.ACKNOWLEDGED.ordinal()],
                    counts[Kind.REDELIVERED.ordinal()],
                    counts[Kind.DEAD_LETTERED.ordinal()],
                    counts[Kind.EXPIRED.ordinal()],
                    counts[Kind.HANDOFFS.ordinal()],
                    inWindow / seconds);
        }
    }
}
