package org.partita.broker.network.connection;

import org.partita.broker.core.queue.QueueEntry;

import java.util.concurrent.CompletableFuture;

/** A delivery from a queue of this node. */
record LocalDelivery(long id, QueueEntry entry, ServerConsumer consumer) implements Delivery {

    @Override
    public CompletableFuture<Void> ack() {
        return entry.queue().ack(entry, consumer.ref());
    }

    @Override
    public void release(boolean seen) {
        entry.queue().release(entry, consumer.ref(), seen);
    }
}
