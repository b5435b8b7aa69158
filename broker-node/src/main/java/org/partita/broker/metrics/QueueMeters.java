package org.partita.broker.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;
import org.partita.broker.core.partition.PartitionFigures;
import org.partita.broker.core.queue.QueueFigures;

/**
 * The meters of every queue and partition. Queues come and go, so each {@link #update} takes the
 * node's queue figures and registers the meters of new queues and partitions, removes those of
 * queues that are gone, and registers the oldest-message age only while it is known: a figure
 * that is not measured is absent, never zero.
 *
 * <p>Labels: {@code queue} (an AppId queue {@code orders#billing} is {@code queue="orders"}),
 * {@code subscription} (the AppId, else empty) and, per partition, {@code partition}.
 */
final class QueueMeters {
    private final Meters meters;
    private final Map<String, QueueLevel> queues = new HashMap<>();
    private final Map<String, PartitionLevel> partitions = new HashMap<>();

    QueueMeters(Meters meters) {
        this.meters = meters;
    }

    /** Brings the meters in line with the queues' figures. */
    synchronized void update(List<QueueFigures> figures) {
        Set<String> seenQueues = new HashSet<>();
        Set<String> seenPartitions = new HashSet<>();
        for (QueueFigures q : figures) {
            Tags tags = tags(q.name());
            seenQueues.add(q.name());
            queues.computeIfAbsent(q.name(), n -> new QueueLevel(tags)).latest = q;
            for (PartitionFigures p : q.partitions()) {
                String key = q.name() + "\u0000" + p.partition();
                seenPartitions.add(key);
                partitions
                        .computeIfAbsent(
                                key, k -> new PartitionLevel(tags.and("partition", Integer.toString(p.partition()))))
                        .update(p);
            }
        }
        queues.entrySet()
                .removeIf(e -> !seenQueues.contains(e.getKey()) && e.getValue().remove());
        partitions
                .entrySet()
                .removeIf(e ->
                        !seenPartitions.contains(e.getKey()) && e.getValue().remove());
    }

    synchronized void close() {
        queues.values().forEach(QueueLevel::remove);
        partitions.values().forEach(PartitionLevel::remove);
        queues.clear();
        partitions.clear();
    }

    static Tags tags(String queue) {
        int hash = queue.indexOf('#');
        return hash < 0
                ? Tags.of("queue", queue, "subscription", "")
                : Tags.of("queue", queue.substring(0, hash), "subscription", queue.substring(hash + 1));
    }

    /** Figures of a whole queue. */
    private final class QueueLevel {
        private final List<Meter.Id> ids = new ArrayList<>();
        private volatile QueueFigures latest;

        QueueLevel(Tags tags) {
            ids.add(meters.gauge(
                    "partita.queue.consumers",
                    "consumers attached to the queue",
                    null,
                    tags,
                    this,
                    l -> l.latest.consumers().size()));
            ids.add(meters.gauge(
                    "partita.queue.held",
                    "encoded bytes of the messages the queue holds, waiting and in flight",
                    "bytes",
                    tags,
                    this,
                    l -> l.latest.heldBytes()));
        }

        boolean remove() {
            ids.forEach(meters::remove);
            return true;
        }
    }

    /** Figures of one partition (the only one of a queue without partitions). */
    private final class PartitionLevel {
        private final Tags tags;
        private final List<Meter.Id> ids = new ArrayList<>();
        private volatile PartitionFigures latest;
        private Meter.Id age;

        PartitionLevel(Tags tags) {
            this.tags = tags;
        }

        void update(PartitionFigures p) {
            latest = p;
            if (ids.isEmpty()) {
                register();
            }
            if (p.oldestAgeMillis().isPresent() && age == null) {
                age = meters.gauge(
                        "partita.queue.oldest.message.age",
                        "age of the oldest waiting message, by its JMS timestamp",
                        "seconds",
                        tags,
                        this,
                        l -> l.latest.oldestAgeMillis().orElse(0) / 1000.0);
            } else if (p.oldestAgeMillis().isEmpty() && age != null) {
                meters.remove(age);
                age = null;
            }
        }

        private void register() {
            ids.add(meters.gauge(
                    "partita.queue.messages",
                    "messages waiting for a consumer",
                    null,
                    tags,
                    this,
                    l -> l.latest.current().depth()));
            ids.add(meters.gauge(
                    "partita.queue.messages.in.flight",
                    "messages delivered and not yet acknowledged",
                    null,
                    tags,
                    this,
                    l -> l.latest.current().inFlight()));
            ids.add(meters.gauge(
                    "partita.queue.partition.owned",
                    "1 when the partition has an owner consumer receiving it",
                    null,
                    tags,
                    this,
                    l -> "ASSIGNED".equals(l.latest.current().state()) ? 1 : 0));
            counter("enqueued", "messages put into the queue", PartitionFigures.Counts::enqueued);
            counter("delivered", "deliveries to consumers, redeliveries included", PartitionFigures.Counts::delivered);
            counter("acknowledged", "messages consumed", PartitionFigures.Counts::acknowledged);
            counter("redelivered", "deliveries flagged redelivered", PartitionFigures.Counts::redelivered);
            counter("dead.lettered", "messages moved to the dead-letter queue", PartitionFigures.Counts::deadLettered);
            counter("expired", "messages that expired while waiting", PartitionFigures.Counts::expired);
            ids.add(meters.counter(
                    "partita.queue.partition.handoffs",
                    "completed moves of the partition away from an owner",
                    null,
                    tags,
                    this,
                    l -> l.latest.counts().handoffs()));
        }

        private void counter(String what, String description, ToLongFunction<PartitionFigures.Counts> value) {
            ids.add(meters.counter(
                    "partita.queue.messages." + what,
                    description,
                    null,
                    tags,
                    this,
                    l -> value.applyAsLong(l.latest.counts())));
        }

        boolean remove() {
            ids.forEach(meters::remove);
            if (age != null) {
                meters.remove(age);
            }
            return true;
        }
    }
}
