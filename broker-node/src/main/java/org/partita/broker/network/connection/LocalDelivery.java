package org.partita.broker.network.connection;

import java.util.concurrent.CompletableFuture;
import org.partita.broker.core.queue.QueueEntry;

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
