package org.partita.broker.store.replica;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.ratis.metrics.LongCounter;
import org.apache.ratis.metrics.MetricRegistries;
import org.apache.ratis.metrics.MetricRegistryInfo;
import org.apache.ratis.metrics.RatisMetricRegistry;
import org.apache.ratis.metrics.Timekeeper;
import org.apache.ratis.util.TimeDuration;

/**
 * Apache Ratis's metrics, not recorded. Ratis times every request, append, flush and apply with
 * its metrics library (Dropwizard's timers and histograms, in ratis-metrics-default): about 7 % of
 * the CPU samples of the benchmark's replicated S2, and nothing reads them: the node's own metrics
 * (Micrometer) say what a replica set does ({@link ReplicaSetFigures}), from Ratis's state rather
 * than its metrics. Ratis finds this implementation through {@link java.util.ServiceLoader}
 * ({@code META-INF/services}).
 */
public final class UnrecordedRatisMetrics extends MetricRegistries {
    private static final Timekeeper.Context STOPPED = () -> 0L;
    private static final Timekeeper TIMER = () -> STOPPED;
    private static final LongCounter COUNTER = new LongCounter() {
        @Override
        public void inc(long n) {}

        @Override
        public void dec(long n) {}

        @Override
        public long getCount() {
            return 0;
        }
    };

    /** The registries Ratis made, kept so that it finds them again (it looks them up by their info). */
    private final Map<MetricRegistryInfo, RatisMetricRegistry> registries = new ConcurrentHashMap<>();

    @Override
    public void clear() {
        registries.clear();
    }

    @Override
    public RatisMetricRegistry create(MetricRegistryInfo info) {
        return registries.computeIfAbsent(info, Registry::new);
    }

    @Override
    public boolean remove(MetricRegistryInfo key) {
        return registries.remove(key) != null;
    }

    @Override
    public Optional<RatisMetricRegistry> get(MetricRegistryInfo info) {
        return Optional.ofNullable(registries.get(info));
    }

    @Override
    public Set<MetricRegistryInfo> getMetricRegistryInfos() {
        return Set.copyOf(registries.keySet());
    }

    @Override
    public Collection<RatisMetricRegistry> getMetricRegistries() {
        return List.copyOf(registries.values());
    }

    @Override
    public void addReporterRegistration(
            Consumer<RatisMetricRegistry> reporterRegistration, Consumer<RatisMetricRegistry> stopReporter) {}

    @Override
    public void enableJmxReporter() {}

    @Override
    public void enableConsoleReporter(TimeDuration consoleReportRate) {}

    /** A registry whose timers, counters and gauges keep nothing. */
    private record Registry(MetricRegistryInfo info) implements RatisMetricRegistry {
        @Override
        public Timekeeper timer(String name) {
            return TIMER;
        }

        @Override
        public LongCounter counter(String name) {
            return COUNTER;
        }

        @Override
        public boolean remove(String name) {
            return true;
        }

        @Override
        public <T> void gauge(String name, Supplier<Supplier<T>> gaugeSupplier) {}

        @Override
        public MetricRegistryInfo getMetricRegistryInfo() {
            return info;
        }
    }
}
