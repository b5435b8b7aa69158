package org.partita.broker.core.dispatch;

import org.partita.broker.core.queue.QueueEntry;

/**
 * Where a consumer's messages go: implemented by the network layer, which numbers the delivery,
 * remembers it for the acknowledgement and writes the frame. Called on the queue's executor; it
 * must not block.
 */
public interface DeliverySink {
    /**
     * @param partition the partition the client is told the message comes from, so it can give back
     *                  what it prefetched of a partition it loses; -1 when there is none to tell
     */
    void deliver(ConsumerRef consumer, QueueEntry entry, int partition);

    /** The partitions this consumer owns changed (partitioned queues only). */
    default void partitionsChanged(ConsumerRef consumer, int[] owned) {}
}
