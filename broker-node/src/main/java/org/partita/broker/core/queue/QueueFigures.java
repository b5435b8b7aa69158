package org.partita.broker.core.queue;

import java.util.List;
import java.util.OptionalLong;
import org.partita.broker.core.dispatch.ConsumerFigures;
import org.partita.broker.core.partition.PartitionFigures;

/**
 * A queue as admin and metrics show it, read at one moment on its executor.
 *
 * @param heldMessages messages it holds: waiting and in flight
 * @param heldBytes    their encoded bytes
 */
public record QueueFigures(
        String name,
        QueueOptions options,
        boolean durable,
        long heldMessages,
        long heldBytes,
        List<PartitionFigures> partitions,
        List<ConsumerFigures> consumers) {

    /** Messages waiting for a consumer. */
    public long depth() {
        return partitions.stream().mapToLong(p -> p.current().depth()).sum();
    }

    /** Messages delivered and not yet acknowledged. */
    public long inFlight() {
        return partitions.stream().mapToLong(p -> p.current().inFlight()).sum();
    }

    /** The age of the oldest waiting message of any partition, when one is known. */
    public OptionalLong oldestAgeMillis() {
        return partitions.stream()
                .map(PartitionFigures::oldestAgeMillis)
                .filter(OptionalLong::isPresent)
                .mapToLong(OptionalLong::getAsLong)
                .max();
    }

    /** The counts of every partition added up. */
    public PartitionFigures.Counts totals() {
        long enq = 0, del = 0, ack = 0, red = 0, dead = 0, exp = 0, hand = 0;
        double rate = 0;
        for (PartitionFigures p : partitions) {
            PartitionFigures.Counts c = p.counts();
            enq += c.enqueued();
            del += c.delivered();
            ack += c.acknowledged();
            red += c.redelivered();
            dead += c.deadLettered();
            exp += c.expired();
            hand += c.handoffs();
            rate += c.ratePerSecond();
        }
        return new PartitionFigures.Counts(enq, del, ack, red, dead, exp, hand, rate);
    }
}
