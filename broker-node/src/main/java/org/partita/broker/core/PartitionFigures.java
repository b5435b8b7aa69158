package org.partita.broker.core;

/**
 * What one partition looks like now.
 *
 * @param depth          messages waiting
 * @param inFlight       messages delivered and not yet acknowledged
 * @param owner          the owner consumer, or null
 * @param state          UNASSIGNED, ASSIGNED or DRAINING
 * @param oldestAgeMillis age of the oldest waiting message (by its JMS timestamp)
 */
public record PartitionFigures(int partition, int depth, int inFlight, String owner, String state, long oldestAgeMillis) {
}
