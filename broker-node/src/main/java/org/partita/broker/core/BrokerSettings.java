package org.partita.broker.core;

/**
 * Node-wide behaviour of the broker core.
 *
 * @param autoCreateQueues create a queue the first time a producer or consumer names it
 * @param defaultQueueOptions options of queues that are created on first use
 */
public record BrokerSettings(boolean autoCreateQueues, QueueOptions defaultQueueOptions) {
    public static final BrokerSettings DEFAULTS = new BrokerSettings(true, QueueOptions.DEFAULTS);
}
