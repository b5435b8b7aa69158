package org.partita.broker.metrics;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.jmx.JmxConfig;
import io.micrometer.jmx.JmxMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.partita.broker.admin.ConnectionInfo;
import org.partita.broker.admin.ConnectionRegistry;
import org.partita.broker.admin.NodeReader;
import org.partita.broker.core.queue.QueueFigures;
import org.partita.broker.store.StoreCounters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's meters (Micrometer), published to Prometheus (scraped through {@link #scrape()}) and
 * to JMX under the {@code org.partita.metrics} domain, with the same names and values. Names
 * follow Prometheus conventions: {@code partita_queue_messages}, base units, {@code _total} for
 * counters. Queue and consumer meters are refreshed at each scrape and every {@link #REFRESH_SECONDS} seconds
 * for JMX readers.
 */
public final class NodeMetrics implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeMetrics.class);
    static final int REFRESH_SECONDS = 10;

    private final PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JmxMeterRegistry jmx = new JmxMeterRegistry(
            new JmxConfig() {
                @Override
                public String get(String key) {
                    return null;
                }

                @Override
                public String domain() {
                    return "org.partita.metrics";
                }
            },
            Clock.SYSTEM);
    private final NodeReader reader;
    private final QueueMeters queues;
    private final ConsumerMeters consumers;
    private final ReplicaSetMeters replicaSets;
    /** The replica sets of this node, when it is a member of a cluster. */
    private volatile java.util.function.Supplier<List<org.partita.broker.store.replica.ReplicaSetFigures>>
            replicaSetFigures = List::of;

    private final ScheduledExecutorService refresher;

    /** @param consumerLabels the most consumers that get meters of their own ({@code metrics.consumerLabels}) */
    public NodeMetrics(NodeReader reader, int consumerLabels) {
        List<MeterRegistry> registries = List.of(prometheus, jmx);
        Meters meters = new Meters(registries);
        this.reader = reader;
        this.queues = new QueueMeters(meters);
        this.consumers = new ConsumerMeters(meters, consumerLabels);
        this.replicaSets = new ReplicaSetMeters(meters);
        nodeMeters(reader, meters);
        for (MeterRegistry r : registries) {
            new JvmMemoryMetrics().bindTo(r);
        }
        refresh();
        this.refresher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "partita-metrics");
            t.setDaemon(true);
            return t;
        });
        refresher.scheduleWithFixedDelay(this::refresh, REFRESH_SECONDS, REFRESH_SECONDS, TimeUnit.SECONDS);
    }

    private static void nodeMeters(NodeReader reader, Meters meters) {
        ConnectionRegistry conns = reader.connectionRegistry();
        Tags none = Tags.empty();
        meters.gauge(
                "partita.connections",
                "open client connections",
                null,
                none,
                conns,
                c -> c.connections().size());
        meters.gauge(
                "partita.sessions",
                "open sessions of all connections",
                null,
                none,
                conns,
                c -> c.connections().stream().mapToInt(ConnectionInfo::sessions).sum());
        meters.counter(
                "partita.network.received",
                "bytes received from clients",
                "bytes",
                none,
                conns,
                ConnectionRegistry::bytesIn);
        meters.counter(
                "partita.network.sent", "bytes sent to clients", "bytes", none, conns, ConnectionRegistry::bytesOut);
        meters.counter(
                "partita.logins.failed",
                "logins refused for their credentials",
                null,
                none,
                conns,
                ConnectionRegistry::failedLogins);
        meters.gauge(
                "partita.store.size",
                "bytes of the node's data folder on disk",
                "bytes",
                none,
                reader,
                NodeReader::storeBytes);
        meters.gauge(
                "partita.large.bodies",
                "large message bodies kept in the data folder's large/ (docs/large-messages.md)",
                null,
                none,
                reader,
                r -> r.broker().largeBodies() == null
                        ? 0
                        : r.broker().largeBodies().count());
        meters.gauge(
                "partita.large.body",
                "bytes of the large message bodies kept in the data folder's large/",
                "bytes",
                none,
                reader,
                r -> r.broker().largeBodies() == null
                        ? 0
                        : r.broker().largeBodies().bytes());
        meters.gauge(
                "partita.resident.payload",
                "payload bytes of stored messages held in memory",
                "bytes",
                none,
                reader,
                r -> r.broker().payloadMemory().residentBytes());
        meters.gauge(
                "partita.resident.payload.limit",
                "the node's residentBytes setting",
                "bytes",
                none,
                reader,
                NodeReader::residentBudgetBytes);
        meters.gauge(
                "partita.in.flight",
                "bytes of frames being read, of sends not yet stored or queued and waiting to be written",
                "bytes",
                none,
                reader,
                NodeReader::inFlightBytes);
        meters.gauge(
                "partita.in.flight.limit",
                "the node's limits.inFlightBytes setting",
                "bytes",
                none,
                reader,
                NodeReader::inFlightLimitBytes);
        meters.counter(
                "partita.paged.out.messages",
                "messages paged out of memory (restored ones included)",
                null,
                none,
                reader,
                r -> r.broker().payloadMemory().pagedOutCount());
        reader.broker().store().counters().ifPresent(f -> {
            meters.counter(
                    "partita.store.commit.groups",
                    "group commits: one transaction (and at most one disk sync) each",
                    null,
                    none,
                    f,
                    StoreCounters::groups);
            meters.counter(
                    "partita.store.commit.groups.by.caller",
                    "of the group commits, those a network thread made"
                            + " itself at the end of its turn, the writer being idle",
                    null,
                    none,
                    f,
                    StoreCounters::groupsByCaller);
            meters.counter(
                    "partita.store.commit.batches",
                    "batches committed; divided by the groups, the group size",
                    null,
                    none,
                    f,
                    StoreCounters::batches);
            meters.counter(
                    "partita.store.syncs",
                    "disk syncs forced to confirm persistent sends",
                    null,
                    none,
                    f,
                    StoreCounters::syncs);
            meters.functionTimer(
                    "partita.store.checkpoint",
                    "checkpoints moving the journal's net effect into H2",
                    none,
                    f,
                    StoreCounters::checkpoints,
                    StoreCounters::checkpointNanos);
            meters.counter(
                    "partita.store.checkpoint.wait",
                    "time the store's writer held appends back to wait for a"
                            + " checkpoint: H2 fell two journal segments behind, or a read needed H2 up to date",
                    "seconds",
                    none,
                    f,
                    x -> x.checkpointWaitNanos() / 1e9);
            meters.gauge(
                    "partita.store.checkpoint.running",
                    "1 while a checkpoint moves a closed journal segment into"
                            + " H2 (appends go on meanwhile), else 0",
                    null,
                    none,
                    f,
                    x -> x.checkpointInProgress() ? 1 : 0);
            meters.gauge(
                    "partita.store.checkpoint.pending",
                    "payload bytes of the closed journal segment the checkpoint"
                            + " in progress still holds on the heap: they fall part by part as H2 commits them; 0 when none runs",
                    "bytes",
                    none,
                    f,
                    StoreCounters::checkpointPendingBytes);
            meters.counter(
                    "partita.store.writer.allocated",
                    "journal bytes the store's writer zero-filled itself between"
                            + " group commits, the space ahead of it not being prepared in time; 0 in steady state",
                    "bytes",
                    none,
                    f,
                    StoreCounters::writerAllocatedBytes);
            meters.gauge(
                    "partita.store.writable",
                    "1 while the store writes, 0 while an I/O fault (disk full, failed sync)"
                            + " refuses persistent work until it reopens",
                    null,
                    none,
                    f,
                    x -> x.fault() == null ? 1 : 0);
            meters.counter(
                    "partita.store.faults",
                    "times an I/O fault stopped the store's writes",
                    null,
                    none,
                    f,
                    StoreCounters::faults);
            meters.counter(
                    "partita.store.recoveries",
                    "times the store reopened itself after a fault",
                    null,
                    none,
                    f,
                    StoreCounters::recoveries);
            meters.counter(
                    "partita.store.compactions",
                    "online compactions that gave H2 file space back",
                    null,
                    none,
                    f,
                    StoreCounters::compactions);
            meters.gauge(
                    "partita.store.files",
                    "bytes of the H2 database and journal files",
                    "bytes",
                    none,
                    f,
                    StoreCounters::fileBytes);
        });
        meters.gauge(
                "partita.direct.memory.limit",
                "the most direct (off-heap) memory the JVM allows",
                "bytes",
                none,
                reader,
                r -> io.netty.util.internal.PlatformDependent.maxDirectMemory());
    }

    /** Reads the queues' figures and brings the queue and consumer meters in line with them. */
    private synchronized void refresh() {
        List<QueueFigures> figures;
        try {
            figures = reader.queues().get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.warn("queue figures could not be read for the metrics: {}", e.toString());
            return;
        }
        queues.update(figures);
        consumers.update(figures);
        replicaSets.update(replicaSetFigures.get());
    }

    /** Where the replica sets' figures come from (a node of a cluster); read at each refresh. */
    public void replicaSets(
            java.util.function.Supplier<List<org.partita.broker.store.replica.ReplicaSetFigures>> figures) {
        this.replicaSetFigures = figures;
    }

    /** The Prometheus text exposition, with queue and consumer meters brought up to date first. */
    public String scrape() {
        refresh();
        return prometheus.scrape();
    }

    @Override
    public void close() {
        refresher.shutdownNow();
        queues.close();
        consumers.close();
        replicaSets.close();
        prometheus.close();
        jmx.close();
    }
}
