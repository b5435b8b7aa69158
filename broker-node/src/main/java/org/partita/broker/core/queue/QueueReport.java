package org.partita.broker.core.queue;

import java.util.List;
import java.util.OptionalLong;
import org.partita.broker.core.dispatch.ConsumerReport;
import org.partita.broker.core.partition.PartitionCounts;
import org.partita.broker.core.partition.PartitionReport;

/**
 * A queue as admin and metrics show it, read at one moment on its executor.
 *
 * @param heldMessages messages it holds: waiting and in flight
 * @param heldBytes    their encoded bytes
 */
public record QueueReport(
        String name,
        QueueOptions options,
        boolean durable,
        long heldMessages,
        long heldBytes,
        List<PartitionReport> partitions,
        List<ConsumerReport> consumers) {

    /** Messages waiting for a consumer. */
    public long depth() {
        return partitions.stream().mapToLong(p -> p.figures().depth()).sum();
    }

    /** Messages delivered and not yet acknowledged. */
    public long inFlight() {
        return partitions.stream().mapToLong(p -> p.figures().inFlight()).sum();
    }

    /** The age of the oldest waiting message of any partition, when one is known. */
    public OptionalLong oldestAgeMillis() {
        return partitions.stream()
                .map(PartitionReport::oldestAgeMillis)
                .filter(OptionalLong::isPresent)
                .mapToLong(OptionalLong::getAsLong)
                .max();
    }

    /** The counts of every partition added up. */
    public PartitionCounts totals() {
        long enq = 0, del = 0, ack = 0, red = 0, dead = 0, exp = 0, hand = 0;
        double rate = 0;
        for (PartitionReport p : partitions) {
            PartitionCounts c = p.counts();
            enq += c.enqueued();
            del += c.delivered();
            ack += c.acknowledged();
            red += c.redelivered();
            dead += c.deadLettered();
            exp += c.expired();
            hand += c.handoffs();
            rate += c.ratePerSecond();
        }
        return new PartitionCounts(enq, del, ack, red, dead, exp, hand, rate);
    }
}
