package org.partita.broker.embed;

import java.nio.file.Path;
import java.util.Map;
import org.partita.broker.admin.AdminCommands;
import org.partita.broker.admin.NodeJmx;
import org.partita.broker.admin.NodeReader;
import org.partita.broker.cluster.ClusterNode;
import org.partita.broker.cluster.ClusterStatus;
import org.partita.broker.cluster.ReplicaLagGather;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.console.ConsoleApi;
import org.partita.broker.console.ConsoleResources;
import org.partita.broker.core.Broker;
import org.partita.broker.core.BrokerSettings;
import org.partita.broker.core.ClusterHooks;
import org.partita.broker.core.queue.MessageSummary;
import org.partita.broker.core.queue.QueueOptions;
import org.partita.broker.files.PrivateFiles;
import org.partita.broker.http.OpsHttpServer;
import org.partita.broker.metrics.NodeMetrics;
import org.partita.broker.metrics.ScrapeHandler;
import org.partita.broker.network.NodeContext;
import org.partita.broker.network.NodeServer;
import org.partita.broker.security.AccessRules;
import org.partita.broker.security.Authenticator;
import org.partita.broker.security.Authorizer;
import org.partita.broker.security.LoginGate;
import org.partita.broker.security.TlsContexts;
import org.partita.broker.security.UsersFileAuthenticator;
import org.partita.broker.store.MessageStore;
import org.partita.broker.store.StorageDevice;
import org.partita.broker.store.h2.H2MessageStore;
import org.partita.broker.store.large.BodyReleasingStore;
import org.partita.broker.store.large.LargeBodies;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running node, started in-process: the embedding API for tests and samples.
 *
 * <pre>{@code
 * try (PartitaNode node = PartitaNode.start(NodeConfig.defaults().withPort(0).withDataDir(tmp))) {
 *     ConnectionFactory cf = new PartitaConnectionFactory(node.url());
 *     ...
 * }
 * }</pre>
 */
public final class PartitaNode implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PartitaNode.class);
    /** How long the cluster view waits for other nodes' partition figures. */
    private static final long CLUSTER_FIGURES_TIMEOUT_MILLIS = 2_000;

    private final NodeConfig config;
    private final MessageStore store;
    private final Broker broker;
    private NodeServer server;
    private NodeContext context;
    private NodeJmx jmx;
    private final NodeReader reader;
    private NodeMetrics metrics;
    private OpsHttpServer http;
    private final DataFolderLock folderLock;
    private LargeBodies largeBodies;
    private ClusterNode cluster;
    private volatile boolean closed;

    private PartitaNode(NodeConfig config, StorageDevice device) throws InterruptedException {
        this.config = config;
        if (!config.syncOnCommit()) {
            LOG.warn("syncOnCommit=false: confirmed persistent messages may be lost on power failure");
        }
        if (config.usersFile() != null
                && config.cluster() != null
                && config.cluster().secret().isEmpty()) {
            // a node link is not bound by the roles file: with an empty secret anyone could log in as one
            throw new NodeStartException("a cluster node with a users file needs cluster.secret: other nodes link as"
                    + " $node:<name> with it, and node links are not bound by permissions");
        }
        Path data = config.dataDir().toAbsolutePath().normalize();
        this.folderLock = DataFolderLock.acquire(data);
        MessageStore openedStore = null;
        Broker started = null;
        try {
            openedStore =
                    H2MessageStore.open(data, config.syncOnCommit(), MessageSummary::headOf, config.storage(), device);
            openedStore.commitAtEndOfTurns(org.partita.broker.network.flow.EventLoopTurns.INSTANCE);
            this.store = openedStore; // what store() shows: the H2 store itself, for its figures
            this.largeBodies =
                    LargeBodies.open(data.resolve("large"), config.storage().diskReserveBytes());
            openedStore = new BodyReleasingStore(openedStore, largeBodies);
            TlsContexts tls = config.security().tls() == null
                    ? null
                    : TlsContexts.of(config.security().tls());
            this.cluster = config.cluster() == null ? null : new ClusterNode(config, tls == null ? null : tls.links());
            started = new Broker(
                    openedStore,
                    new BrokerSettings(config.autoCreateQueues(), QueueOptions.DEFAULTS, config.residentBytes()),
                    cluster == null ? ClusterHooks.STANDALONE : cluster);
            this.broker = started;
            broker.largeBodies(largeBodies);
            Broker restored = started;
            largeBodies.deleteOrphans(
                    id -> store.readPayload(id) != null || restored.xa().sends(id));
            for (Map.Entry<String, String> q : config.queues().entrySet()) {
                if (!isClustered(q.getValue())) {
                    broker.updateQueue(q.getKey(), q.getValue());
                }
            }
            if (config.usersFile() != null) {
                PrivateFiles.warnIfReadableByOthers(config.usersFile(), "users file");
            }
            if (config.security().tls() != null && config.security().tls().keyStore() != null) {
                PrivateFiles.warnIfReadableByOthers(config.security().tls().keyStore(), "TLS key store");
            }
            Authenticator auth = config.usersFile() == null
                    ? Authenticator.ALLOW_ALL
                    : UsersFileAuthenticator.load(config.usersFile(), config.allowAnonymous());
            NodeContext context = new NodeContext(config.nodeName(), config.maxFrameSize(), auth, config.limits());
            this.context = context;
            context.largeBodies(largeBodies);
            Authorizer authorizer = authorizer(config);
            context.authorizer(authorizer);
            this.reader = new NodeReader(broker, config, context, this::url, this::metricsPort, this::inFlightBytes);
            AdminCommands admin = new AdminCommands(reader);
            context.admin(admin);
            if (cluster != null) {
                context.cluster(cluster);
                admin.clusterStatus(() -> cluster.statusWithPartitions(CLUSTER_FIGURES_TIMEOUT_MILLIS)
                        .thenApply(ClusterStatus::format));
                admin.replicaLag(() -> ReplicaLagGather.format(cluster.replicaSets()));
                admin.replicaWritten(cluster::writtenHere);
            }
            this.server = listen(config, broker, context, tls);
            if (cluster != null) {
                joinCluster(config);
            }
            this.jmx = new NodeJmx(reader, config.nodeName());
            if (cluster != null) {
                jmx.clusterStatus(() -> cluster.statusWithPartitions(CLUSTER_FIGURES_TIMEOUT_MILLIS)
                        .join()
                        .format());
            }
            this.metrics = new NodeMetrics(reader, config.metrics().consumerLabels());
            if (cluster != null) {
                metrics.replicaSets(cluster::replicaSets);
            }
            this.http = config.metricsPort() == NodeConfig.METRICS_OFF
                    ? null
                    : startHttp(config, context.logins(), authorizer, tls);
        } catch (InterruptedException | RuntimeException e) {
            if (jmx != null) {
                jmx.close();
            }
            if (metrics != null) {
                metrics.close();
            }
            if (server != null) {
                server.close();
            }
            if (context != null) {
                context.close();
            }
            if (cluster != null) {
                cluster.close();
            }
            if (openedStore != null) {
                openedStore.close();
            }
            if (started != null) {
                started.close();
            }
            if (largeBodies != null) {
                largeBodies.close();
            }
            folderLock.close();
            throw e;
        }
        LOG.info(
                "Partita node {} listening on {}:{} ({} I/O, {} event loop{}) with data in {}",
                config.nodeName(),
                config.host(),
                port(),
                server.io(),
                server.eventLoops(),
                server.eventLoops() == 1 ? "" : "s",
                data);
        LOG.info("authentication {}", authentication(config));
    }

    /**
     * The Prometheus endpoint and the console, on the node's host, for users with the manage
     * permission, or for loopback clients when the node has no users; HTTPS with TLS.
     */
    private OpsHttpServer startHttp(NodeConfig config, LoginGate logins, Authorizer authorizer, TlsContexts tls) {
        OpsHttpServer ops = OpsHttpServer.start(
                config.host(),
                config.metricsPort(),
                config.usersFile() == null ? null : logins,
                authorizer,
                "Partita node " + config.nodeName(),
                tls == null ? null : tls.http());
        ops.route("/metrics", new ScrapeHandler(metrics))
                .route("/api/", new ConsoleApi(reader))
                .route("/", new ConsoleResources());
        String scheme = tls == null ? "http" : "https";
        LOG.info(
                "metrics at {}://{}:{}/metrics and the console at {}://{}:{}/{}",
                scheme,
                config.host(),
                ops.port(),
                scheme,
                config.host(),
                ops.port(),
                config.usersFile() == null
                        ? " (loopback clients only: the node has no users file)"
                        : " (users of " + config.usersFile() + " with the manage permission on >)");
        return ops;
    }

    private boolean isClustered(String options) {
        return cluster != null && cluster.clustered(QueueOptions.parse(options, QueueOptions.DEFAULTS));
    }

    /** Joins the cluster once clients can connect (other nodes link to this port); declares clustered config queues. */
    private void joinCluster(NodeConfig config) {
        try {
            cluster.start(broker);
        } catch (Exception e) {
            throw new NodeStartException(
                    "cannot join cluster " + config.cluster().name() + ": " + e.getMessage(), e);
        }
        for (Map.Entry<String, String> q : config.queues().entrySet()) {
            if (isClustered(q.getValue())) {
                cluster.declare(q.getKey(), q.getValue());
            }
        }
    }

    /** The node's part in its cluster, or null for a node on its own. */
    public ClusterNode cluster() {
        return cluster;
    }

    /** What users may do: the roles file's permissions; without one, everything but admin; without users, everything. */
    private static Authorizer authorizer(NodeConfig config) {
        if (config.usersFile() == null) {
            return Authorizer.ALLOW_ALL;
        }
        Path roles = config.security().rolesIn(config.usersFile());
        return roles == null ? Authorizer.ALL_BUT_MANAGE : AccessRules.load(roles);
    }

    /** How the start-up log states whether connections must authenticate, and against what. */
    private static String authentication(NodeConfig config) {
        if (config.usersFile() == null) {
            return "off: no users file is set, so every connection is accepted (admin commands from loopback only)";
        }
        Path roles = config.security().rolesIn(config.usersFile());
        return "on: users from " + config.usersFile().toAbsolutePath().normalize() + "; connections without"
                + " credentials are " + (config.allowAnonymous() ? "accepted (allowAnonymous = true)" : "refused")
                + (roles == null
                        ? "; no roles file, so every user may do everything but admin commands"
                        : "; permissions from " + roles.toAbsolutePath().normalize());
    }

    /** Binds the port; an address in use is one line naming it, not a stack trace. */
    private static NodeServer listen(NodeConfig config, Broker broker, NodeContext context, TlsContexts tls)
            throws InterruptedException {
        try {
            return tls == null
                    ? new NodeServer(config.host(), config.port(), broker, context, null, null, config.eventLoops())
                    : new NodeServer(
                            config.host(),
                            config.port(),
                            broker,
                            context,
                            tls.server(),
                            config.security().tls().plaintext(),
                            config.eventLoops());
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) { // Netty rethrows the BindException unchecked
            String where = config.host() + ":" + config.port();
            if (addressInUse(e)) {
                throw new NodeStartException(
                        "cannot listen on " + where + ": the address is in use (another node or"
                                + " program listens there); stop it or choose another port (--port)",
                        e);
            }
            throw new NodeStartException("cannot listen on " + where + ": " + e.getMessage(), e);
        }
    }

    /**
     * Whether binding failed because the address is taken: NIO says so with a {@link java.net.BindException},
     * the native epoll transport with an IOException naming errno EADDRINUSE.
     */
    private static boolean addressInUse(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof java.net.BindException
                    || String.valueOf(c.getMessage()).contains("Address already in use")) {
                return true;
            }
        }
        return false;
    }

    public static PartitaNode start(NodeConfig config) {
        return start(config, StorageDevice.DISK);
    }

    /**
     * A node whose store files live on {@code device}: tests give one that can be made to fail
     * (disk full, failed syncs) under the real store and broker.
     */
    public static PartitaNode start(NodeConfig config, StorageDevice device) {
        try {
            return new PartitaNode(config, device);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the node", e);
        }
    }

    /** The port actually bound (useful with port 0). */
    public int port() {
        return server.port();
    }

    /** Bytes in flight now, counted in {@code limits.inFlightBytes}: of frames being read, of sends not yet stored or queued, waiting to be written. */
    public long inFlightBytes() {
        NodeServer s = server;
        return s == null ? 0 : s.inFlightBytes();
    }

    /** Bytes of sends held in open transactions (local and XA) now, counted in {@code limits.openTransactionBytes}. */
    public long openTransactionBytes() {
        NodeServer s = server;
        return s == null ? 0 : s.openTransactionBytes();
    }

    /** A connection factory URL for this node. */
    public String url() {
        return "tcp://" + config.host() + ":" + port();
    }

    /** The port of the metrics endpoint and console, or -1 when they are off. */
    public int metricsPort() {
        return http == null ? NodeConfig.METRICS_OFF : http.port();
    }

    /** The node's meters (Prometheus and JMX). */
    public NodeMetrics metrics() {
        return metrics;
    }

    /** The node's figures, as admin, console and metrics read them. */
    public NodeReader reader() {
        return reader;
    }

    public NodeConfig config() {
        return config;
    }

    public Broker broker() {
        return broker;
    }

    /** Where the node keeps large message bodies: for tests and figures. */
    public LargeBodies largeBodies() {
        return largeBodies;
    }

    public MessageStore store() {
        return store;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        // Every step runs even when one before it failed: a node half closed would keep its port, its
        // JMX name (the next node of that name in the JVM would then register none) or its folder lock.
        RuntimeException failure = null;
        if (http != null) {
            failure = step(failure, "the HTTP endpoint", http::close);
        }
        if (cluster != null) {
            failure = step(failure, "the cluster links", cluster::close);
        }
        failure = step(failure, "the metrics", metrics::close);
        failure = step(failure, "the JMX bean", jmx::close);
        failure = step(failure, "the server", server::close);
        failure = step(failure, "the connections", context::close);
        // what the closed connections handed back is written before the store closes
        failure = step(failure, "the queues' work", () -> broker.awaitQueuedWork(5_000));
        failure = step(
                failure,
                "the store",
                store::close); // finishes pending writes while the broker can take their completions
        failure = step(failure, "the broker", broker::close);
        failure = step(failure, "the large bodies' threads", largeBodies::close);
        failure = step(failure, "the data folder's lock", folderLock::close);
        if (failure != null) {
            throw failure;
        }
        LOG.info("Partita node {} stopped", config.nodeName());
    }

    /** Runs one step of {@link #close()}; returns the first failure so far. */
    private RuntimeException step(RuntimeException failure, String what, Runnable step) {
        try {
            step.run();
            return failure;
        } catch (RuntimeException e) {
            LOG.warn("closing node {}: {} failed: {}", config.nodeName(), what, e.toString());
            if (failure != null) {
                failure.addSuppressed(e);
                return failure;
            }
            return e;
        }
    }
}
