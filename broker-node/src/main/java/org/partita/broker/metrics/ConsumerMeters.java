package org.partita.broker.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import org.partita.broker.core.dispatch.ConsumerFigures;
import org.partita.broker.core.queue.QueueFigures;

/**
 * The meters of each consumer, labelled as its queue's ({@code queue}, {@code subscription}) plus
 * {@code consumer}: the name {@code partita consumers} and the console show, its id and its
 * connection's address ({@code consumer 3 of /10.0.0.7:51234}). They read the figures each
 * consumer keeps anyway (nothing is added per message), as of the last {@link #update}.
 *
 * <p>A consumer's meters are registered at the first update that sees it and removed at the first
 * that no longer does, so a scrape (which updates first) never lists a closed consumer and the
 * registries do not grow with consumers come and gone. Clients decide how many consumers there
 * are: only the first {@code limit} get meters; {@code partita.consumers.unlabelled} counts the
 * others, which get theirs as slots free up.
 */
final class ConsumerMeters {
    private final Meters meters;
    private final int limit;
    private final Map<String, ConsumerLevel> labelled = new HashMap<>();
    private final Meter.Id unlabelledId;
    private volatile int unlabelled;

    ConsumerMeters(Meters meters, int limit) {
        this.meters = meters;
        this.limit = limit;
        this.unlabelledId = meters.gauge(
                "partita.consumers.unlabelled",
                "consumers without meters of their own, past metrics.consumerLabels",
                null,
                Tags.empty(),
                this,
                m -> m.unlabelled);
    }

    /** Brings the consumer meters in line with the consumers of these queues. */
    synchronized void update(List<QueueFigures> figures) {
        Map<String, Attached> now = new LinkedHashMap<>();
        for (QueueFigures q : figures) {
            for (ConsumerFigures c : q.consumers()) {
                now.put(q.name() + "\u0000" + c.consumer(), new Attached(q, c));
            }
        }
        // the closed first, so that their slots go to consumers waiting for one
        labelled.entrySet()
                .removeIf(e -> !now.containsKey(e.getKey()) && e.getValue().remove());
        int left = 0;
        for (Map.Entry<String, Attached> e : now.entrySet()) {
            ConsumerLevel level = labelled.get(e.getKey());
            if (level == null) {
                if (labelled.size() >= limit) {
                    left++;
                    continue;
                }
                level = new ConsumerLevel(e.getValue());
                labelled.put(e.getKey(), level);
            }
            level.latest = e.getValue().consumer();
        }
        unlabelled = left;
    }

    synchronized void close() {
        labelled.values().forEach(ConsumerLevel::remove);
        labelled.clear();
        meters.remove(unlabelledId);
    }

    private record Attached(QueueFigures queue, ConsumerFigures consumer) {
        /** A queue of partitions, each with an owner (a queue without them is served by all its consumers). */
        boolean partitioned() {
            return queue.partitions().stream()
                    .noneMatch(p -> "SHARED".equals(p.current().state()));
        }
    }

    /** Figures of one consumer. */
    private final class ConsumerLevel {
        private final Tags tags;
        private final List<Meter.Id> ids = new ArrayList<>();
        private volatile ConsumerFigures latest;

        ConsumerLevel(Attached a) {
            this.tags = QueueMeters.tags(a.queue().name())
                    .and("consumer", a.consumer().consumer());
            this.latest = a.consumer();
            counter("delivered", "deliveries to the consumer, redeliveries included", ConsumerFigures::delivered);
            counter("acknowledged", "messages the consumer consumed", ConsumerFigures::acknowledged);
            counter("redelivered", "deliveries to the consumer flagged redelivered", ConsumerFigures::redelivered);
            ids.add(meters.gauge(
                    "partita.consumer.messages.in.flight",
                    "messages delivered to the consumer, not yet" + " acknowledged",
                    null,
                    tags,
                    this,
                    l -> l.latest.inFlight()));
            if (a.partitioned()) {
                ids.add(meters.gauge(
                        "partita.consumer.partitions",
                        "partitions the consumer owns",
                        null,
                        tags,
                        this,
                        l -> l.latest.partitions().size()));
            }
        }

        private void counter(String what, String description, ToLongFunction<ConsumerFigures> value) {
            ids.add(meters.counter(
                    "partita.consumer.messages." + what,
                    description,
                    null,
                    tags,
                    this,
                    l -> value.applyAsLong(l.latest)));
        }

        boolean remove() {
            ids.forEach(meters::remove);
            return true;
        }
    }
}
