package org.partita.broker.core.partition;

import java.util.ArrayList;
import java.util.List;

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
public record PartitionFigures(
        int partition,
        int depth,
        int inFlight,
        String owner,
        String state,
        long oldestAgeMillis,
        long delivered,
        double ratePerSecond,
        boolean hot) {

    /** A partition is hot when it holds at least 10 messages and more than twice the others' average. */
    public static List<PartitionFigures> markHot(List<PartitionFigures> figures) {
        long total = figures.stream().mapToLong(PartitionFigures::depth).sum();
        int n = figures.size();
        List<PartitionFigures> out = new ArrayList<>(n);
        for (PartitionFigures f : figures) {
            double othersAverage = n > 1 ? (double) (total - f.depth()) / (n - 1) : Double.MAX_VALUE;
            boolean hot = f.depth() >= 10 && f.depth() > 2 * othersAverage;
            out.add(new PartitionFigures(
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
}
