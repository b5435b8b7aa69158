package org.partita.broker.core;

import org.partita.broker.core.queue.QueueOptions;

/**
 * Node-wide behaviour of the broker core.
 *
 * @param autoCreateQueues create a queue the first time a producer or consumer names it
 * @param defaultQueueOptions options of queues that are created on first use
 * @param residentBytes payload bytes of stored messages kept in memory before they are paged out
 */
public record BrokerSettings(boolean autoCreateQueues, QueueOptions defaultQueueOptions, long residentBytes) {
    public static final BrokerSettings DEFAULTS = new BrokerSettings(
            true,
            QueueOptions.DEFAULTS,
            org.partita.broker.config.HeapBudgets.current().residentBytes());
}
