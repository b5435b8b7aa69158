package org.partita.broker.core;

/**
 * Where a consumer's messages go: implemented by the network layer, which numbers the delivery,
 * remembers it for the acknowledgement and writes the frame. Called on the queue's executor; it
 * must not block.
 */
public interface DeliverySink {
    void deliver(ConsumerRef consumer, QueueEntry entry);

    /** The partitions this consumer owns changed (partitioned queues only). */
    default void partitionsChanged(ConsumerRef consumer, int[] owned) {
    }
}
