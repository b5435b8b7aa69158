package org.partita.broker.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * Registers each meter in every registry the node publishes to (Prometheus and JMX), so the two
 * always show the same figures, and removes it from all of them.
 */
final class Meters {
    private final List<MeterRegistry> registries;

    Meters(List<MeterRegistry> registries) {
        this.registries = registries;
    }

    <T> Meter.Id gauge(
            String name, String description, String baseUnit, Tags tags, T source, ToDoubleFunction<T> value) {
        Meter.Id id = null;
        for (MeterRegistry r : registries) {
            id = Gauge.builder(name, source, value)
                    .description(description)
                    .baseUnit(baseUnit)
                    .tags(tags)
                    .strongReference(true)
                    .register(r)
                    .getId();
        }
        return id;
    }

    <T> Meter.Id counter(
            String name, String description, String baseUnit, Tags tags, T source, ToDoubleFunction<T> value) {
        Meter.Id id = null;
        for (MeterRegistry r : registries) {
            id = FunctionCounter.builder(name, source, value)
                    .description(description)
                    .baseUnit(baseUnit)
                    .tags(tags)
                    .register(r)
                    .getId();
        }
        return id;
    }

    /** A count of events and their total time in nanoseconds, as {@code _count} and {@code _sum} seconds. */
    <T> Meter.Id functionTimer(
            String name,
            String description,
            Tags tags,
            T source,
            ToLongFunction<T> count,
            ToDoubleFunction<T> totalNanos) {
        Meter.Id id = null;
        for (MeterRegistry r : registries) {
            id = FunctionTimer.builder(name, source, count, totalNanos, TimeUnit.NANOSECONDS)
                    .description(description)
                    .tags(tags)
                    .register(r)
                    .getId();
        }
        return id;
    }

    void remove(Meter.Id id) {
        for (MeterRegistry r : registries) {
            r.remove(id);
        }
    }
}
