package org.partita.broker.network;

import org.partita.broker.core.QueueEntry;

/** A message handed to a consumer of a session and not yet acknowledged or released. */
record Delivery(long id, QueueEntry entry, ServerConsumer consumer) {

    java.util.concurrent.CompletableFuture<Void> ack() {
        return entry.queue().ack(entry, consumer.ref());
    }

    void release(boolean seen) {
        entry.queue().release(entry, consumer.ref(), seen);
    }

    org.partita.broker.core.Broker.Consumed consumed() {
        return new org.partita.broker.core.Broker.Consumed(entry, consumer.ref());
    }
}
