package org.partita.broker.cluster;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.partita.broker.config.ClusterConfig;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.core.Broker;
import org.partita.broker.core.ClusterHooks;
import org.partita.broker.core.dispatch.ConsumerRef;
import org.partita.broker.core.partition.PartitionScope;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.core.queue.MessageRef;
import org.partita.broker.core.queue.QueueOptions;
import org.partita.broker.network.ClusterFront;
import org.partita.broker.network.connection.RemoteFeed;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's part in its cluster: the agreed definitions of clustered queues ({@link ClusterMetadata},
 * through Raft), the links to the other members ({@link PeerLink}), where each message of a
 * clustered queue goes ({@link Placement}: its partition's node, through a store-and-forward log
 * and a {@link Forwarder} when that is another node), and the feeds that let a client consumer here
 * receive the partitions other nodes host ({@link ConsumerFeed}). The broker core sees it as its
 * {@link ClusterHooks}, the network front as its {@link ClusterFront}.
 */
public final class ClusterNode implements ClusterHooks, ClusterFront, PeerLink.Events, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterNode.class);
    /** A node link says so in its HELLO: user {@code $node:<name>}. */
    static final String LINK_USER_PREFIX = "$node:";
    /** Forwarded message ids remembered per node, to take a repeated forward once. */
    private static final int FORWARDS_REMEMBERED = 100_000;

    private final ClusterConfig cluster;
    private final String self;
    private final Path dataDir;
    private final int maxFrameSize;
    /** Filled at start while clients (and other nodes) may already connect: read from network threads. */
    private final Map<String, PeerLink> links = new ConcurrentHashMap<>();

    private final Map<String, Forwarder> forwarders = new ConcurrentHashMap<>();
    private final RemoteRoom remoteRoom = new RemoteRoom();
    private final DirectOverflow directOverflow =
            new DirectOverflow(links::get, remoteRoom, new DirectOverflow.Stores() {
                @Override
                public CompletableFuture<Void> log(
                        String peer, BrokerQueue queue, MessageRef message, int deliveryCount) {
                    return broker.send(new Broker.PendingSend(
                            List.of(forwarderFor(peer, queue.name()).log()), message, deliveryCount));
                }

                @Override
                public CompletableFuture<Void> here(BrokerQueue queue, MessageRef message) {
                    return broker.send(new Broker.PendingSend(List.of(queue), message));
                }
            });
    private final Set<ConsumerFeed> feeds = ConcurrentHashMap.newKeySet();
    private final Map<String, Map<String, CompletableFuture<Void>>> forwardedIds = new ConcurrentHashMap<>();
    /** Per clustered queue: the partition the next unkeyed message sent here goes to, on a node hosting none. */
    private final Map<String, AtomicInteger> spread = new ConcurrentHashMap<>();

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "partita-cluster");
        t.setDaemon(true);
        return t;
    });
    private volatile Broker broker;
    private final io.netty.handler.ssl.SslContext linkTls;
    private volatile ClusterMetadata metadata;
    private final LayoutChanges layoutChanges;
    private final ReplicatedPartitions replicaSets;
    /** The way to each replica set's leader, shared by its forward log and the sends handed straight to it. */
    private final Map<String, SetLeaderLink> setLinks = new ConcurrentHashMap<>();

    private final LeaderSends leaderSends;

    /** Asks the other members for XA branches this node does not hold. */
    private final XaRelay xaRelay;

    private final SentElsewhere sentElsewhere;

    public ClusterNode(NodeConfig config) {
        this(config, null);
    }

    /** The port this node listens on; its consensus and replica servers bind at their offsets from it. */
    private final int listenPort;

    /** @param linkTls the client side of TLS for links to the other nodes, or null for plain TCP */
    public ClusterNode(NodeConfig config, io.netty.handler.ssl.SslContext linkTls) {
        this.linkTls = linkTls;
        this.cluster = config.cluster();
        this.self = config.nodeName();
        this.dataDir = config.dataDir();
        this.maxFrameSize = config.maxFrameSize();
        // refuses a node name the cluster does not list; a node behind a port forward listens on its
        // own port, the others reach it at its entry's: the consensus and replica ports follow each
        this.listenPort =
                config.port() > 0 ? config.port() : cluster.member(self).port();
        this.leaderSends = new LeaderSends(timer, 2 * cluster.downAfterMillis() + 1_000, this::reachable);
        PeerQuestions peers = new PeerQuestions(
                cluster.memberNames().stream().filter(n -> !n.equals(self)).toList(),
                peer -> {
                    PeerLink link = links.get(peer);
                    return link == null ? null : link.connection();
                },
                cluster.downAfterMillis());
        this.xaRelay = new XaRelay(peers);
        this.sentElsewhere =
                new SentElsewhere(peers, self, this::writtenHere, 2 * cluster.downAfterMillis() + 1_000, timer);
        this.replicaSets = new ReplicatedPartitions(
                cluster,
                self,
                listenPort,
                dataDir.resolve("replicas"),
                maxFrameSize,
                new ReplicatedPartitions.Serving() {
                    @Override
                    public void takeOver(org.partita.broker.store.replica.ReplicatedStore store) {
                        broker.serve(store, partitionsOf(store.setName()));
                    }

                    @Override
                    public void ledBy(String set, String leader) {
                        if (leader == null) {
                            return; // an election: the old leader may win it again and go on serving
                        }
                        Map<String, java.util.function.IntPredicate> which = partitionsOf(set);
                        for (ConsumerFeed feed : feeds) {
                            java.util.function.IntPredicate partitions = which.get(feed.queue());
                            if (partitions != null) {
                                feed.ledElsewhere(leader, partitions);
                            }
                        }
                    }

                    @Override
                    public void leaseRenewed(String set) {
                        partitionsOf(set).forEach((queue, which) -> broker.hostingChanged(queue, p -> false));
                    }

                    @Override
                    public void servingChanged(String set, boolean serving) {
                        partitionsOf(set)
                                .forEach((queue, which) -> broker.hostingChanged(queue, serving ? p -> false : which));
                        org.partita.broker.store.replica.ReplicatedStore store =
                                replicaSets.store(set).orElse(null);
                        if (!serving && store != null) {
                            broker.stoppedServing(store);
                        }
                        forwarders.values().forEach(Forwarder::start);
                    }
                },
                this::reachable);
        this.layoutChanges = new LayoutChanges(
                self,
                cluster.memberNames(),
                cluster.relayoutTimeoutMillis(),
                timer,
                () -> metadata,
                new LayoutChanges.Drain() {
                    @Override
                    public boolean forwarded(String queue) {
                        if (!directOverflow.idle(queue) || !leaderSends.idle(queue)) {
                            return false;
                        }
                        // the logs towards other nodes and those towards replica sets' leaders (a
                        // transaction's sends, or sends behind their key's earlier ones there)
                        for (Forwarder f : forwarders.values()) {
                            if (f.queue().equals(queue) && f.log().depth() > 0) {
                                return false;
                            }
                        }
                        return true;
                    }

                    @Override
                    public boolean drained(String queue) {
                        BrokerQueue q = broker.existingQueue(queue);
                        return q == null || q.depth() == 0;
                    }
                });
    }

    /** Joins the cluster: reads the agreed definitions, links to the other members, forwards what waits. */
    public void start(Broker broker) throws Exception {
        this.broker = broker;
        for (ClusterConfig.Member m : cluster.members()) {
            if (!m.name().equals(self)) {
                links.put(m.name(), new PeerLink(cluster, m, self, maxFrameSize, linkTls, this));
            }
        }
        for (String name : broker.queueNames()) {
            if (name.startsWith(Broker.FORWARD_LOG_PREFIX)) {
                String[] parts = name.split(":", 3);
                forwarderFor(parts[1], parts[2]); // what waited to be forwarded before a restart
            }
        }
        metadata = new ClusterMetadata(cluster, self, listenPort, dataDir, new ClusterMetadata.Listener() {
            @Override
            public void queue(String queue, String options) {
                applied(queue, options);
            }

            @Override
            public void layoutChange(String queue, String change) {
                layoutChanges.changeAgreed(queue, change);
            }

            @Override
            public void layoutMark(String queue, String node, String mark) {
                layoutChanges.markAgreed(queue, node, mark);
            }
        });
        links.values().forEach(PeerLink::start);
        // a set's forward log follows its leader, which no link event announces: looked at now and then
        timer.scheduleWithFixedDelay(
                () -> forwarders.values().forEach(Forwarder::start), 1, 1, java.util.concurrent.TimeUnit.SECONDS);
    }

    /** The partitions of each replicated queue here that the set keeps. */
    private Map<String, java.util.function.IntPredicate> partitionsOf(String set) {
        Map<String, java.util.function.IntPredicate> out = new LinkedHashMap<>();
        for (String name : broker.queueNames()) {
            BrokerQueue q = broker.existingQueue(name);
            if (q == null || !Placement.replicated(q.options(), cluster)) {
                continue;
            }
            QueueOptions o = q.options();
            out.put(name, p -> set.equals(Placement.setName(Placement.replicasOf(o, cluster, p))));
        }
        return out;
    }

    /** The replica set of a replicated queue's partition, from the sets worked out once for its options. */
    private String setOf(String queue, QueueOptions o, int partition) {
        String[] sets = scopeOf(queue, o).sets();
        return sets != null ? sets[partition] : setOf(o, partition);
    }

    private String setOf(QueueOptions o, int partition) {
        return Placement.setName(Placement.replicasOf(o, cluster, partition));
    }

    /**
     * A clustered queue declared in the config file: defined once a majority of the members is up
     * (tried again until then; agreeing again on the same definition changes nothing). What the
     * cluster agreed is asked of the Raft leader, not read here: this node may not have applied the
     * latest definition yet, and its file must not set an older layout back.
     */
    public void declare(String queue, String options) {
        metadata.lookup(queue)
                .thenCompose(agreed -> {
                    if (agreed == null) {
                        return broker.changeQueue(queue, options).thenApply(q -> (Void) null);
                    }
                    QueueOptions wanted = keepingAgreedLayout(queue, options, agreed);
                    return wanted.format().equals(agreed)
                            ? CompletableFuture.<Void>completedFuture(null)
                            : define(queue, wanted);
                })
                .whenComplete((v, t) -> {
                    if (t != null) {
                        LOG.info(
                                "queue {} is not agreed by the cluster yet ({}); trying again",
                                queue,
                                t.getCause() != null ? t.getCause().getMessage() : t.getMessage());
                        timer.schedule(() -> declare(queue, options), 2, java.util.concurrent.TimeUnit.SECONDS);
                    }
                });
    }

    /**
     * A config file does not change the partitions or hosts the cluster agreed for a queue (each node
     * reads its own file at each start: they would change back and forth); PartitaAdmin does. Its
     * other options apply.
     */
    private QueueOptions keepingAgreedLayout(String queue, String options, String agreed) {
        QueueOptions a = QueueOptions.parse(agreed, QueueOptions.DEFAULTS);
        QueueOptions declared = QueueOptions.parse(options, a);
        if (sameLayout(declared, a)) {
            return declared;
        }
        LOG.warn(
                "queue {}: the config file says partitions {} hosts {} replicas {} leaders {}, the cluster agreed"
                        + " partitions {} hosts {} replicas {} leaders {}: the agreed ones are kept (change them with"
                        + " PartitaAdmin.updateQueue)",
                queue,
                declared.partitions(),
                declared.hosts(),
                declared.replicas(),
                declared.leaders(),
                a.partitions(),
                a.hosts(),
                a.replicas(),
                a.leaders());
        QueueOptions kept =
                declared.with("partitions", String.valueOf(a.partitions())).with("hosts", String.join(",", a.hosts()));
        kept = a.replicas() > 0 ? kept.with("replicas", String.valueOf(a.replicas())) : kept.without("replicas");
        return a.leaders() > 0 ? kept.with("leaders", String.valueOf(a.leaders())) : kept.without("leaders");
    }

    /** A clustered queue's agreed definition was applied here (null: removed). */
    private void applied(String queue, String options) {
        Broker b = broker;
        if (b == null) {
            return;
        }
        try {
            BrokerQueue q = b.applyClusteredQueue(queue, options);
            if (q != null) {
                feedFrom(queue, Placement.hosts(q.options(), cluster));
                joinSetsOf(q.options());
            }
        } catch (RuntimeException e) {
            LOG.error("cannot apply the agreed definition of queue {} ({}): {}", queue, options, e.getMessage());
        }
    }

    /** Joins (in the background) the replica sets of a replicated queue that this node is a replica of. */
    private void joinSetsOf(QueueOptions o) {
        if (!Placement.replicated(o, cluster)) {
            return;
        }
        for (int p = 0; p < Math.min(Placement.leaders(o, cluster), o.partitions()); p++) {
            replicaSets.join(Placement.replicasOf(o, cluster, p));
        }
    }

    /** The client consumers of a queue receive from exactly these hosts (they may have changed). */
    private void feedFrom(String queue, List<String> hosts) {
        for (ConsumerFeed feed : feeds) {
            if (feed.queue().equals(queue)) {
                feed.keepOnly(hosts);
                for (String h : hosts) {
                    PeerLink link = links.get(h);
                    if (link != null && link.isUp()) {
                        feed.peerUp(link);
                    }
                }
            }
        }
    }

    // ---- ClusterHooks: what the core asks --------------------------------------------------------

    @Override
    public CompletableFuture<Void> relayout(String queue, QueueOptions options) {
        String problem = Placement.problem(queue, options, cluster);
        if (problem != null) {
            return CompletableFuture.failedFuture(new IllegalArgumentException(problem));
        }
        if (metadata == null) {
            return CompletableFuture.failedFuture(
                    new IllegalStateException("node " + self + " has not joined cluster " + cluster.name() + " yet"));
        }
        return layoutChanges.request(queue, options.format());
    }

    @Override
    public boolean holdsSends(String queue) {
        return layoutChanges.holdsSends(queue);
    }

    @Override
    public boolean holdSend(String queue, Runnable send) {
        return layoutChanges.holdSend(queue, send);
    }

    @Override
    public boolean clustered(QueueOptions options) {
        return !options.hosts().isEmpty();
    }

    @Override
    public boolean sameLayout(QueueOptions a, QueueOptions b) {
        return Placement.sameLayout(a, b, cluster);
    }

    @Override
    public boolean replicated(QueueOptions options) {
        return Placement.replicated(options, cluster);
    }

    @Override
    public CompletableFuture<Void> writtenLately(String queue, String messageId) {
        return replicaSets.writtenLately(queue, messageId);
    }

    @Override
    public CompletableFuture<Boolean> storedInSetsServedElsewhere(String queue, String messageId) {
        Set<String> elsewhere = setsServedElsewhere(queue);
        return elsewhere.isEmpty() ? null : sentElsewhere.stored(queue, messageId, elsewhere);
    }

    /**
     * The answer of the admin command {@code replica.written} that another node asks when an unkeyed
     * message sent again reaches it ({@link SentElsewhere}).
     */
    public CompletableFuture<String> writtenHere(String argument) {
        return SentElsewhere.answer(argument, replicaSets);
    }

    /**
     * The replica sets of {@code queue}'s partitions that this node does not serve now. For an AppId
     * queue of a fan-out queue ({@code fan#billing}), those of the fan-out queue: a message's AppId
     * copies are kept in its partition's set, each remembered by its AppId queue. None for a queue
     * without replicas, a name the cluster does not define (a queue of this node alone), or a fan-out
     * queue's own name (nothing is remembered under it: a message on its way through a forward log is
     * looked up by the set's leader when it arrives there).
     */
    private Set<String> setsServedElsewhere(String requested) {
        String queue = requested;
        ClusterMetadata m = metadata;
        if (m == null) {
            return Set.of();
        }
        String options = m.queue(queue);
        if (options == null) {
            String fanOut = Broker.fanOutQueueName(queue);
            options = fanOut == null ? null : m.queue(fanOut);
            if (options == null
                    || !QueueOptions.FANOUT.equals(
                            QueueOptions.parse(options, QueueOptions.DEFAULTS).mode())) {
                return Set.of();
            }
            queue = fanOut;
        }
        QueueOptions o = QueueOptions.parse(options, QueueOptions.DEFAULTS);
        if (!Placement.replicated(o, cluster) || (queue.equals(requested) && QueueOptions.FANOUT.equals(o.mode()))) {
            return Set.of();
        }
        Set<String> sets = new java.util.LinkedHashSet<>();
        for (int p = 0; p < o.partitions(); p++) {
            String set = setOf(queue, o, p);
            if (!replicaSets.serves(set)) {
                sets.add(set);
            }
        }
        return sets;
    }

    @Override
    public org.partita.broker.store.MessageStore storeOf(String queue, QueueOptions options, int partition) {
        if (!Placement.replicated(options, cluster)) {
            return null;
        }
        String set = setOf(queue, options, partition);
        return replicaSets
                .store(set)
                .orElseThrow(() -> new IllegalStateException("node " + self + " keeps no" + " replica of partition "
                        + partition + " of queue '" + queue + "' (replica set " + set + ")"));
    }

    @Override
    public CompletableFuture<Void> define(String queue, QueueOptions options) {
        String problem = Placement.problem(queue, options, cluster);
        if (problem != null) {
            return CompletableFuture.failedFuture(new IllegalArgumentException(problem));
        }
        ClusterMetadata m = metadata;
        if (m == null) {
            return CompletableFuture.failedFuture(
                    new IllegalStateException("node " + self + " has not joined cluster " + cluster.name() + " yet"));
        }
        if (m.layoutChange(queue) != null) { // its end commits the definition it began with: this change would be lost
            return CompletableFuture.failedFuture(new IllegalStateException("queue '" + queue + "' is changing its"
                    + " partitions or hosts; change its other options once that is done"));
        }
        return m.defineQueue(queue, options.format());
    }

    @Override
    public CompletableFuture<String> agreed(String queue) {
        ClusterMetadata m = metadata;
        return m == null
                ? CompletableFuture.failedFuture(new IllegalStateException(
                        "node " + self + " has not joined" + " cluster " + cluster.name() + " yet"))
                : m.lookup(queue);
    }

    @Override
    public CompletableFuture<String> lookup(String queue) {
        ClusterMetadata m = metadata;
        if (m == null) {
            return CompletableFuture.completedFuture(null);
        }
        String known = m.queue(queue);
        return known != null ? CompletableFuture.completedFuture(known) : m.lookup(queue);
    }

    /**
     * Where a message goes through this node's store: keyed, to its partition's node (through a
     * forward log when that is another node); unkeyed, to a hosting node's own partitions while they
     * have room, else (a transaction's send, which is stored with the transaction) to the forward log
     * of the next node in turn known to have room, or of the next node up when none is known to have
     * room and this node hosts none; a full hosting node keeps it and so refuses it. A send on its
     * own that finds no room here does not come this way but {@link #overflow}s.
     */
    @Override
    public BrokerQueue route(BrokerQueue queue, MessageRef message) {
        QueueOptions o = queue.options();
        if (Placement.replicated(o, cluster)) {
            BrokerQueue routed = routeReplicated(queue, message);
            return routed != null
                    ? routed
                    : forwarderFor(setOf(queue.name(), o, message.partition(o.partitions())), queue.name())
                            .log();
        }
        List<String> hosts = Placement.hosts(o, cluster);
        int keyed = message.partition(o.partitions());
        if (keyed >= 0) {
            String host = Placement.hostOf(hosts, keyed);
            if (!host.equals(self) && !remoteRoom.hasRoom(host, queue.name())) {
                // the answer the hosting node gives: refused, rather than confirmed and parked in
                // the forward log until that node has room (it refused a forward as full lately)
                throw new org.partita.broker.core.queue.QueueFullException("partition " + keyed + " of queue '"
                        + queue.name() + "' on node " + host + " is full (it refused a forwarded message as full"
                        + " lately); nothing was stored");
            }
            return towards(host, queue);
        }
        if (hosts.contains(self) && !queue.full()) {
            return queue; // an unkeyed message stays on a hosting node while it has room
        }
        List<String> up = othersUpInTurn(queue, message, hosts);
        for (String h : up) {
            if (remoteRoom.hasRoom(h, queue.name())) {
                return towards(h, queue);
            }
        }
        if (hosts.contains(self)) {
            return queue; // full here and everywhere known: the local queue refuses it, nothing is stored
        }
        // the node of the next partition that is up (what it has no room for waits in the log), or,
        // when no hosting node is up, of the partition whose turn it is
        return towards(
                !up.isEmpty()
                        ? up.get(0)
                        : Placement.hostOf(hosts, Math.floorMod(turn(queue, message), o.partitions())),
                queue);
    }

    /**
     * A replicated queue's message goes to the node serving its partition's set: this one, or through
     * the set's forward log, which follows the set's leader. An unkeyed message stays here while this
     * node serves a set of the queue and has room, else goes to the set of the partition in turn.
     */
    private BrokerQueue routeReplicated(BrokerQueue queue, MessageRef message) {
        QueueOptions o = queue.options();
        int keyed = message.partition(o.partitions());
        if (keyed < 0) {
            for (int p = 0; p < o.partitions(); p++) {
                if (replicaSets.serves(setOf(queue.name(), o, p))) {
                    if (!queue.full()) {
                        return queue;
                    }
                    break;
                }
            }
            keyed = Math.floorMod(turn(queue, message), o.partitions());
        }
        String set = setOf(queue.name(), o, keyed);
        if (message.keyed()) {
            // A key's message goes behind its earlier ones still on their way from this node, so that
            // none overtakes them when this node starts or stops serving the set meanwhile: behind
            // those in the set's forward log, or behind one handed to the leader (toLeader).
            if (setLogBusy(set, queue)) {
                return forwarderFor(set, queue.name()).log();
            }
            if (leaderSends.busy(queue.name(), message.keyHash())) {
                return null; // toLeader takes it; a send in a transaction goes to the log
            }
        }
        return replicaSets.serves(set) ? queue : forwarderFor(set, queue.name()).log();
    }

    /**
     * A message about to wait in a replica set's forward log (a transaction's, or a send on its own
     * behind its key's earlier messages there): done once the set's leader stored it, or after as long
     * as a send straight to the leader waits for a set to elect one (it then stays in the log, which
     * forwards it when the set has a leader).
     */
    @Override
    public CompletableFuture<Void> reachedReplicas(BrokerQueue log, MessageRef message) {
        Forwarder f = forwarders.get(log.name());
        if (f == null || !f.peer().contains("+")) {
            return null;
        }
        return f.reached(message)
                .completeOnTimeout(
                        null, 2 * cluster.downAfterMillis() + 1_000, java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /** Whether the set's forward log for the queue holds messages not yet stored by the set's leader. */
    private boolean setLogBusy(String set, BrokerQueue queue) {
        if (setLogBusy(set, queue.name())) {
            return true;
        }
        if (!QueueOptions.FANOUT.equals(queue.options().mode())) {
            return false; // the common case asks nothing more (this runs for every keyed send)
        }
        // a fan-out queue's messages went through a log per AppId queue before they were routed as
        // sends to the fan-out queue: what a node restarted on an older version still has there
        for (BrokerQueue appId : broker.storedIn(queue)) {
            if (appId != queue && setLogBusy(set, appId.name())) {
                return true;
            }
        }
        return false;
    }

    private boolean setLogBusy(String set, String queue) {
        Forwarder f = forwarders.get(Forwarder.logName(set, queue));
        return f != null && f.log().depth() > 0;
    }

    /**
     * An unkeyed message sent on its own that this node has no room for: when its partitions here
     * are full, or it hosts none of a queue with a depth limit (whose nodes may be full), it goes
     * straight to the other hosting nodes that are up, in its turn, and is confirmed once one of them
     * stored it ({@link DirectOverflow}). Null (it goes where {@link #route} says) when it fits here,
     * when the queue has no depth limit, or when no other hosting node is up.
     */
    @Override
    public CompletableFuture<Void> overflow(BrokerQueue queue, MessageRef message) {
        QueueOptions o = queue.options();
        if (Placement.replicated(o, cluster)) {
            return toLeader(queue, message);
        }
        if (message.partition(o.partitions()) >= 0 || (o.maxDepthMessages() <= 0 && o.maxDepthBytes() <= 0)) {
            return null;
        }
        List<String> hosts = Placement.hosts(o, cluster);
        boolean hostedHere = hosts.contains(self);
        if (hostedHere && !queue.full()) {
            return null;
        }
        List<String> up = new ArrayList<>(othersUpInTurn(queue, message, hosts));
        if (up.isEmpty()) {
            return null;
        }
        // a node known full is asked after those that may have room, not skipped: it may have room again
        up.sort(java.util.Comparator.comparing(h -> !remoteRoom.hasRoom(h, queue.name())));
        directOverflow.begin(queue.name());
        if (layoutChanges.holdsSends(queue.name())) {
            directOverflow.abandon(queue.name()); // held by the core until the change of layout ends
            return null;
        }
        return directOverflow.send(queue, message, up, hostedHere);
    }

    /**
     * A send on its own to a replicated queue goes straight to the leader of its partition's set when
     * this node does not serve it ({@link LeaderSends}); null when it goes where {@link #route} says.
     */
    private CompletableFuture<Void> toLeader(BrokerQueue queue, MessageRef message) {
        BrokerQueue routed = routeReplicated(queue, message);
        QueueOptions o = queue.options();
        int keyed = message.partition(o.partitions());
        int partition = keyed >= 0 ? keyed : Math.floorMod(turn(queue, message), o.partitions());
        String set = setOf(queue.name(), o, partition);
        if (routed == queue || setLogBusy(set, queue)) {
            return null; // stored here, or behind what waits in the set's forward log
        }
        return leaderSends.send(
                queue.name(), partition, setLink(set), message.encoded(), message.keyed() ? message.keyHash() : null);
    }

    private SetLeaderLink setLink(String set) {
        return setLinks.computeIfAbsent(set, s -> new SetLeaderLink(s, self, links::get, replicaSets, this::storeHere));
    }

    /** Whether a node is this one, or linked to this one now. */
    private boolean reachable(String node) {
        if (node.equals(self)) {
            return true;
        }
        PeerLink link = links.get(node);
        return link != null && link.isUp();
    }

    /**
     * The other hosting nodes that are up, each once, in the order of the partitions from the
     * message's turn on: message by message over the partitions (each node puts what it takes into
     * its own partitions in turn, too).
     */
    private List<String> othersUpInTurn(BrokerQueue queue, MessageRef message, List<String> hosts) {
        int partitions = queue.options().partitions();
        int turn = turn(queue, message);
        List<String> up = new ArrayList<>();
        for (int i = 0; i < partitions; i++) {
            String h = Placement.hostOf(hosts, Math.floorMod(turn + i, partitions));
            PeerLink link = links.get(h);
            if (!h.equals(self) && link != null && link.isUp() && !up.contains(h)) {
                up.add(h);
            }
        }
        return up;
    }

    private int turn(BrokerQueue queue, MessageRef message) {
        AtomicInteger turns = spread.computeIfAbsent(queue.name(), k -> new AtomicInteger());
        return message.unkeyedTurn(turns::getAndIncrement);
    }

    private BrokerQueue towards(String host, BrokerQueue queue) {
        return host.equals(self) ? queue : forwarderFor(host, queue.name()).log();
    }

    private Forwarder forwarderFor(String peer, String queue) {
        return forwarders.computeIfAbsent(Forwarder.logName(peer, queue), name -> {
            BrokerQueue log = broker.createQueue(name, QueueOptions.TERMINAL);
            PeerLink link = links.get(peer);
            Forwarder.Link to = peer.contains("+") ? setLink(peer) : link != null ? link : placeholder(peer);
            Forwarder f = new Forwarder(log, queue, to, timer, remoteRoom);
            f.start();
            return f;
        });
    }

    /** A message of a set's forward log stored in this node's own queue, this node serving the set now. */
    private CompletableFuture<Void> storeHere(String queue, int deliveryCount, byte[] message) {
        BrokerQueue q = broker.existingQueue(queue);
        if (q == null) {
            return null;
        }
        MessageRef m = broker.newMessage(message, org.partita.protocol.MessageCodec.decodeHeaders(message), null);
        q.keyForPartitions(m);
        if (!q.hostsPartitionOf(m)) {
            return null; // stopped serving it a moment ago: the log tries the set's new leader
        }
        return broker.send(new Broker.PendingSend(broker.storedIn(q), m, deliveryCount));
    }

    /**
     * How many committed entries each follower of a set this node leads has yet to hold, in replica
     * order; empty when this node does not lead the set (only the leader knows).
     */
    private Map<String, Long> followerLag(String set, List<String> nodes) {
        Map<String, Long> lag = new LinkedHashMap<>();
        replicaSets.store(set).ifPresent(store -> {
            Map<String, Long> byNode = new java.util.HashMap<>();
            store.followers().forEach(f -> byNode.put(f.node(), f.lagEntries()));
            for (String n : nodes) {
                Long entries = byNode.get(n);
                if (entries != null) {
                    lag.put(n, entries);
                }
            }
        });
        return lag;
    }

    /** A forward log read back for a node no longer in the cluster list: it keeps its messages, unsent. */
    private PeerLink placeholder(String peer) {
        LOG.warn("messages wait for node {}, which is not in the cluster's node list any more", peer);
        return new PeerLink(cluster, new ClusterConfig.Member(peer, "0.0.0.0", 1), self, maxFrameSize, linkTls, this);
    }

    /**
     * The scope last made for a queue, with the options it was made for (asked for at every send and
     * dispatch), its partitions' replica sets, and its layout (sent with every forward).
     */
    private record ScopeOf(QueueOptions options, PartitionScope scope, String[] sets, String layout) {}

    private final Map<String, ScopeOf> scopes = new ConcurrentHashMap<>();

    @Override
    public PartitionScope scope(String queue, QueueOptions options) {
        return scopeOf(queue, options).scope();
    }

    private ScopeOf scopeOf(String queue, QueueOptions options) {
        ScopeOf known = scopes.get(queue);
        if (known != null && known.options().equals(options)) {
            return known;
        }
        // each partition's replica set, worked out once: sends and dispatch ask for it all the time
        String[] sets = null;
        if (Placement.replicated(options, cluster)) {
            sets = new String[options.partitions()];
            for (int p = 0; p < sets.length; p++) {
                sets[p] = setOf(options, p);
            }
        }
        ScopeOf made = new ScopeOf(options, newScope(options, sets), sets, Placement.layout(options, cluster));
        scopes.put(queue, made);
        return made;
    }

    private PartitionScope newScope(QueueOptions options, String[] setOfPartition) {
        List<String> hosts = Placement.hosts(options, cluster);
        boolean localOnly = options.localOnly();
        return new PartitionScope() {
            @Override
            public boolean hosted(int partition) {
                return setOfPartition != null
                        ? replicaSets.serves(setOfPartition[partition])
                        : Placement.hostOf(hosts, partition).equals(self);
            }

            @Override
            public boolean deliverable(int partition) {
                return setOfPartition == null || replicaSets.deliverable(setOfPartition[partition]);
            }

            @Override
            public int tier(ConsumerRef consumer) {
                String origin = consumer.origin();
                if (origin == null || !hosts.contains(origin)) {
                    return PREFERRED; // this node's own consumers, and those of nodes that host none
                }
                return localOnly ? EXCLUDED : PREFERRED + 1; // another hosting node's: only if nobody closer
            }
        };
    }

    // ---- ClusterFront: what the network front asks -------------------------------------------------

    /** Both as the layout this node's forwards say, and as the one a forward received here must say. */
    @Override
    public String layoutOf(String queue) {
        Broker b = broker;
        BrokerQueue q = b == null ? null : b.existingQueue(queue);
        return q == null || !clustered(q.options())
                ? null
                : scopeOf(queue, q.options()).layout();
    }

    @Override
    public int deliveryLeaseMillis() {
        return ReplicatedPartitions.clientLeaseMillis(cluster);
    }

    @Override
    public CompletableFuture<Integer> completeBranchElsewhere(
            org.partita.protocol.WireXid xid, java.util.function.IntFunction<org.partita.protocol.Frame> request) {
        return xaRelay.complete(xid, request);
    }

    @Override
    public CompletableFuture<List<org.partita.protocol.WireXid>> branchesElsewhere() {
        return xaRelay.recover();
    }

    @Override
    public CompletableFuture<Integer> completeRestElsewhere(
            org.partita.protocol.WireXid xid,
            java.util.function.IntFunction<org.partita.protocol.Frame> request,
            List<String> places) {
        java.util.Set<String> mustAnswer = new java.util.LinkedHashSet<>();
        for (String place : places) {
            if (place.startsWith("set:")) {
                String set = place.substring("set:".length());
                if (replicaSets.serves(set)) {
                    continue; // led here again since: this node's own "no such branch" answered for it
                }
                String leader = replicaSets.leader(set);
                if (leader == null || leader.equals(self)) {
                    // no leader yet, or this node is reading the set back: its part is nowhere to ask now
                    return CompletableFuture.failedFuture(new org.partita.broker.core.xa.XaError(
                            javax.transaction.xa.XAException.XAER_RMFAIL,
                            "branch " + xid + " has a part in replica set " + set
                                    + ", which is changing leader: try again in a moment"));
                }
                mustAnswer.add(leader);
            } else if (place.startsWith("node:")) {
                mustAnswer.add(place.substring("node:".length()));
            }
        }
        mustAnswer.remove(self);
        return xaRelay.completeRest(xid, request, mustAnswer);
    }

    @Override
    public String memberName() {
        return self;
    }

    @Override
    public boolean serves(String set) {
        return replicaSets.serves(set);
    }

    @Override
    public boolean setsSettling() {
        return replicaSets.settling();
    }

    @Override
    public String linkingNode(String user, String password) {
        if (user == null || !user.startsWith(LINK_USER_PREFIX)) {
            return null;
        }
        String node = user.substring(LINK_USER_PREFIX.length());
        if (!cluster.isMember(node) || node.equals(self)) {
            throw new SecurityException("'" + node + "' is not another node of cluster " + cluster.name());
        }
        // compared in constant time: the time of a refusal must not tell how much of the secret was right
        if (!java.security.MessageDigest.isEqual(
                cluster.secret().getBytes(java.nio.charset.StandardCharsets.UTF_8),
                (password == null ? "" : password).getBytes(java.nio.charset.StandardCharsets.UTF_8))) {
            throw new SecurityException("node " + node + " did not present the cluster's secret");
        }
        PeerLink back = links.get(node);
        if (back != null) {
            back.linkNow();
        }
        return node;
    }

    @Override
    public RemoteFeed openFeed(
            BrokerQueue queue,
            String destination,
            String selector,
            int credit,
            long windowBytes,
            RemoteFeed.Sink sink) {
        if (!clustered(queue.options())) {
            return null;
        }
        ConsumerFeed[] holder = new ConsumerFeed[1];
        // the queue's options are left out: a feed opened on a new host after a layout change would conflict with them
        ConsumerFeed feed = new ConsumerFeed(
                queue.name(),
                org.partita.broker.core.queue.DestinationAddress.parse(destination)
                        .consumerName(),
                selector,
                credit,
                windowBytes,
                sink,
                () -> feeds.remove(holder[0]));
        holder[0] = feed;
        feeds.add(feed);
        for (String host : Placement.hosts(queue.options(), cluster)) {
            PeerLink link = links.get(host);
            if (link != null && link.isUp()) {
                feed.peerUp(link);
            }
        }
        return feed;
    }

    @Override
    public CompletableFuture<Void> storeOnce(
            String from, String queue, String messageId, Supplier<CompletableFuture<Void>> store) {
        if (messageId == null) {
            return store.get();
        }
        return storeCopyOnce(from, queue + '\u0000' + messageId, store);
    }

    /** {@link #storeOnce} by the copy's id: its queue and its JMSMessageID. */
    private CompletableFuture<Void> storeCopyOnce(String from, String copyId, Supplier<CompletableFuture<Void>> store) {
        Map<String, CompletableFuture<Void>> ids = forwardedIds.computeIfAbsent(
                from,
                k -> java.util.Collections.synchronizedMap(new LinkedHashMap<>(1024, 0.75f, false) {
                    @Override
                    protected boolean removeEldestEntry(Map.Entry<String, CompletableFuture<Void>> eldest) {
                        return size() > FORWARDS_REMEMBERED;
                    }
                }));
        CompletableFuture<Void> mine = new CompletableFuture<>();
        CompletableFuture<Void> earlier = ids.putIfAbsent(copyId, mine);
        if (earlier != null) {
            // stored or being stored: answer with that store; if it failed, this copy is stored
            return earlier.handle((v, t) -> t == null
                            ? CompletableFuture.<Void>completedFuture(null)
                            : storeCopyOnce(from, copyId, store))
                    .thenCompose(f -> f);
        }
        CompletableFuture<Void> stored;
        try {
            stored = store.get();
        } catch (RuntimeException e) {
            ids.remove(copyId, mine); // refused at once: a later copy tries again
            mine.completeExceptionally(e);
            throw e;
        }
        stored.whenComplete((v, t) -> {
            if (t != null) {
                ids.remove(copyId, mine);
                mine.completeExceptionally(t);
            } else {
                mine.complete(null);
            }
        });
        return mine;
    }

    // ---- links -------------------------------------------------------------------------------------

    @Override
    public void linkUp(PeerLink link) {
        for (Forwarder f : forwarders.values()) {
            if (f.peer().equals(link.peer())) {
                f.start();
            }
        }
        for (ConsumerFeed feed : feeds) {
            BrokerQueue q = broker.existingQueue(feed.queue());
            if (q != null && Placement.hosts(q.options(), cluster).contains(link.peer())) {
                feed.peerUp(link);
            }
        }
    }

    @Override
    public void linkDown(PeerLink link) {
        replicaSets.linkLost(link.peer());
        for (Forwarder f : forwarders.values()) {
            if (f.peer().equals(link.peer())) {
                f.stop();
            }
        }
        for (ConsumerFeed feed : feeds) {
            feed.peerDown(link.peer());
        }
    }

    // ---- the admin view ----------------------------------------------------------------------------

    /**
     * {@link #status()} with each partition's depth, messages in flight and owner, asked of the node
     * hosting it (this one, or another over its link); a host that does not answer within
     * {@code timeoutMillis} leaves its partitions without figures.
     */
    public CompletableFuture<ClusterStatus> statusWithPartitions(long timeoutMillis) {
        // the leaders of sets this node is not in first: their partitions' figures are asked of them
        return ReplicaLagGather.fillLeadersOfOtherSets(status(), links, timeoutMillis)
                .thenCompose(local -> {
                    List<CompletableFuture<ClusterStatus.Queue>> queues = new ArrayList<>();
                    for (ClusterStatus.Queue q : local.queues()) {
                        queues.add(PartitionFiguresGather.gather(q, self, broker, links, timeoutMillis));
                    }
                    return CompletableFuture.allOf(queues.toArray(CompletableFuture[]::new))
                            .thenApply(v -> local.withQueues(
                                    queues.stream().map(CompletableFuture::join).toList()));
                })
                .thenCompose(status -> ReplicaLagGather.fillFromLeaders(status, links, timeoutMillis));
    }

    /** The replica sets of replicated queues this node is in, as it sees them now (for the metrics). */
    public List<org.partita.broker.store.replica.ReplicaSetFigures> replicaSets() {
        return replicaSets.figures();
    }

    /** The cluster as this node sees it: members and their state, the Raft leader, partition hosts, forward backlogs. */
    public ClusterStatus status() {
        List<ClusterStatus.Member> members = new ArrayList<>();
        for (ClusterConfig.Member m : cluster.members()) {
            PeerLink l = links.get(m.name());
            String state = m.name().equals(self) ? "self" : l != null && l.isUp() ? "up" : "down";
            members.add(new ClusterStatus.Member(
                    m.name(), m.host() + ":" + m.port(), state, l == null ? null : l.lastFailure()));
        }
        List<ClusterStatus.Queue> queues = new ArrayList<>();
        ClusterMetadata md = metadata;
        if (md != null) {
            md.queues().forEach((name, options) -> {
                QueueOptions o = QueueOptions.parse(options, QueueOptions.DEFAULTS);
                List<String> hosts = Placement.hosts(o, cluster);
                List<String> placement = new ArrayList<>();
                Map<Integer, ClusterStatus.Replicas> replicas = new LinkedHashMap<>();
                for (int p = 0; p < o.partitions(); p++) {
                    if (Placement.replicated(o, cluster)) {
                        // the set's leader as this node knows it; "?" while unknown (an election, or no replica here)
                        List<String> nodes = Placement.replicasOf(o, cluster, p);
                        String set = Placement.setName(nodes);
                        String leader = replicaSets.leader(set);
                        placement.add(leader == null ? "?" : leader);
                        replicas.put(
                                p,
                                new ClusterStatus.Replicas(
                                        nodes, replicaSets.lastChange(set), followerLag(set, nodes)));
                    } else {
                        placement.add(Placement.hostOf(hosts, p));
                    }
                }
                Map<String, Integer> backlog = new LinkedHashMap<>();
                for (Forwarder f : forwarders.values()) {
                    if (f.log().name().endsWith(":" + name)) {
                        backlog.put(f.peer(), f.log().depth());
                    }
                }
                String change = md.layoutChange(name);
                queues.add(new ClusterStatus.Queue(
                        name,
                        o.partitions(),
                        placement,
                        backlog,
                        Map.of(),
                        options,
                        change == null ? null : LayoutChange.decode(change).options(),
                        layoutChanges.heldCount(name),
                        replicas));
            });
        }
        return new ClusterStatus(cluster.name(), self, md == null ? null : md.leader(), members, queues);
    }

    @Override
    public void close() {
        replicaSets.close();
        links.values().forEach(PeerLink::close);
        timer.shutdownNow();
        ClusterMetadata m = metadata;
        if (m != null) {
            m.close();
        }
    }
}
