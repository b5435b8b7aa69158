package org.partita.broker.core.partition;

import java.util.OptionalLong;

/** One partition as admin and metrics show it: its state now and what happened to it. */
public record PartitionReport(PartitionFigures figures, PartitionCounts counts) {

    public int partition() {
        return figures.partition();
    }

    /** Age of the oldest waiting message by its JMS timestamp; empty when nothing waits or it has no timestamp. */
    public OptionalLong oldestAgeMillis() {
        return figures.oldestAgeMillis() < 0 ? OptionalLong.empty() : OptionalLong.of(figures.oldestAgeMillis());
    }
}
