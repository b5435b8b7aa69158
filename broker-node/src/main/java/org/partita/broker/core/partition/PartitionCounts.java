package org.partita.broker.core.partition;

/**
 * What happened to one partition's messages since the node started.
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
public record PartitionCounts(
        long enqueued,
        long delivered,
        long acknowledged,
        long redelivered,
        long deadLettered,
        long expired,
        long handoffs,
        double ratePerSecond) {}
