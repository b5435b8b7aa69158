package org.partita.broker.core.partition;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * One partition as admin and metrics show it: what it looks like now ({@link Current}) and what
 * happened to it since the node started ({@link Counts}).
 */
public record PartitionFigures(Current current, Counts counts) {

    public int partition() {
        return current.partition();
    }

    /** Age of the oldest waiting message by its JMS timestamp; empty when nothing waits or it has no timestamp. */
    public OptionalLong oldestAgeMillis() {
        return current.oldestAgeMillis() < 0 ? OptionalLong.empty() : OptionalLong.of(current.oldestAgeMillis());
    }

    /** A partition is hot when it holds at least 10 messages and more than twice the others' average. */
    public static List<Current> markHot(List<Current> figures) {
        long total = figures.stream().mapToLong(Current::depth).sum();
        int n = figures.size();
        List<Current> out = new ArrayList<>(n);
        for (Current f : figures) {
            double othersAverage = n > 1 ? (double) (total - f.depth()) / (n - 1) : Double.MAX_VALUE;
            boolean hot = f.depth() >= 10 && f.depth() > 2 * othersAverage;
            out.add(new Current(
                    f.partition(),
                    f.depth(),
                    f.inFlight(),
                    f.owner(),
                    f.state(),
                    f.oldestAgeMillis(),
                    f.delivered(),
                    f.ratePerSecond(),
                    hot));
        }
        return out;
    }

    /**
     * What one partition looks like now.
     *
     * @param depth           messages waiting
     * @param inFlight        messages delivered and not yet acknowledged
     * @param owner           the owner consumer, or null
     * @param state           UNASSIGNED, ASSIGNED or DRAINING (SHARED for a queue without partitions)
     * @param oldestAgeMillis age of the oldest waiting message (by its JMS timestamp)
     * @param delivered       messages delivered since the node started
     * @param ratePerSecond   deliveries per second over the last minute (over the queue's life while younger)
     * @param hot             far deeper than the queue's other partitions: a hot key is likely
     */
    public record Current(
            int partition,
            int depth,
            int inFlight,
            String owner,
            String state,
            long oldestAgeMillis,
            long delivered,
            double ratePerSecond,
            boolean hot) {}

    /**
     * What happened to one partition's messages since the node started, as the queue's live
     * counters read at one moment.
     *
     * @param enqueued       messages put into it (sent, published, moved in from another queue)
     * @param delivered      deliveries to consumers, redeliveries included
     * @param acknowledged   messages consumed (acknowledged or committed)
     * @param redelivered    deliveries flagged redelivered (the application had seen the message before)
     * @param deadLettered   messages moved to the dead-letter queue
     * @param expired        messages that expired while waiting
     * @param handoffs       completed moves of the partition from one owner consumer (partitioned queues)
     * @param ratePerSecond  deliveries per second over the last minute (over the queue's life when younger)
     */
    public record Counts(
            long enqueued,
            long delivered,
            long acknowledged,
            long redelivered,
            long deadLettered,
            long expired,
            long handoffs,
            double ratePerSecond) {}
}
