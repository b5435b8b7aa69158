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

    /** Hands deliveries back queue by queue, each queue's in one go (see {@link org.partita.broker.core.BrokerQueue#releaseAll}). */
    static void releaseAll(java.util.Collection<Delivery> deliveries, java.util.function.Predicate<Delivery> seen) {
        java.util.Map<org.partita.broker.core.BrokerQueue, java.util.List<org.partita.broker.core.BrokerQueue.Returned>> byQueue =
                new java.util.LinkedHashMap<>();
        for (Delivery d : deliveries) {
            byQueue.computeIfAbsent(d.entry().queue(), q -> new java.util.ArrayList<>())
                    .add(new org.partita.broker.core.BrokerQueue.Returned(d.entry(), d.consumer().ref(), seen.test(d)));
        }
        byQueue.forEach(org.partita.broker.core.BrokerQueue::releaseAll);
    }

    org.partita.broker.core.Broker.Consumed consumed() {
        return new org.partita.broker.core.Broker.Consumed(entry, consumer.ref());
    }
}
