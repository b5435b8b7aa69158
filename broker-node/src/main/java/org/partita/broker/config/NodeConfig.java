package org.partita.broker.config;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.partita.protocol.Protocol;

/**
 * Everything a node is started with. {@link #defaults()} is the embedded default a newcomer gets:
 * 127.0.0.1:61700, H2 under ./data, queues created on first use, every send forced to disk, no
 * authentication.
 *
 * @param syncOnCommit   force each group commit to disk before confirming sends (only turn off when
 *                       losing recent messages on power loss is acceptable)
 * @param usersFile      users and salted password hashes; null means authentication is off
 * @param allowAnonymous with a users file: whether a connection without credentials is accepted
 * @param queues         queues declared in the config file: name to options ({@code partitions=8&...})
 * @param residentBytes  payload bytes of stored messages the node keeps in memory, counted at their
 *                       heap cost ({@link HeapCost}); beyond that, stored messages keep only their
 *                       routing summary and are read back from the store when delivered
 * @param metricsPort    HTTP port of the Prometheus endpoint and the web console, on {@code host};
 *                       {@link #METRICS_OFF} (the default) for none, 0 for any free port
 * @param cluster        the cluster this node is a member of, or null for a node on its own
 * @param limits         what clients may make the node hold: bytes in flight, connections, sessions...
 * @param storage        how the store reacts to I/O faults and gives back space
 * @param security       authorization and TLS
 * @param ioThreads      event loops that read and write the clients' sockets; {@link #IO_THREADS_AUTO}
 *                       (the default) for half the cores, at least one
 * @param metrics        what the meters may grow to (how many consumers get meters of their own)
 */
public record NodeConfig(
        String nodeName,
        String host,
        int port,
        Path dataDir,
        boolean autoCreateQueues,
        boolean syncOnCommit,
        int maxFrameSize,
        Path usersFile,
        boolean allowAnonymous,
        Map<String, String> queues,
        long residentBytes,
        int metricsPort,
        ClusterConfig cluster,
        FlowLimits limits,
        StorageSettings storage,
        SecuritySettings security,
        int ioThreads,
        MetricsSettings metrics) {

    /** Half the cores, at least one: see {@link #eventLoops()}. */
    public static final int IO_THREADS_AUTO = 0;

    /** No metrics endpoint and no console. */
    public static final int METRICS_OFF = -1;

    public NodeConfig {
        queues = Map.copyOf(queues);
        limits = limits == null ? FlowLimits.defaults() : limits;
        storage = storage == null ? StorageSettings.defaults() : storage;
        security = security == null ? SecuritySettings.defaults() : security;
        metrics = metrics == null ? MetricsSettings.defaults() : metrics;
        if (residentBytes < 0) {
            throw new IllegalArgumentException("residentBytes must not be negative: " + residentBytes);
        }
        if (ioThreads < IO_THREADS_AUTO) {
            throw new IllegalArgumentException("ioThreads must be at least 1 (or 0 for half the cores): " + ioThreads);
        }
        if (metricsPort < METRICS_OFF || metricsPort > 65535) {
            throw new IllegalArgumentException("metricsPort must be from 0 to 65535 (or off): " + metricsPort);
        }
    }

    /** Every setting but {@code metricsPort}, which is off. */
    public NodeConfig(
            String nodeName,
            String host,
            int port,
            Path dataDir,
            boolean autoCreateQueues,
            boolean syncOnCommit,
            int maxFrameSize,
            Path usersFile,
            boolean allowAnonymous,
            Map<String, String> queues,
            long residentBytes) {
        this(
                nodeName,
                host,
                port,
                dataDir,
                autoCreateQueues,
                syncOnCommit,
                maxFrameSize,
                usersFile,
                allowAnonymous,
                queues,
                residentBytes,
                METRICS_OFF,
                null,
                null,
                null,
                null,
                IO_THREADS_AUTO,
                null);
    }

    /** Every setting but {@code residentBytes}, which takes its default: a share of the heap ({@link HeapBudgets}). */
    public NodeConfig(
            String nodeName,
            String host,
            int port,
            Path dataDir,
            boolean autoCreateQueues,
            boolean syncOnCommit,
            int maxFrameSize,
            Path usersFile,
            boolean allowAnonymous,
            Map<String, String> queues) {
        this(
                nodeName,
                host,
                port,
                dataDir,
                autoCreateQueues,
                syncOnCommit,
                maxFrameSize,
                usersFile,
                allowAnonymous,
                queues,
                HeapBudgets.current().residentBytes());
    }

    /** The memory budgets and the largest frame are shares of this JVM's heap ({@link HeapBudgets}). */
    public static NodeConfig defaults() {
        return defaults(HeapBudgets.current());
    }

    /** The defaults of a node whose memory budgets are {@code heap}'s. */
    public static NodeConfig defaults(HeapBudgets heap) {
        return new NodeConfig(
                "node1",
                "127.0.0.1",
                Protocol.DEFAULT_PORT,
                Path.of("data"),
                true,
                true,
                heap.frameBytes(),
                null,
                false,
                Map.of(),
                heap.residentBytes(),
                METRICS_OFF,
                null,
                FlowLimits.defaults(heap),
                StorageSettings.defaults(heap),
                null,
                IO_THREADS_AUTO,
                null);
    }

    public NodeConfig withPort(int p) {
        return new NodeConfig(
                nodeName,
                host,
                p,
                dataDir,
                autoCreateQueues,
                syncOnCommit,
                maxFrameSize,
                usersFile,
                allowAnonymous,
                queues,
                residentBytes,
                metricsPort,
                cluster,
                limits,
                storage,
                security,
                ioThreads,
                metrics);
    }

    public NodeConfig withHost(String h) {
        return new NodeConfig(
                nodeName,
                h,
                port,
                dataDir,
                autoCreateQueues,
                syncOnCommit,
                maxFrameSize,
                usersFile,
                allowAnonymous,
                queues,
                residentBytes,
                metricsPort,
                cluster,
                limits,
                storage,
                security,
                ioThreads,
                metrics);
    }

    public NodeConfig withDataDir(Path d) {
        return new NodeConfig(
                nodeName,
                host,
                port,
                d,
                autoCreateQueues,
                syncOnCommit,
                maxFrameSize,
                usersFile,
                allowAnonymous,
                queues,
                residentBytes,
                metricsPort,
                cluster,
                limits,
                storage,
                security,
                ioThreads,
                metrics);
    }

    public NodeConfig withNodeName(String n) {
        return new NodeConfig(
                n,
                host,
                port,
                dataDir,
                autoCreateQueues,
                syncOnCommit,
                maxFrameSize,
                usersFile,
                allowAnonymous,
                queues,
                residentBytes,
                metricsPort,
                cluster,
                limits,
                storage,
                security,
                ioThreads,
                metrics);
    }

    public NodeConfig withAutoCreateQueues(boolean b) {
        return new NodeConfig(
                nodeName,
                host,
                port,
                dataDir,
                b,
                syncOnCommit,
                maxFrameSize,
                usersFile,
                allowAnonymous,
                queues,
                residentBytes,
                metricsPort,
                cluster,
                limits,
                storage,
                security,
                ioThreads,
                metrics);
    }

    public NodeConfig withSyncOnCommit(boolean b) {
        return new NodeConfig(
                nodeName,
                host,
                port,
                dataDir,
                autoCreateQueues,
                b,
                maxFrameSize,
                usersFile,
                allowAnonymous,
                queues,
                residentBytes,
                metricsPort,
                cluster,
                limits,
                storage,
                security,
                ioThreads,
                metrics);
    }

    public NodeConfig withMaxFrameSize(int m) {
        return new NodeConfig(
                nodeName,
                host,
                port,
                dataDir,
                autoCreateQueues,
                syncOnCommit,
                m,
                usersFile,
                allowAnonymous,
                queues,
                residentBytes,
                metricsPort,
                cluster,
                limits,
                storage,
                security,
                ioThreads,
                metrics);
    }

    public NodeConfig withUsersFile(Path f) {
        return new NodeConfig(
                nodeName,
                host,
                port,
                dataDir,
                autoCreateQueues,
                syncOnCommit,
                maxFrameSize,
                f,
                allowAnonymous,
                queues,
                residentBytes,
                metricsPort,
                cluster,
                limits,
                storage,
                security,
                ioThreads,
                metrics);
    }

    public NodeConfig withAllowAnonymous(boolean b) {
        return new NodeConfig(
                nodeName,
                host,
                port,
                dataDir,
                autoCreateQueues,
                syncOnCommit,
                maxFrameSize,
                usersFile,
                b,
                queues,
                residentBytes,
                metricsPort,
                cluster,
                limits,
                storage,
                security,
                ioThreads,
                metrics);
    }

    public NodeConfig withResidentBytes(long b) {
        return new NodeConfig(
                nodeName,
                host,
                port,
                dataDir,
                autoCreateQueues,
                syncOnCommit,
                maxFrameSize,
                usersFile,
                allowAnonymous,
                queues,
                b,
                metricsPort,
                cluster,
                limits,
                storage,
                security,
                ioThreads,
                metrics);
    }

    public NodeConfig withMetricsPort(int p) {
        return new NodeConfig(
                nodeName,
                host,
                port,
                dataDir,
                autoCreateQueues,
                syncOnCommit,
                maxFrameSize,
                usersFile,
                allowAnonymous,
                queues,
                residentBytes,
                p,
                cluster,
                limits,
                storage,
                security,
                ioThreads,
                metrics);
    }

    /** Makes this node a member of {@code c} (its {@code nodeName} must be one of the members), or standalone with null. */
    public NodeConfig withCluster(ClusterConfig c) {
        return new NodeConfig(
                nodeName,
                host,
                port,
                dataDir,
                autoCreateQueues,
                syncOnCommit,
                maxFrameSize,
                usersFile,
                allowAnonymous,
                queues,
                residentBytes,
                metricsPort,
                c,
                limits,
                storage,
                security,
                ioThreads,
                metrics);
    }

    /** Declares a queue (or adds options to one declared before): {@code options} as {@code name=value&...}. */
    public NodeConfig withQueue(String name, String options) {
        Map<String, String> q = new LinkedHashMap<>(queues);
        q.merge(name, options, (a, b) -> a.isEmpty() ? b : a + "&" + b);
        return new NodeConfig(
                nodeName,
                host,
                port,
                dataDir,
                autoCreateQueues,
                syncOnCommit,
                maxFrameSize,
                usersFile,
                allowAnonymous,
                q,
                residentBytes,
                metricsPort,
                cluster,
                limits,
                storage,
                security,
                ioThreads,
                metrics);
    }

    public NodeConfig withLimits(FlowLimits l) {
        return new NodeConfig(
                nodeName,
                host,
                port,
                dataDir,
                autoCreateQueues,
                syncOnCommit,
                maxFrameSize,
                usersFile,
                allowAnonymous,
                queues,
                residentBytes,
                metricsPort,
                cluster,
                l,
                storage,
                security,
                ioThreads,
                metrics);
    }

    public NodeConfig withStorage(StorageSettings s) {
        return new NodeConfig(
                nodeName,
                host,
                port,
                dataDir,
                autoCreateQueues,
                syncOnCommit,
                maxFrameSize,
                usersFile,
                allowAnonymous,
                queues,
                residentBytes,
                metricsPort,
                cluster,
                limits,
                s,
                security,
                ioThreads,
                metrics);
    }

    public NodeConfig withSecurity(SecuritySettings s) {
        return new NodeConfig(
                nodeName,
                host,
                port,
                dataDir,
                autoCreateQueues,
                syncOnCommit,
                maxFrameSize,
                usersFile,
                allowAnonymous,
                queues,
                residentBytes,
                metricsPort,
                cluster,
                limits,
                storage,
                s,
                ioThreads,
                metrics);
    }

    public NodeConfig withMetrics(MetricsSettings m) {
        return new NodeConfig(
                nodeName,
                host,
                port,
                dataDir,
                autoCreateQueues,
                syncOnCommit,
                maxFrameSize,
                usersFile,
                allowAnonymous,
                queues,
                residentBytes,
                metricsPort,
                cluster,
                limits,
                storage,
                security,
                ioThreads,
                m);
    }

    public NodeConfig withIoThreads(int n) {
        return new NodeConfig(
                nodeName,
                host,
                port,
                dataDir,
                autoCreateQueues,
                syncOnCommit,
                maxFrameSize,
                usersFile,
                allowAnonymous,
                queues,
                residentBytes,
                metricsPort,
                cluster,
                limits,
                storage,
                security,
                n,
                metrics);
    }

    /**
     * The event loops the node runs: {@code ioThreads}, or half the cores (at least one) when it is
     * {@link #IO_THREADS_AUTO}. Each persistent message crosses the sockets' loops, the journal's writer
     * and the queues' threads; more loops than the cores can run beside the writer only add thread
     * wake-ups and hand-offs between them (docs/performance.md, "Design for speed").
     */
    public int eventLoops() {
        return ioThreads != IO_THREADS_AUTO
                ? ioThreads
                : Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    }
}
