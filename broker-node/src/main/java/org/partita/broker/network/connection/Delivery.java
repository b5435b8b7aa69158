package org.partita.broker.network.connection;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.partita.broker.core.Broker;
import org.partita.broker.core.queue.BrokerQueue;

/**
 * A message handed to a consumer of a session and not yet acknowledged or released: from a queue of
 * this node ({@link LocalDelivery}), or from another node of the cluster ({@link RemoteDelivery}).
 */
sealed interface Delivery permits LocalDelivery, RemoteDelivery {

    long id();

    ServerConsumer consumer();

    /** Consumes it; completes once that is durable where the message lives. */
    CompletableFuture<Void> ack();

    /** Hands it back; {@code seen}: the application saw it, so it comes back redelivered. */
    void release(boolean seen);

    /**
     * Hands deliveries back: each local queue's in one go (see {@link BrokerQueue#releaseAll}), so the
     * next dispatch starts afresh; remote ones to their nodes.
     */
    static void releaseAll(Collection<Delivery> deliveries, Predicate<Delivery> seen) {
        Map<BrokerQueue, List<BrokerQueue.Returned>> byQueue = new LinkedHashMap<>();
        for (Delivery d : deliveries) {
            if (d instanceof LocalDelivery l) {
                byQueue.computeIfAbsent(l.entry().queue(), q -> new ArrayList<>())
                        .add(new BrokerQueue.Returned(l.entry(), l.consumer().ref(), seen.test(d)));
            } else {
                d.release(seen.test(d));
            }
        }
        byQueue.forEach(BrokerQueue::releaseAll);
    }

    /** What a committed transaction consumed here (remote deliveries are acknowledged after the commit). */
    static List<Broker.Consumed> localConsumed(Collection<Delivery> deliveries) {
        List<Broker.Consumed> out = new ArrayList<>();
        for (Delivery d : deliveries) {
            if (d instanceof LocalDelivery l) {
                out.add(new Broker.Consumed(l.entry(), l.consumer().ref()));
            }
        }
        return out;
    }
}
