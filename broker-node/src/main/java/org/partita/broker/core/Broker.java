package org.partita.broker.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.partita.broker.core.dispatch.ConsumerRef;
import org.partita.broker.core.partition.PartitionScope;
import org.partita.broker.core.partition.Repartitioning;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.core.queue.DestinationAddress;
import org.partita.broker.core.queue.MessageRef;
import org.partita.broker.core.queue.PayloadMemory;
import org.partita.broker.core.queue.QueueEntry;
import org.partita.broker.core.queue.QueueFullException;
import org.partita.broker.core.queue.QueueOptionConflictException;
import org.partita.broker.core.queue.QueueOptions;
import org.partita.broker.core.queue.QueueServices;
import org.partita.broker.core.queue.UnknownDestinationException;
import org.partita.broker.core.topic.Subscriptions;
import org.partita.broker.store.MessageStore;
import org.partita.broker.store.StoreBatch;
import org.partita.broker.store.StoreBatches;
import org.partita.broker.store.StoreException;
import org.partita.broker.store.StoreOp;
import org.partita.broker.store.StoredEntry;
import org.partita.broker.store.StoredQueue;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.MessageCodec;
import org.partita.protocol.ProtocolException;
import org.partita.protocol.ProviderProperties;
import org.partita.protocol.WireMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker core of one node: its queues, message ids, and the path of a message from a send to
 * its queues. Knows nothing of Netty; the network layer calls it.
 */
public final class Broker implements QueueServices, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Broker.class);
    private static final String KIND_QUEUE = "queue";
    /** Names of the store-and-forward logs of clustered queues: {@code $forward:<node>:<queue>}. */
    public static final String FORWARD_LOG_PREFIX = "$forward:";

    private final MessageStore store;
    private final BrokerSettings settings;
    private final ExecutorService pool;
    private final ScheduledExecutorService timers;
    private final LongSupplier clock = System::currentTimeMillis;
    private final Map<String, BrokerQueue> queues = new ConcurrentHashMap<>();
    private final AtomicLong messageIds;
    private final PayloadMemory payloadMemory;
    /** The payload budget as read back from replica sets' stores (see {@link #payloadMemoryOf}). */
    private final Map<MessageStore, PayloadMemory> otherMemories = new ConcurrentHashMap<>();

    private final java.util.concurrent.atomic.AtomicLong unstoredBytes = new java.util.concurrent.atomic.AtomicLong();
    private final Subscriptions subscriptions = new Subscriptions(this);
    private final ClusterHooks cluster;
    private final ClusterSendRoutes sendRoutes;
    private final org.partita.broker.core.xa.XaBranches xa = new org.partita.broker.core.xa.XaBranches(this);

    public Broker(MessageStore store, BrokerSettings settings) {
        this(store, settings, ClusterHooks.STANDALONE);
    }

    /** @param cluster the cluster the node belongs to: known before the queues are read back, so clustered ones recover as such */
    public Broker(MessageStore store, BrokerSettings settings, ClusterHooks cluster) {
        this.store = store;
        this.settings = settings;
        this.cluster = cluster;
        this.sendRoutes = new ClusterSendRoutes(cluster, queues::get, this::storedIn);
        int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
        this.pool = Executors.newFixedThreadPool(threads, daemon("partita-core"));
        this.timers = Executors.newSingleThreadScheduledExecutor(daemon("partita-timers"));
        this.payloadMemory = new PayloadMemory(settings.residentBytes(), store::readPayload);
        this.messageIds = new AtomicLong(store.maxMessageId());
        recover();
    }

    private static java.util.concurrent.ThreadFactory daemon(String prefix) {
        AtomicLong n = new AtomicLong();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    private static MessageRef restored(StoredEntry e, PayloadMemory memory) {
        if (e.head() != null) {
            return MessageRef.restored(e.messageId(), e.head(), memory);
        }
        MessageRef m = new MessageRef(e.messageId(), e.payload(), MessageCodec.decodeHeaders(e.payload()), null);
        m.markStored(memory);
        return m;
    }

    /**
     * This node now leads a replica set: the entries its store keeps of the partitions named
     * ({@code partitions}, by queue) are read back into their queues, each counted as possibly
     * delivered (the set's previous leader may have delivered it), then served. Entries of those
     * partitions still held here from an earlier turn as leader are let go first: the store has
     * them all. Message ids of this node move past the set's, so new ones do not collide there.
     */
    public void serve(MessageStore setStore, Map<String, java.util.function.IntPredicate> partitions) {
        messageIds.accumulateAndGet(setStore.maxMessageId(), Math::max);
        partitions.forEach((name, which) -> {
            BrokerQueue q = queues.get(name);
            if (q != null) {
                q.hostingChanged(which);
            }
        });
        PayloadMemory memory = payloadMemoryOf(setStore);
        // the parts of prepared XA branches the set keeps: the entries they consumed come back locked
        org.partita.broker.core.xa.BranchRestore branches = xa.restorePart(setStore, setStore.loadBranches());
        messageIds.accumulateAndGet(branches.maxMessageId(), Math::max);
        Map<Long, MessageRef> refs = new java.util.HashMap<>();
        Map<String, java.util.concurrent.atomic.AtomicInteger> turns = new java.util.HashMap<>();
        long[] count = new long[1];
        setStore.loadEntries(e -> {
            java.util.function.IntPredicate which = partitions.get(e.queue());
            BrokerQueue q = queues.get(e.queue());
            if (which == null || q == null) {
                return; // a queue deleted meanwhile, or partitions of another set
            }
            MessageRef ref = refs.computeIfAbsent(e.messageId(), id -> restored(e, memory));
            int n = q.options().partitions();
            if (ref.partition(n) < 0) {
                // an unkeyed message stays in a partition of this set (the store it is kept in)
                java.util.concurrent.atomic.AtomicInteger turn =
                        turns.computeIfAbsent(e.queue(), k -> new java.util.concurrent.atomic.AtomicInteger());
                for (int i = 0; i < n; i++) {
                    int p = Math.floorMod(turn.getAndIncrement(), n);
                    if (which.test(p)) {
                        ref.place(p);
                        break;
                    }
                }
            }
            if (branches.claims(e.queue(), e.messageId())) {
                branches.restoreLocked(q, ref, e.deliveryCount());
            } else {
                q.restore(ref, Math.max(1, e.deliveryCount()), false);
            }
            count[0]++;
        });
        branches.finish(name -> {
            BrokerQueue q = queues.get(name);
            return q != null ? q : terminalQueue(name);
        });
        LOG.info("serving {} messages of {} from its replica set", count[0], partitions.keySet());
    }

    /**
     * This node no longer serves the replica set whose store is {@code setStore}: the parts of
     * prepared XA branches it keeps leave this node's branches (its next leader reads them back).
     */
    public void stoppedServing(MessageStore setStore) {
        xa.letGo(setStore);
    }

    /** {@code s}, or null when it is this node's own store (as XA branches name it). */
    public MessageStore ownStoreAsNull(MessageStore s) {
        return s == store ? null : s;
    }

    /** What this node asks of its cluster. */
    public ClusterHooks clusterHooks() {
        return cluster;
    }

    /** Partitions now served here, or no longer ({@code lost}, let go: another node leads their set). */
    public void hostingChanged(String queue, java.util.function.IntPredicate lost) {
        BrokerQueue q = queues.get(queue);
        if (q != null) {
            q.hostingChanged(lost);
        }
    }

    /** Rebuilds queues, their AppId queues and topic feeds, then their messages, from the store. */
    private void recover() {
        for (StoredQueue q : store.loadQueues()) {
            if (Subscriptions.KIND.equals(q.kind())) {
                BrokerQueue queue = new BrokerQueue(q.name(), settings.defaultQueueOptions(), this, true);
                queues.put(q.name(), queue);
                subscriptions.restore(q.name(), queue, q.options());
            } else {
                BrokerQueue queue = new BrokerQueue(
                        q.name(), QueueOptions.parse(q.options(), settings.defaultQueueOptions()), this, true);
                queues.put(q.name(), queue);
                wire(queue);
            }
        }
        // Prepared XA branches first: the entries they consumed come back locked, not waiting.
        org.partita.broker.core.xa.BranchRestore branches = xa.restore(store.loadBranches());
        messageIds.accumulateAndGet(branches.maxMessageId(), Math::max);
        java.util.Set<String> expiryQueues = expiryQueues();
        Map<Long, MessageRef> payloads = new java.util.HashMap<>();
        long[] count = new long[1];
        // A delivery's count reaches the store only when the message comes back, so after a crash
        // any message may have been delivered unacknowledged: each comes back flagged redelivered
        // (JMS allows the flag on a message that "may have been delivered"), counts never lowered.
        boolean crashed = store.recoveredFromCrash();
        store.loadEntries((StoredEntry e) -> {
            BrokerQueue q = queues.computeIfAbsent(
                    e.queue(), n -> new BrokerQueue(n, settings.defaultQueueOptions(), this, true));
            MessageRef ref = payloads.computeIfAbsent(e.messageId(), id -> restored(e, payloadMemory));
            if (branches.claims(e.queue(), e.messageId())) {
                branches.restoreLocked(q, ref, e.deliveryCount());
            } else {
                q.restore(
                        ref,
                        crashed ? Math.max(1, e.deliveryCount()) : e.deliveryCount(),
                        expiryQueues.contains(q.name()));
            }
            count[0]++;
        });
        branches.finish(name -> {
            BrokerQueue q = queues.get(name);
            return q != null ? q : terminalQueue(name);
        });
        if (count[0] > 0 || !queues.isEmpty()) {
            LOG.info(
                    "recovered {} queues holding {} messages{}",
                    queues.size(),
                    count[0],
                    crashed && count[0] > 0
                            ? "; the node had not stopped cleanly, so they come back flagged redelivered"
                            : "");
        }
    }

    /** Names of the queues some queue sends its expired messages to. */
    private java.util.Set<String> expiryQueues() {
        java.util.Set<String> names = new java.util.HashSet<>();
        names.add(settings.defaultQueueOptions().expiryQueue());
        queues.values().forEach(q -> names.add(q.options().expiryQueue()));
        names.remove("");
        return names;
    }

    /** Creates what a queue's options imply: AppId queues of a fan-out queue, topic feeds. */
    private void wire(BrokerQueue queue) {
        QueueOptions o = queue.options();
        if (QueueOptions.FANOUT.equals(o.mode())) {
            if (o.appIds().isEmpty()) {
                throw new IllegalArgumentException("fan-out queue '" + queue.name() + "' needs appIds");
            }
            // AppId queues share the parent's options (limits, timings, partitions), not its routing.
            QueueOptions appOptions =
                    o.with("mode", QueueOptions.PRIORITY).with("appIds", "").with("subscriptions", "");
            for (String appId : o.appIds()) {
                BrokerQueue app = queues.computeIfAbsent(
                        appQueueName(queue.name(), appId), n -> new BrokerQueue(n, appOptions, this, true));
                app.options(appOptions); // a later update of the parent reaches its AppIds too
                if (!o.subscriptions().isEmpty()) {
                    app.promote();
                }
            }
        }
        if (!o.subscriptions().isEmpty()) {
            queue.promote();
            subscriptions.feedQueue(queue, o.subscriptions());
        }
    }

    static String appQueueName(String queue, String appId) {
        return queue + "#" + appId;
    }

    /** The fan-out queue an AppId queue's name ({@link #appQueueName}) belongs to; null for a name that is none. */
    public static String fanOutQueueName(String appQueueName) {
        int hash = appQueueName.lastIndexOf('#');
        return hash <= 0 ? null : appQueueName.substring(0, hash);
    }

    public ClusterHooks cluster() {
        return cluster;
    }

    @Override
    public PartitionScope scope(String queue, QueueOptions options) {
        return cluster.scope(queue, options);
    }

    @Override
    public boolean clustered(QueueOptions options) {
        return cluster.clustered(options);
    }

    /**
     * Where a message sent to {@code queue} goes: the queue itself, each AppId of a fan-out queue, or,
     * for a queue spread over a cluster, the queue that forwards it to the node hosting its partition.
     */
    public List<BrokerQueue> queueTargets(BrokerQueue queue, MessageRef message) {
        QueueOptions o = queue.options();
        if (cluster.clustered(o)) {
            queue.keyForPartitions(message);
            BrokerQueue routed = cluster.route(queue, message);
            return routed == queue ? storedIn(queue) : List.of(routed);
        }
        return storedIn(queue);
    }

    /**
     * The queues a message of {@code queue} is put into on the node that keeps it: the queue itself,
     * or each AppId queue of a fan-out queue (the message stored once, an entry per AppId). On a
     * clustered queue, for a message whose partition this node serves (sent here, or forwarded by
     * another node).
     */
    public List<BrokerQueue> storedIn(BrokerQueue queue) {
        QueueOptions o = queue.options();
        if (!QueueOptions.FANOUT.equals(o.mode())) {
            return List.of(queue);
        }
        List<BrokerQueue> out = new java.util.ArrayList<>(o.appIds().size());
        for (String appId : o.appIds()) {
            BrokerQueue q = queues.get(appQueueName(queue.name(), appId));
            if (q != null) {
                out.add(q);
            }
        }
        return out;
    }

    /** The queue a consumer of {@code address} reads: the queue, or its AppId's queue for a fan-out queue. */
    public BrokerQueue consumerQueue(DestinationAddress address) {
        BrokerQueue q = queue(address);
        String appId = address.consumerOptions().get("appId");
        boolean fanout = QueueOptions.FANOUT.equals(q.options().mode());
        if (!fanout) {
            if (appId != null) {
                throw new IllegalArgumentException(
                        "queue '" + q.name() + "' is not a fan-out queue, so appId does not apply");
            }
            return q;
        }
        if (appId == null || !q.options().appIds().contains(appId)) {
            throw new IllegalArgumentException("fan-out queue '" + q.name() + "' needs a consumer appId, one of "
                    + q.options().appIds() + (appId == null ? "" : "; '" + appId + "' is not one"));
        }
        BrokerQueue app = queues.get(appQueueName(q.name(), appId));
        if (app == null) {
            throw new UnknownDestinationException(
                    "AppId '" + appId + "' of fan-out queue '" + q.name() + "' was removed");
        }
        return app;
    }

    /**
     * Changes a queue's options (admin). AppIds may be added or removed, topic feeds changed, limits
     * and timings adjusted, the partition count changed (keys move only once drained, see
     * {@link Repartitioning}); the mode is fixed once the queue exists.
     */
    public synchronized BrokerQueue updateQueue(String name, String optionText) {
        BrokerQueue q = queues.get(name);
        QueueOptions after = QueueOptions.parse(optionText, q == null ? settings.defaultQueueOptions() : q.options());
        if (cluster.clustered(after) || (q != null && cluster.clustered(q.options()))) {
            throw new IllegalArgumentException("queue '" + name + "' is spread over the cluster: change it with"
                    + " changeQueue, which agrees the change with the other nodes");
        }
        return applyQueue(name, after);
    }

    /**
     * Creates or changes a queue (admin, config file); for a queue spread over the cluster, once the
     * other nodes agreed. A clustered queue's partition count or hosts change through
     * {@link ClusterHooks#relayout}: nodes hold its sends until what the old layout holds has drained.
     */
    public CompletableFuture<BrokerQueue> changeQueue(String name, String optionText) {
        BrokerQueue q = queues.get(name);
        if (cluster == ClusterHooks.STANDALONE || (q != null && !cluster.clustered(q.options()))) {
            if (q != null && cluster.clustered(QueueOptions.parse(optionText, q.options()))) {
                return CompletableFuture.failedFuture(new IllegalArgumentException("queue '" + name + "' lives on this"
                        + " node alone; it cannot become spread over the cluster once it exists"));
            }
            try {
                return CompletableFuture.completedFuture(updateQueue(name, optionText));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        // changed from what the cluster agreed, which this node may not have applied yet
        return cluster.agreed(name).thenCompose(agreed -> changeClusteredQueue(name, optionText, agreed));
    }

    private CompletableFuture<BrokerQueue> changeClusteredQueue(String name, String optionText, String agreed) {
        if (agreed == null) {
            BrokerQueue q = queues.get(name);
            QueueOptions after =
                    QueueOptions.parse(optionText, q == null ? settings.defaultQueueOptions() : q.options());
            if (!cluster.clustered(after)) {
                try {
                    return CompletableFuture.completedFuture(updateQueue(name, optionText));
                } catch (RuntimeException e) {
                    return CompletableFuture.failedFuture(e);
                }
            }
            return cluster.define(name, after).thenApply(v -> applyClusteredQueue(name, after.format()));
        }
        QueueOptions base = QueueOptions.parse(agreed, settings.defaultQueueOptions());
        QueueOptions after = QueueOptions.parse(optionText, base);
        if (!cluster.clustered(after)) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("queue '" + name + "' is spread over the"
                    + " cluster (hosts " + base.hosts() + "); it cannot stop being"));
        }
        if (!cluster.sameLayout(after, base)) {
            if (QueueOptions.FANOUT.equals(after.mode())) {
                // its messages are in its AppId queues, which a layout change does not drain
                return CompletableFuture.failedFuture(new IllegalArgumentException("queue '" + name
                        + "' is a fan-out queue spread over the cluster: its partitions, hosts and replicas are"
                        + " fixed once it exists (create another queue for another layout)"));
            }
            // a new layout: the sends are held while what the old one holds drains (see ClusterHooks.relayout)
            return cluster.relayout(name, after).thenApply(v -> queues.get(name));
        }
        if (after.format().equals(agreed)) {
            return CompletableFuture.completedFuture(applyClusteredQueue(name, agreed));
        }
        return cluster.define(name, after).thenApply(v -> applyClusteredQueue(name, after.format()));
    }

    /**
     * The cluster agreed a clustered queue's definition: create or change the local queue. Idempotent,
     * since a definition is applied both when this node proposed it and when its commit is heard.
     */
    public synchronized BrokerQueue applyClusteredQueue(String name, String optionText) {
        if (optionText == null) {
            deleteQueue(name);
            return null;
        }
        BrokerQueue q = queues.get(name);
        QueueOptions after = QueueOptions.parse(optionText, q == null ? settings.defaultQueueOptions() : q.options());
        if (q != null && q.options().equals(after)) {
            return q;
        }
        return applyQueue(name, after);
    }

    private BrokerQueue applyQueue(String name, QueueOptions after) {
        BrokerQueue q = queues.get(name);
        if (q == null) {
            return createQueue(name, after);
        }
        QueueOptions before = q.options();
        if (!after.mode().equals(before.mode())) {
            throw new IllegalArgumentException(
                    "queue '" + name + "': the mode cannot change on a live queue (mode " + before.mode() + ")");
        }
        if (!java.util.Objects.equals(after.lastValue(), before.lastValue())) {
            throw new IllegalArgumentException("queue '" + name + "': lastValue cannot change on a live queue");
        }
        if (after.partitions() != before.partitions() && q.repartitioning()) {
            throw new IllegalArgumentException(
                    "queue '" + name + "' is still draining its previous partition count change");
        }
        if (after.partitions() != before.partitions() && QueueOptions.FANOUT.equals(after.mode())) {
            throw new IllegalArgumentException(
                    "queue '" + name + "': change the partition count of each AppId queue instead");
        }
        q.options(after);
        if (!cluster.sameLayout(after, before)) {
            q.repartition(); // new hosts: the partitions this node hosts change, so does the engine's scope
        }
        for (String removed : before.appIds()) {
            if (!after.appIds().contains(removed)) {
                deleteQueue(appQueueName(name, removed));
            }
        }
        store.write(new StoreBatch().add(new StoreOp.SaveQueue(name, KIND_QUEUE, after.format())));
        wire(q);
        return q;
    }

    /** The queue of that name; created (durably) on first use if the node allows it. */
    public BrokerQueue queue(String name) {
        return queue(DestinationAddress.parse(name));
    }

    /** The queue an address names; created on first use with the address's queue options. */
    public BrokerQueue queue(DestinationAddress address) {
        BrokerQueue q = queues.get(address.name());
        if (q == null) {
            if (!settings.autoCreateQueues()) {
                throw new UnknownDestinationException("queue '" + address.name()
                        + "' does not exist and this node does not create queues on first use");
            }
            QueueOptions options = QueueOptions.parse(address.queueOptions(), settings.defaultQueueOptions());
            if (cluster.clustered(options)) {
                throw new DefinitionPendingException(address.name(), defineByName(address, options));
            }
            if (cluster != ClusterHooks.STANDALONE) {
                // another node may have defined it a moment ago: the cluster says whether it is clustered
                throw new DefinitionPendingException(
                        address.name(), cluster.lookup(address.name()).handle((agreed, t) -> {
                            if (t == null && agreed != null) {
                                return applyClusteredQueue(address.name(), agreed);
                            }
                            if (t != null) {
                                LOG.warn("queue {} is created on this node alone: {}", address.name(), t.getMessage());
                            }
                            return createQueue(address.name(), options);
                        }));
            }
            q = createQueue(address.name(), options);
        }
        checkAgrees(q, address);
        return q;
    }

    /**
     * A name with clustered queue options used on this node before it knows the queue: the cluster's
     * definition if it has one (the name's options must agree with it, a name never changes a
     * queue), else the name's.
     */
    private CompletableFuture<BrokerQueue> defineByName(DestinationAddress address, QueueOptions options) {
        return cluster.agreed(address.name()).thenCompose(agreed -> {
            if (agreed != null) {
                BrokerQueue q = applyClusteredQueue(address.name(), agreed);
                checkAgrees(q, address);
                return CompletableFuture.completedFuture(q);
            }
            return cluster.define(address.name(), options)
                    .thenApply(v -> applyClusteredQueue(address.name(), options.format()));
        });
    }

    /** A name's queue options must agree with the queue it names: they are never silently ignored. */
    private static void checkAgrees(BrokerQueue q, DestinationAddress address) {
        if (address.queueOptions().isEmpty()) {
            return;
        }
        List<String> conflicts = q.options().conflicts(address.queueOptions());
        if (!conflicts.isEmpty()) {
            throw new QueueOptionConflictException("queue '" + q.name() + "' already exists with other options than '"
                    + address.name() + "?" + address.queueOptions() + "' asks for: " + String.join(", ", conflicts)
                    + ". Queue options only apply when a name creates the queue: name it without them, or change"
                    + " the queue with the admin command queue.update (PartitaAdmin.updateQueue)");
        }
    }

    public BrokerQueue createQueue(String name, QueueOptions options) {
        // an AppId queue's forward log carries its name ($forward:<node>:<queue>#<appId>)
        if (name.contains("#") && !name.startsWith(FORWARD_LOG_PREFIX)) {
            throw new IllegalArgumentException("queue names may not contain '#' (reserved for AppId queues): " + name);
        }
        BrokerQueue existing = queues.get(name);
        if (existing != null) {
            return existing;
        }
        synchronized (this) {
            BrokerQueue q = queues.get(name);
            if (q == null) {
                q = new BrokerQueue(name, options, this, true);
                wire(q);
                store.write(new StoreBatch().add(new StoreOp.SaveQueue(name, KIND_QUEUE, options.format())));
                queues.put(name, q);
            }
            return q;
        }
    }

    /** A durable queue of another kind (a durable subscription), saved with its definition. */
    public BrokerQueue createDurableQueue(String name, String kind, String definition) {
        return queues.computeIfAbsent(name, n -> {
            store.write(new StoreBatch().add(new StoreOp.SaveQueue(n, kind, definition)));
            return new BrokerQueue(n, settings.defaultQueueOptions(), this, true);
        });
    }

    public Subscriptions subscriptions() {
        return subscriptions;
    }

    /** The node's XA transaction branches. */
    public org.partita.broker.core.xa.XaBranches xa() {
        return xa;
    }

    /** A queue that lives only as long as the connection that made it: never saved as a definition. */
    public BrokerQueue createTemporaryQueue(String name) {
        return queues.computeIfAbsent(name, n -> new BrokerQueue(n, QueueOptions.TERMINAL, this, false));
    }

    /** Removes a queue and everything in it. */
    public void deleteQueue(String name) {
        BrokerQueue q = queues.remove(name);
        if (q != null) {
            subscriptions.unfeedQueue(name);
            for (String appId : q.options().appIds()) {
                deleteQueue(appQueueName(name, appId));
            }
            q.purge();
            if (q.durable()) {
                store.write(new StoreBatch().add(new StoreOp.DeleteQueue(name)));
            }
        }
    }

    /** Names of every queue, sorted (AppId and subscription queues included). */
    public List<String> queueNames() {
        return queues.keySet().stream().sorted().toList();
    }

    public BrokerQueue existingQueue(String name) {
        return queues.get(name);
    }

    /** Payload bytes of messages held in queues without a stored copy (non-persistent ones): what flow control bounds. */
    public long unstoredBytes() {
        return unstoredBytes.get();
    }

    @Override
    public MessageRef newMessage(byte[] encoded, WireMessage wire, Object origin) {
        return new MessageRef(messageIds.incrementAndGet(), encoded, wire, origin);
    }

    /**
     * An id for a message whose large body arrives before it (its file is named by it); the message
     * is made with {@link #newLargeMessage} once sent.
     */
    public long reserveMessageId() {
        return messageIds.incrementAndGet();
    }

    /** A message whose large body is kept in {@link #largeBodies()} under the id reserved for it. */
    public MessageRef newLargeMessage(long reservedId, byte[] encoded, WireMessage wire, Object origin) {
        MessageRef m = new MessageRef(reservedId, encoded, wire, origin);
        m.largeBody(largeBodies);
        return m;
    }

    private org.partita.broker.store.large.LargeBodies largeBodies;

    /**
     * Where large message bodies are kept (set once at start, before any client connects): a body
     * follows its message when it is dead-lettered under a new id, and goes with it.
     */
    public void largeBodies(org.partita.broker.store.large.LargeBodies bodies) {
        this.largeBodies = bodies;
        xa().largeBodies(bodies); // what prepared branches read back at start send
    }

    public org.partita.broker.store.large.LargeBodies largeBodies() {
        return largeBodies;
    }

    @Override
    public void bodyCopied(MessageRef from, MessageRef to) {
        if (largeBodies != null && largeBodies.holds(from.id())) {
            largeBodies.share(from.id(), to.id());
            to.largeBody(largeBodies);
        }
    }

    @Override
    public void countUnstored(MessageRef m) {
        m.countUnstored(unstoredBytes);
    }

    /**
     * Stores (where needed) and queues one message sent on its own (not in a transaction); completes
     * when it is durable and queued, or, for an unkeyed message of a clustered queue this node has
     * no room for, once another node stored it (see {@link ClusterHooks#overflow}).
     */
    public CompletableFuture<Void> send(PendingSend send) {
        return store(List.of(send), List.of(), true);
    }

    /**
     * Makes sends and acknowledgements durable together, then queues the sends and forgets the
     * consumed entries. A payload gets one row however many durable queues hold it; only queues
     * that keep entries in the store get entry rows.
     */
    public CompletableFuture<Void> commit(List<PendingSend> sends, List<Consumed> consumed) {
        return store(sends, consumed, false);
    }

    /**
     * For sends about to be stored outside {@link #commit} (a prepared XA branch's commit): once each of
     * those that wait in a replica set's forward log reached the set ({@link ClusterHooks#reachedReplicas});
     * call before storing them, cancel on failure.
     */
    public List<CompletableFuture<Void>> reachingReplicas(List<PendingSend> sends) {
        return sendRoutes.reachingReplicas(sends);
    }

    /** @param alone one send, not in a transaction: it may overflow to another node directly */
    private CompletableFuture<Void> store(List<PendingSend> sends, List<Consumed> consumed, boolean alone) {
        if (!alone) {
            CompletableFuture<List<PendingSend>> rest = keptBeforeInTransaction(sends);
            if (rest != null) {
                // a transaction made again by a producer whose node was lost before it answered the commit
                return rest.thenCompose(left -> store(left, consumed, false));
            }
        }
        while (true) {
            String held = heldBy(sends);
            if (held != null) {
                CompletableFuture<Void> later = new CompletableFuture<>();
                if (cluster.holdSend(held, () -> storeLater(sends, consumed, alone, later))) {
                    return later;
                }
                continue; // the change ended a moment ago
            }
            if (alone) {
                PendingSend send = sends.get(0);
                CompletableFuture<List<BrokerQueue>> kept = keptBefore(send);
                if (kept != null) {
                    // the same message, sent again by a producer whose node was lost before it answered:
                    // one copy in each queue; what the first write did not store after all is stored now
                    return kept.thenCompose(queues -> {
                        List<BrokerQueue> rest = new ArrayList<>(send.targets());
                        rest.removeAll(queues);
                        if (rest.isEmpty()) {
                            return CompletableFuture.completedFuture(null);
                        }
                        send.targets(rest);
                        return store(sends, consumed, true);
                    });
                }
                CompletableFuture<Void> elsewhere = sendRoutes.overflow(sends.get(0));
                if (elsewhere != null) {
                    return elsewhere;
                }
            }
            sendRoutes.reroute(sends);
            try {
                reserveAll(sends);
            } catch (QueueFullException full) {
                // filled by another send since the overflow was looked at: it may go elsewhere now
                CompletableFuture<Void> elsewhere = alone ? sendRoutes.overflow(sends.get(0)) : null;
                if (elsewhere == null) {
                    throw full;
                }
                return elsewhere;
            }
            // A change of layout that began between the check and the reservation did not see the
            // reservation, or saw it: checked again after reserving, one of the two always sees the other.
            if (heldBy(sends) == null) {
                break;
            }
            unreserveAll(sends);
        }
        // sends to partitions whose replica set another node leads that wait in this node's forward log
        // for the set (a transaction's; one on its own that queued behind the key's earlier ones there)
        // are confirmed once the set's replicas hold them, not while only this node does
        List<CompletableFuture<Void>> atReplicas = sendRoutes.reachingReplicas(sends);
        CompletableFuture<Void> stored = complete(sends, consumed, List.of(), List.of())
                .whenComplete((v, t) -> {
                    if (t != null) {
                        unreserveAll(sends); // nothing was stored: the sends no longer count against the queues
                        atReplicas.forEach(r -> r.cancel(false));
                    }
                });
        CompletableFuture<Void> confirmed = atReplicas.isEmpty()
                ? stored
                : stored.thenCompose(v -> CompletableFuture.allOf(atReplicas.toArray(CompletableFuture[]::new)));
        if (!alone) {
            return consumed.isEmpty() && !sends.isEmpty()
                    ? confirmed.exceptionallyCompose(t -> commitAgain(t, sends))
                    : confirmed;
        }
        // (a wait for the replicas never fails: only a failed store is tried again below)
        return confirmed.exceptionallyCompose(t -> {
            Throwable cause =
                    t instanceof java.util.concurrent.CompletionException && t.getCause() != null ? t.getCause() : t;
            PendingSend send = sends.get(0);
            if (!send.routed() || send.servedElsewhereTries++ >= SERVED_ELSEWHERE_TRIES) {
                return CompletableFuture.failedFuture(t);
            }
            PendingSend again;
            if (cause instanceof org.partita.broker.store.StoreUnavailableException u && u.servedElsewhereNow()) {
                // the partition's replica set handed its leadership on while the write was on its way,
                // refused before it reached the log: stored again, by this node's view of who serves it now
                again = send;
            } else if (cause instanceof StoreException e && e.maybeStored()) {
                // the set took it and lost its leader before confirming it: a majority may hold it. Sent
                // again marked, so that the set's next leader, which holds every entry it will ever
                // confirm, keeps one copy (keptBefore)
                again = send.sentAgain(this);
            } else {
                return CompletableFuture.failedFuture(t);
            }
            return afterPause(() -> store(List.of(again), consumed, true));
        });
    }

    /**
     * A commit that only sent and whose write a replica set took and lost its leader before confirming
     * (or refused, handing its leadership on), tried again as a send on its own is
     * ({@link #SERVED_ELSEWHERE_TRIES}): after a write in doubt, its persistent sends marked
     * {@link ProviderProperties#SENT_AGAIN}, so that what the first write stored is kept once
     * ({@link #keptBeforeInTransaction}); the commit then succeeds rather than fail in doubt. A commit that consumed messages is not tried again: its
     * acknowledgements may have been written, and it fails as before.
     */
    private CompletableFuture<Void> commitAgain(Throwable t, List<PendingSend> sends) {
        Throwable cause =
                t instanceof java.util.concurrent.CompletionException && t.getCause() != null ? t.getCause() : t;
        PendingSend first = sends.get(0);
        boolean servedElsewhere =
                cause instanceof org.partita.broker.store.StoreUnavailableException u && u.servedElsewhereNow();
        boolean maybeStored = cause instanceof StoreException e && e.maybeStored();
        if (!(servedElsewhere || maybeStored)
                || !sends.stream().allMatch(PendingSend::routed)
                || first.servedElsewhereTries++ >= SERVED_ELSEWHERE_TRIES) {
            return CompletableFuture.failedFuture(t);
        }
        List<PendingSend> again = new ArrayList<>();
        for (PendingSend s : sends) {
            if (s.targets().isEmpty()) {
                continue; // a part another store took stands, its queues taken out of targets
            }
            // refused before the log (served elsewhere now), nothing was written: stored again as it is.
            // Left in doubt, a persistent send is looked up by its id (a non-persistent one is not kept in
            // the store and is stored again as it is)
            again.add(maybeStored && s.message().persistent() ? s.sentAgain(this) : s);
        }
        if (again.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        again.get(0).servedElsewhereTries = Math.max(again.get(0).servedElsewhereTries, first.servedElsewhereTries);
        return afterPause(() -> store(again, List.of(), false));
    }

    /** {@code store} tried again after {@link #SERVED_ELSEWHERE_PAUSE_MILLIS}: time for the node to hear of the set's new leader. */
    private static CompletableFuture<Void> afterPause(java.util.function.Supplier<CompletableFuture<Void>> store) {
        return CompletableFuture.supplyAsync(
                        () -> null,
                        CompletableFuture.delayedExecutor(
                                SERVED_ELSEWHERE_PAUSE_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS))
                .thenCompose(v -> store.get());
    }

    /**
     * For a transaction's sends, those marked {@link ProviderProperties#SENT_AGAIN} (the client made the
     * transaction again on this node because the node of its commit was lost before it answered): each
     * looked up as {@link #keptBefore} does, and only what no replica set stored yet is left to store,
     * so a commit the lost node made is not stored twice. Null when no send is marked; fails in doubt
     * ({@link ErrorCode#IN_DOUBT}, nothing stored) when one goes to a destination that keeps one copy on
     * one node.
     */
    private CompletableFuture<List<PendingSend>> keptBeforeInTransaction(List<PendingSend> sends) {
        List<CompletableFuture<Void>> lookups = new ArrayList<>();
        for (PendingSend send : sends) {
            CompletableFuture<List<BrokerQueue>> kept;
            try {
                kept = keptBefore(send);
            } catch (ProtocolException inDoubt) {
                return CompletableFuture.failedFuture(inDoubt);
            }
            if (kept != null) {
                lookups.add(kept.thenAccept(queues -> {
                    List<BrokerQueue> rest = new ArrayList<>(send.targets());
                    rest.removeAll(queues);
                    send.targets(rest);
                }));
            }
        }
        if (lookups.isEmpty()) {
            return null;
        }
        return CompletableFuture.allOf(lookups.toArray(CompletableFuture[]::new))
                .thenApply(
                        v -> sends.stream().filter(s -> !s.targets().isEmpty()).toList());
    }

    /**
     * How many times a client's send on its own, refused because its partition is served elsewhere now
     * or left in doubt by a change of leader, is tried again, and how long apart: the node hears of
     * the new leader within an election, about a second.
     */
    private static final int SERVED_ELSEWHERE_TRIES = 20;

    private static final long SERVED_ELSEWHERE_PAUSE_MILLIS = 100;

    /**
     * For a message a producer sent again (marked {@link ProviderProperties#SENT_AGAIN}) because its
     * node was lost before it answered: the queues among its targets in which a replica set stored it
     * lately, by queue and JMSMessageID, once each of those writes is known to have been confirmed (null
     * if none has one: it is stored now as any send). The sets this node keeps are looked up here. An
     * unkeyed message may have been placed in any set of its queue: the serving leaders of the sets
     * this node does not serve are asked ({@link ClusterHooks#storedInSetsServedElsewhere}), and when
     * they cannot tell within a bound the send fails in doubt. A keyed one's set is fixed, and that
     * set's serving leader looks it up again when it is forwarded there. Looked up once per send: what
     * is left is then stored. By queue: a fan-out
     * message's AppId copies share their JMSMessageID and may have been stored apart. Refused
     * ({@link ErrorCode#IN_DOUBT}) when its destination keeps one copy on one node, where whether the
     * lost node stored it cannot be told.
     */
    private CompletableFuture<List<BrokerQueue>> keptBefore(PendingSend s) {
        MessageRef m = s.message();
        if (s.keptLookedUp || !Boolean.TRUE.equals(m.wire().property(ProviderProperties.SENT_AGAIN))) {
            return null;
        }
        s.keptLookedUp = true;
        String id = m.wire().messageId();
        boolean replicated = !s.targets().isEmpty() && m.persistent() && id != null;
        for (BrokerQueue q : s.targets()) {
            replicated &= sendRoutes.replicated(q);
        }
        if (!replicated) {
            throw new ProtocolException(
                    ErrorCode.IN_DOUBT,
                    "the message " + id + " was sent again because its node was lost before it answered, and "
                            + m.wire().destination() + " keeps one copy on one node (it is not a queue with"
                            + " replicas): whether the lost node stored it cannot be told; nothing was stored here");
        }
        List<CompletableFuture<BrokerQueue>> earlier = new ArrayList<>();
        for (BrokerQueue q : s.targets()) {
            String queue = queueStoredIn(q);
            CompletableFuture<Void> written = cluster.writtenLately(queue, id);
            if (written != null) {
                earlier.add(written.handle((v, failed) -> failed == null ? q : null));
            } else if (!m.keyed()) {
                CompletableFuture<Boolean> elsewhere = cluster.storedInSetsServedElsewhere(queue, id);
                if (elsewhere != null) {
                    earlier.add(elsewhere.thenApply(stored -> stored ? q : null));
                }
            }
        }
        if (earlier.isEmpty()) {
            return null;
        }
        return CompletableFuture.allOf(earlier.toArray(CompletableFuture[]::new))
                .thenApply(v -> earlier.stream()
                        .map(CompletableFuture::join)
                        .filter(java.util.Objects::nonNull)
                        .toList());
    }

    /**
     * The queue a replica set stores a message of {@code target} in: the target itself, or, for the
     * forward log of a set ({@code $forward:<set>:<queue>}), the queue it forwards to, whose name the
     * set's leader stores the message under.
     */
    private static String queueStoredIn(BrokerQueue target) {
        String name = target.name();
        if (!name.startsWith(FORWARD_LOG_PREFIX)) {
            return name;
        }
        String rest = name.substring(FORWARD_LOG_PREFIX.length());
        return rest.substring(rest.indexOf(':') + 1);
    }

    private void storeLater(
            List<PendingSend> sends, List<Consumed> consumed, boolean alone, CompletableFuture<Void> later) {
        try {
            store(sends, consumed, alone).whenComplete((v, t) -> {
                if (t != null) {
                    later.completeExceptionally(t);
                } else {
                    later.complete(null);
                }
            });
        } catch (RuntimeException e) {
            later.completeExceptionally(e);
        }
    }

    /**
     * The clustered queue among the sends' destinations whose sends are held now because its partitions
     * or hosts are changing; null if none is.
     */
    public String heldBy(List<PendingSend> sends) {
        return sendRoutes.heldBy(sends);
    }

    /**
     * Counts sends against their queues' depth limits, all or nothing, ahead of {@link #complete}
     * (an XA branch does so when it prepares); throws {@link QueueFullException} if one is full, or
     * if a clustered queue among them is changing its layout (the branch may prepare again after).
     */
    public void reserve(List<PendingSend> sends) {
        sendRoutes.reroute(sends);
        reserveAll(sends);
        String held = heldBy(sends);
        if (held != null) {
            unreserveAll(sends);
            throw new QueueFullException("queue '" + held + "' is changing its partitions or hosts; nothing was"
                    + " stored, try again once the change is done");
        }
    }

    /** Undoes {@link #reserve} for sends that will not be stored. */
    public void unreserve(List<PendingSend> sends) {
        unreserveAll(sends);
    }

    /** The node's own store, as {@link #complete}'s {@code extraIn} names it (every send's commit passes it). */
    private static final List<MessageStore> OWN_STORE = java.util.Collections.singletonList(null);

    /**
     * Makes reserved sends, consumed deliveries, the removal of entries a prepared XA branch locked,
     * and {@code extra} operations durable in one batch, then queues the sends and forgets what was
     * consumed. A failed write changes nothing in memory and leaves the reservations to the caller.
     */
    public CompletableFuture<Void> complete(
            List<PendingSend> sends, List<Consumed> consumed, List<QueueEntry> locked, List<StoreOp> extra) {
        return complete(sends, consumed, locked, extra, OWN_STORE);
    }

    /**
     * {@link #complete}, {@code extra} written in each store of {@code extraIn} (null stands for the
     * node's own): a prepared XA branch's record is kept in each store that keeps a part of its work.
     */
    public CompletableFuture<Void> complete(
            List<PendingSend> sends,
            List<Consumed> consumed,
            List<QueueEntry> locked,
            List<StoreOp> extra,
            java.util.Collection<MessageStore> extraIn) {
        StoreBatches batches = StoreBatches.forced();
        Map<MessageRef, PayloadMemory> toStore = new java.util.IdentityHashMap<>();
        List<MessageRef> unstored = new java.util.ArrayList<>();
        int[] retained = new int[sends.size()];
        try {
            batch(sends, batches, toStore, unstored, retained);
        } catch (RuntimeException e) {
            // refused before anything was written (a replica set not open yet): the payloads are
            // held by no more entries than before, so the work can be tried again
            for (int i = 0; i < sends.size(); i++) {
                sends.get(i).message().retain(-retained[i]);
            }
            throw e;
        }
        for (Consumed c : consumed) {
            c.entry().queue().addRemoval(c.entry(), batches);
        }
        for (QueueEntry e : locked) {
            e.queue().addRemoval(e, batches);
        }
        if (!extra.isEmpty()) {
            for (MessageStore in : extraIn) {
                extra.forEach(batches.of(in == null ? store : in)::add);
            }
        }
        if (batches.isEmpty()) {
            applyCompleted(sends, consumed, locked, toStore, unstored, false);
            return CompletableFuture.completedFuture(null);
        }
        Map<MessageStore, CompletableFuture<Void>> writes = batches.writeEach();
        CompletableFuture<Void> all = writes.size() == 1
                ? writes.values().iterator().next() // the common case keeps the store's own future (and thread)
                : CompletableFuture.allOf(writes.values().toArray(CompletableFuture[]::new));
        return all.exceptionallyCompose(failed -> {
                    CompletableFuture<Throwable> settled = CompletableFuture.completedFuture(failed);
                    if (writes.size() > 1) {
                        try {
                            settled = settleStoredParts(sends, consumed, locked, writes, failed, retained);
                        } catch (RuntimeException e) {
                            LOG.warn("could not settle the parts of a failed commit its other stores took", e);
                        }
                    }
                    return settled.<Void>thenApply(reported -> {
                        // nothing else was stored or queued: the payloads are held by no more entries than before
                        for (int i = 0; i < sends.size(); i++) {
                            sends.get(i).message().retain(-retained[i]);
                        }
                        throw reported instanceof java.util.concurrent.CompletionException c
                                ? c
                                : new java.util.concurrent.CompletionException(reported);
                    });
                })
                .thenRun(() -> applyCompleted(sends, consumed, locked, toStore, unstored, true));
    }

    /** The inserts of {@link #complete}'s sends into the batches of the stores their queues keep them in. */
    private void batch(
            List<PendingSend> sends,
            StoreBatches batches,
            Map<MessageRef, PayloadMemory> toStore,
            List<MessageRef> unstored,
            int[] retained) {
        for (int i = 0; i < sends.size(); i++) {
            PendingSend s = sends.get(i);
            MessageRef m = s.message();
            retained[i] = s.targets().size();
            m.retain(retained[i]);
            // the stores given the payload: one in all but rare cases, so no collection per send
            MessageStore firstStore = null;
            List<MessageStore> moreStores = null;
            for (BrokerQueue q : s.targets()) {
                if (q.storesEntryOf(m)) {
                    MessageStore into = q.storeFor(m);
                    boolean has = into == firstStore || (moreStores != null && moreStores.contains(into));
                    if (!has) {
                        // once per store: a replicated partition's set keeps its own copy
                        batches.of(into).add(new StoreOp.InsertMessage(m.id(), m.encoded()));
                        toStore.put(m, payloadMemoryOf(into));
                        if (firstStore == null) {
                            firstStore = into;
                        } else {
                            if (moreStores == null) {
                                moreStores = new java.util.ArrayList<>(2);
                            }
                            moreStores.add(into);
                        }
                    }
                    batches.of(into).add(new StoreOp.InsertEntry(q.name(), m.id(), s.deliveryCount()));
                }
            }
            if (firstStore == null && !s.targets().isEmpty()) {
                unstored.add(m);
            }
        }
    }

    /**
     * Work written to several stores (a transaction sending to partitions of several replica sets, or
     * to a set and a forward log) whose write failed in one of them while others took their parts.
     * Left as it was, what the others took stayed out of memory and came only after the node restarted
     * or a set changed leader, after the producer's later messages of their keys (found by the
     * transacted nemesis):
     * <ul>
     *   <li>a write left in doubt by any store (a set took it and lost its leader: its next leader may
     *       hold it): the parts the others took stand, queued now in their place, and the work fails
     *       in doubt. Each send keeps only its other targets, which the caller counts out;
     *   <li>refusals only (nothing of those parts stored): the others' parts are taken back from their
     *       stores, so the work is undone as reported.
     * </ul>
     * Either way the entries the work consumed, whose removal a store took, are written back there:
     * they stay in flight in memory and come again, flagged, and must be in the store too if the node
     * restarts first.
     *
     * @param retained lowered by the references the queued parts keep
     * @return the failure to report, once the parts taken back are: one that leaves the work in
     *     doubt if any store's does, or if a part could not be taken back
     */
    private CompletableFuture<Throwable> settleStoredParts(
            List<PendingSend> sends,
            List<Consumed> consumed,
            List<QueueEntry> locked,
            Map<MessageStore, CompletableFuture<Void>> writes,
            Throwable failed,
            int[] retained) {
        Throwable reported = failed;
        boolean inDoubt = false;
        for (CompletableFuture<Void> w : writes.values()) {
            Throwable t = w.handle((v, x) -> x).join();
            Throwable cause =
                    t instanceof java.util.concurrent.CompletionException && t.getCause() != null ? t.getCause() : t;
            if (cause instanceof StoreException e && e.maybeStored()) {
                inDoubt = true;
                reported = cause;
            }
        }
        Map<MessageStore, StoreBatch> undo = new java.util.LinkedHashMap<>();
        for (int i = 0; i < sends.size(); i++) {
            PendingSend s = sends.get(i);
            MessageRef m = s.message();
            List<BrokerQueue> rest = new ArrayList<>(s.targets().size());
            boolean marked = false;
            for (BrokerQueue q : s.targets()) {
                MessageStore into = q.storesEntryOf(m) ? q.storeFor(m) : null;
                if (!took(writes, into)) {
                    rest.add(q);
                } else if (inDoubt) {
                    if (!marked) {
                        m.markStored(payloadMemoryOf(into));
                        marked = true;
                    }
                    q.enqueueStored(m, s.deliveryCount());
                    retained[i]--;
                } else {
                    StoreBatch b = undo.computeIfAbsent(into, x -> new StoreBatch());
                    b.add(new StoreOp.DeleteEntry(q.name(), m.id()));
                    b.add(new StoreOp.DeleteMessage(m.id())); // once per entry: a second delete is harmless
                    rest.add(q);
                }
            }
            if (rest.size() < s.targets().size()) {
                s.targets(rest);
            }
        }
        List<QueueEntry> taken = new ArrayList<>(locked);
        consumed.forEach(c -> taken.add(c.entry()));
        for (QueueEntry e : taken) {
            MessageStore from = e.queue().entryStore(e);
            if (took(writes, from)) {
                undo.computeIfAbsent(from, x -> new StoreBatch())
                        .add(new StoreOp.InsertEntry(e.queue().name(), e.id(), e.deliveryCount()));
            }
        }
        if (undo.isEmpty()) {
            return CompletableFuture.completedFuture(reported);
        }
        // the failure is reported once the parts are taken back: a commit tried again after it must
        // not find them still stored
        List<CompletableFuture<Void>> undone = new ArrayList<>();
        undo.forEach((store, batch) -> undone.add(store.write(batch)));
        Throwable refused = reported;
        return CompletableFuture.allOf(undone.toArray(CompletableFuture[]::new)).handle((v, t) -> {
            if (t == null) {
                return refused;
            }
            LOG.warn(
                    "could not take back in one store the part of a failed commit it took: after a restart"
                            + " or a change of leader its sends may come, and what it consumed may not",
                    t);
            return StoreException.inDoubt(
                    "a part of the commit was stored and could not be taken back after another part was refused ("
                            + refused.getMessage() + ")",
                    refused);
        });
    }

    /** Whether {@code store} (null: none) took its part of a write that failed elsewhere. */
    private static boolean took(Map<MessageStore, CompletableFuture<Void>> writes, MessageStore store) {
        CompletableFuture<Void> w = store == null ? null : writes.get(store);
        return w != null && w.isDone() && !w.isCompletedExceptionally();
    }

    /**
     * What {@link #complete} changes in memory once its batch is durable.
     *
     * @param stored the batch was just written, and this runs on the thread that committed it: the
     *               store's writer, or the network thread that wrote it (at the end of its turn)
     */
    private void applyCompleted(
            List<PendingSend> sends,
            List<Consumed> consumed,
            List<QueueEntry> locked,
            Map<MessageRef, PayloadMemory> toStore,
            List<MessageRef> unstored,
            boolean stored) {
        toStore.forEach(MessageRef::markStored);
        unstored.forEach(m -> m.countUnstored(unstoredBytes)); // before a queue could let it go
        for (PendingSend s : sends) {
            for (BrokerQueue q : s.targets()) {
                if (stored) {
                    q.enqueueStored(s.message(), s.deliveryCount());
                } else {
                    q.enqueue(s.message(), s.deliveryCount());
                }
            }
        }
        for (Consumed c : consumed) {
            c.entry().queue().forget(c.entry(), c.by());
        }
        for (QueueEntry e : locked) {
            e.queue().commitLocked(e);
        }
    }

    private static void unreserveAll(List<PendingSend> sends) {
        for (PendingSend s : sends) {
            for (BrokerQueue q : s.targets()) {
                q.unreserve(s.message());
            }
        }
    }

    /** Counts every send against its queues' depth limits, all or nothing. */
    private static void reserveAll(List<PendingSend> sends) {
        List<Map.Entry<BrokerQueue, MessageRef>> done = new java.util.ArrayList<>();
        for (PendingSend s : sends) {
            for (BrokerQueue q : s.targets()) {
                if (!q.reserve(s.message())) {
                    done.forEach(d -> d.getKey().unreserve(d.getValue()));
                    throw new QueueFullException("queue '" + q.name() + "' is full (maxDepthMessages "
                            + q.options().maxDepthMessages() + ", maxDepthBytes "
                            + q.options().maxDepthBytes()
                            + "); the message was not stored");
                }
                done.add(Map.entry(q, s.message()));
            }
        }
    }

    /** An entry a transaction consumed, and the consumer it was delivered to. */
    public record Consumed(QueueEntry entry, ConsumerRef by) {}

    /**
     * A send (held by a transaction until it commits). A client's send to a clustered queue is
     * {@linkplain #routed routed}: its targets are chosen again when it is stored, so that a send
     * routed before a change of the queue's partitions or hosts goes where the agreed layout says
     * when it is stored (see {@link ClusterHooks#holdsSends}).
     */
    public static final class PendingSend {
        private volatile List<BrokerQueue> targets;
        /** How many times this send was stored again because its partition was served elsewhere by then. */
        private int servedElsewhereTries;
        /** Whether {@link Broker#keptBefore} looked for an earlier copy of this send (once: the rest is then stored). */
        private boolean keptLookedUp;

        private final MessageRef message;
        private final int deliveryCount;
        private final boolean routed;

        /**
         * A send whose targets are final (a message another node forwarded, a prepared XA branch read back).
         *
         * @param deliveryCount 0 for a new message; above 0 for one forwarded from another node that may
         *                      have been forwarded before, so that it comes flagged redelivered
         */
        public PendingSend(List<BrokerQueue> targets, MessageRef message, int deliveryCount) {
            this(targets, message, deliveryCount, false);
        }

        public PendingSend(List<BrokerQueue> targets, MessageRef message) {
            this(targets, message, 0, false);
        }

        private PendingSend(List<BrokerQueue> targets, MessageRef message, int deliveryCount, boolean routed) {
            this.targets = List.copyOf(targets);
            this.message = message;
            this.deliveryCount = deliveryCount;
            this.routed = routed;
        }

        /** A client's send, whose targets were chosen by {@link Broker#queueTargets} or a topic's routes. */
        public static PendingSend routed(List<BrokerQueue> targets, MessageRef message) {
            return new PendingSend(targets, message, 0, true);
        }

        public List<BrokerQueue> targets() {
            return targets;
        }

        public MessageRef message() {
            return message;
        }

        public int deliveryCount() {
            return deliveryCount;
        }

        /**
         * This send again, its message marked {@link ProviderProperties#SENT_AGAIN} (a new copy with
         * the same JMSMessageID and key), for a store that may have kept it already.
         */
        PendingSend sentAgain(Broker broker) {
            MessageRef m = message;
            if (Boolean.TRUE.equals(m.wire().property(ProviderProperties.SENT_AGAIN))) {
                keptLookedUp = false; // left in doubt since it was looked up: looked up again
                return this;
            }
            byte[] marked = MessageCodec.withProperty(m.encoded(), ProviderProperties.SENT_AGAIN, Boolean.TRUE);
            MessageRef copy = broker.newMessage(marked, MessageCodec.decodeHeaders(marked), m.origin());
            copy.keyLike(m);
            PendingSend again = new PendingSend(targets, copy, deliveryCount, routed);
            again.servedElsewhereTries = servedElsewhereTries;
            return again;
        }

        boolean routed() {
            return routed;
        }

        /** Its queues from now on (rerouted, or some of them kept elsewhere now). */
        public void targets(List<BrokerQueue> t) {
            targets = List.copyOf(t);
        }
    }

    @Override
    public MessageStore store() {
        return store;
    }

    @Override
    public PayloadMemory payloadMemory() {
        return payloadMemory;
    }

    @Override
    public PayloadMemory payloadMemoryOf(MessageStore s) {
        return s == store
                ? payloadMemory
                : otherMemories.computeIfAbsent(s, x -> payloadMemory.readingFrom(x::readPayload));
    }

    @Override
    public MessageStore storeOf(String queue, QueueOptions options, int partition) {
        MessageStore s = cluster.storeOf(queue, options, partition);
        return s != null ? s : store;
    }

    @Override
    public boolean replicated(QueueOptions options) {
        return cluster.replicated(options);
    }

    @Override
    public java.util.concurrent.Executor pool() {
        return pool;
    }

    @Override
    public ScheduledExecutorService timers() {
        return timers;
    }

    @Override
    public LongSupplier clock() {
        return clock;
    }

    @Override
    public BrokerQueue terminalQueue(String name) {
        BrokerQueue q = queues.get(name);
        return q != null ? q : createQueue(name, QueueOptions.TERMINAL);
    }

    /**
     * Waits, at most {@code timeoutMillis}, until every queue has run the work queued on it so far. A
     * stopping node calls it after its connections closed and before its store closes: the messages
     * those connections had received and not acknowledged go back to their queues as tasks, and
     * their delivery counts must reach the store, or they would come back unflagged after a restart.
     */
    public void awaitQueuedWork(long timeoutMillis) {
        CompletableFuture<?>[] all =
                queues.values().stream().map(BrokerQueue::queuedWorkDone).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(all).get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            LOG.warn(
                    "stopping with queue work still running after {} ms: delivery counts of messages handed back"
                            + " just now may be lost",
                    timeoutMillis);
        }
    }

    @Override
    public void close() {
        timers.shutdownNow();
        pool.shutdown();
        try {
            pool.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
