package org.partita.jms.api;

import java.util.OptionalLong;

/**
 * A queue's figures, as {@code queue.stat} reports them ({@link PartitaAdmin#queueStats(String)}).
 * The counts start when the node starts.
 *
 * @param depth           messages waiting for a consumer
 * @param inFlight        messages delivered and not yet acknowledged
 * @param heldBytes       encoded bytes of the messages it holds (waiting and in flight)
 * @param oldestAgeMillis age of the oldest waiting message by its JMS timestamp; empty when nothing
 *                        waits or that message has no timestamp
 * @param enqueued        messages put into the queue
 * @param delivered       deliveries, redeliveries included
 * @param acknowledged    messages consumed
 * @param redelivered     deliveries flagged redelivered
 * @param deadLettered    messages moved to the dead-letter queue
 * @param expired         messages that expired while waiting
 * @param handoffs        completed partition handoffs
 * @param ratePerSecond   deliveries per second over the last minute
 */
public record QueueStats(
        String name,
        String mode,
        int partitions,
        boolean durable,
        long depth,
        long inFlight,
        long heldBytes,
        int consumers,
        OptionalLong oldestAgeMillis,
        long enqueued,
        long delivered,
        long acknowledged,
        long redelivered,
        long deadLettered,
        long expired,
        long handoffs,
        double ratePerSecond) {

    static QueueStats of(java.util.Map<String, String> r) {
        return new QueueStats(
                r.get("queue"),
                r.get("mode"),
                Integer.parseInt(r.get("partitions")),
                Boolean.parseBoolean(r.get("durable")),
                Long.parseLong(r.get("depth")),
                Long.parseLong(r.get("inFlight")),
                Long.parseLong(r.get("heldBytes")),
                Integer.parseInt(r.get("consumers")),
                AdminReplies.optionalLong(r, "oldestAgeMillis"),
                Long.parseLong(r.get("enqueued")),
                Long.parseLong(r.get("delivered")),
                Long.parseLong(r.get("acknowledged")),
                Long.parseLong(r.get("redelivered")),
                Long.parseLong(r.get("deadLettered")),
                Long.parseLong(r.get("expired")),
                Long.parseLong(r.get("handoffs")),
                Double.parseDouble(r.get("ratePerSecond")));
    }
}
