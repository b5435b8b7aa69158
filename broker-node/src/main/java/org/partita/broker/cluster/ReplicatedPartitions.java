package org.partita.broker.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.partita.broker.config.ClusterConfig;
import org.partita.broker.store.replica.LeadershipListener;
import org.partita.broker.store.replica.ReplicaServer;
import org.partita.broker.store.replica.ReplicaServerSettings;
import org.partita.broker.store.replica.ReplicaSet;
import org.partita.broker.store.replica.ReplicaSetFigures;
import org.partita.broker.store.replica.ReplicatedStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's part in the replica sets of its replicated queues ({@code replicas} above 1): the
 * replica server, started when the first such queue is applied here; the sets this node joined; and
 * which of them it serves now. A node serves a set (takes its partitions' sends, dispatches them)
 * from the moment it leads the set and has read its store back, until it stops leading it.
 *
 * <p>Changes of leadership come from Ratis's threads; they are handed to one thread of their own
 * here, in order, since taking a set over reads its store.
 */
final class ReplicatedPartitions implements LeadershipListener, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicatedPartitions.class);

    /** What happens on this node when it starts or stops serving a set. */
    interface Serving {
        /** Reads the set's partitions back from its store into their queues (before they are served). */
        void takeOver(ReplicatedStore store);

        /** The set's partitions are served here now ({@code true}) or no longer. */
        void servingChanged(String set, boolean serving);

        /** This node's leadership of a set it serves was confirmed again after a lapse: its partitions may deliver. */
        void leaseRenewed(String set);

        /** The set is led by {@code leader} now (this node or another; null during an election), as Ratis told this replica. */
        void ledBy(String set, String leader);
    }

    private final ClusterConfig cluster;
    private final String self;
    /** This node's own port: its replica server binds at the replica offset from it. */
    private final int listenPort;

    private final Path dir;
    private final Serving serving;
    private final Map<String, ReplicatedStore> joined = new ConcurrentHashMap<>();
    private final Set<String> served = ConcurrentHashMap.newKeySet();
    private final Map<String, Long> lastChange = new ConcurrentHashMap<>();
    /** Per set served: when (System.nanoTime) a majority was last asked, and confirmed, that this node leads it. */
    private final Map<String, Long> confirmedAt = new ConcurrentHashMap<>();
    /** The sets whose leadership is being handed to their preferred leader: not delivered meanwhile. */
    private final Set<String> handingOver = ConcurrentHashMap.newKeySet();
    /** Per set, when (System.nanoTime) its last hand-over ended: a confirmation asked before does not count. */
    private final Map<String, Long> handedOverAt = new ConcurrentHashMap<>();

    private final PreferredLeaders preferredLeaders;

    private final long electionMillis;
    private final long leaseNanos;
    private final ScheduledExecutorService worker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "partita-replica-sets");
        t.setDaemon(true);
        return t;
    });
    private volatile ReplicaServer server;
    /** The node's largest frame: a replica log entry holds a message of that size. */
    private final int maxFrameSize;

    /**
     * @param listenPort   this node's own port (its member entry's unless a port forward stands between)
     * @param maxFrameSize the node's largest frame: a replica log entry holds a message of that size
     * @param linked       whether another node is linked to this one now
     */
    ReplicatedPartitions(
            ClusterConfig cluster,
            String self,
            int listenPort,
            Path dir,
            int maxFrameSize,
            Serving serving,
            java.util.function.Predicate<String> linked) {
        this.cluster = cluster;
        this.maxFrameSize = maxFrameSize;
        this.self = self;
        this.listenPort = listenPort;
        this.dir = dir;
        this.serving = serving;
        // A leader lost is replaced within 2 x downAfterMillis. A follower stands after 1 to 2
        // election timeouts; while the set's preferred leader (a higher Raft priority) is the one
        // lost, its pre-vote and its vote each wait another 1 to 2 for that leader's answer
        // (Ratis's LeaderElection): up to 6 election timeouts in all, 5 of which fit in 2 x downAfter.
        this.electionMillis = electionMillis(cluster);
        // No follower stands before an election timeout has passed since the leader's last heartbeat,
        // so a leadership confirmed at time t holds until t plus that: a margin is kept off it.
        this.leaseNanos = TimeUnit.MILLISECONDS.toNanos(electionMillis * 4 / 5);
        worker.scheduleWithFixedDelay(
                this::confirmLeadership, electionMillis / 4, electionMillis / 4, TimeUnit.MILLISECONDS);
        this.preferredLeaders = new PreferredLeaders(self, linked, this::holding, electionMillis, System::nanoTime);
        var unused = worker.scheduleWithFixedDelay( // runs until the worker is shut down
                this::handBackToPreferredLeaders, electionMillis, electionMillis, TimeUnit.MILLISECONDS);
    }

    /** The election timeout of the replica sets: a fifth of downAfter, at least 150 ms. */
    static long electionMillis(ClusterConfig cluster) {
        return Math.max(150, cluster.downAfterMillis() / 5);
    }

    /**
     * How long a client may hand out prefetched messages after it last heard from its node: half an
     * election timeout. Another node can lead a set only an election timeout after this node's last
     * heartbeat to it, and then reads the set back before it delivers, so a client of this node that
     * stops answering stops handing out what this node delivered before anyone else can deliver it
     * again.
     */
    static int clientLeaseMillis(ClusterConfig cluster) {
        return (int) (electionMillis(cluster) / 2);
    }

    /** Hands the sets served here whose preferred leader is another node back to it once it caught up. */
    private void handBackToPreferredLeaders() {
        try {
            preferredLeaders.check(served.stream()
                    .map(joined::get)
                    .filter(java.util.Objects::nonNull)
                    .toList());
        } catch (RuntimeException e) {
            LOG.warn("could not look at the replica sets' preferred leaders: {}", e.toString());
        }
    }

    /**
     * A set's leadership is being handed over ({@code true}): this node delivers none of its messages
     * until the hand-over ended and a majority confirmed afresh that this node still leads it. Ratis
     * elects the new leader at once, without the election timeout the lease counts on.
     */
    private void holding(String set, boolean holding) {
        synchronized (confirmedAt) {
            if (holding) {
                handingOver.add(set);
            } else {
                handedOverAt.put(set, System.nanoTime());
                handingOver.remove(set);
            }
            confirmedAt.remove(set);
        }
    }

    /**
     * Asks a majority of each set served here to confirm this node still leads it. A node that was
     * paused finds its confirmations lapsed when it resumes, and delivers nothing of those sets until
     * a new one comes, by when Ratis has told it if another node leads the set meanwhile.
     */
    private void confirmLeadership() {
        for (String set : served) {
            ReplicatedStore store = joined.get(set);
            if (store == null || handingOver.contains(set)) {
                continue;
            }
            store.confirmLeading().thenAccept(asked -> {
                Long before;
                synchronized (confirmedAt) {
                    Long handedOver = handedOverAt.get(set);
                    if (handingOver.contains(set) || (handedOver != null && asked - handedOver < 0)) {
                        return; // asked before a hand-over ended: Ratis may have elected another leader since
                    }
                    before = confirmedAt.get(set);
                    confirmedAt.merge(set, asked, Math::max);
                }
                if (before == null || System.nanoTime() - before >= leaseNanos) {
                    onWorker(() -> serving.leaseRenewed(set)); // it had lapsed: deliver again
                }
            });
        }
    }

    /** Whether this node serves the set and its leadership is confirmed now: its partitions may deliver. */
    boolean deliverable(String set) {
        Long at = confirmedAt.get(set);
        return at != null && System.nanoTime() - at < leaseNanos && served.contains(set) && !handingOver.contains(set);
    }

    /** The set named, as every node computes it from the queue's agreed definition. */
    ReplicaSet set(List<String> nodes) {
        List<ReplicaSet.ReplicaPeer> peers = nodes.stream()
                .map(n -> {
                    ClusterConfig.Member m = cluster.member(n);
                    return new ReplicaSet.ReplicaPeer(n, m.host(), cluster.replicaPortOf(m));
                })
                .toList();
        return new ReplicaSet(Placement.setName(nodes), peers, nodes.get(0));
    }

    /** Joins the set in the background if this node is one of its replicas and has not joined it yet. */
    void join(List<String> nodes) {
        String name = Placement.setName(nodes);
        if (!nodes.contains(self) || joined.containsKey(name)) {
            return;
        }
        ReplicaSet set = set(nodes);
        onWorker(() -> {
            if (joined.containsKey(name)) {
                return;
            }
            try {
                ReplicatedStore store = server().join(set);
                joined.put(name, store);
                store.setLeadershipListener(this);
                LOG.info("joined replica set {}", name);
            } catch (RuntimeException e) {
                LOG.warn("could not join replica set {} yet ({}); trying again", name, e.getMessage());
                worker.schedule(() -> join(nodes), 1, TimeUnit.SECONDS);
            }
        });
    }

    private synchronized ReplicaServer server() {
        if (server == null) {
            ClusterConfig.Member me = cluster.member(self);
            long election = electionMillis;
            server = ReplicaServer.start(new ReplicaServerSettings(
                    self,
                    me.host(),
                    cluster.replicaPortOf(new ClusterConfig.Member(self, me.host(), listenPort)),
                    dir,
                    Duration.ofMillis(election),
                    Duration.ofMillis(Math.max(10_000, 3 * election)),
                    ReplicaServerSettings.maxEntryFor(maxFrameSize),
                    cluster.replicaLog()));
        }
        return server;
    }

    /** The link to {@code node} closed: sets it led elect another leader at once if its process is gone. */
    void linkLost(String node) {
        ReplicaServer s = server; // not under the lock server() holds while Ratis starts: a link's timer calls this
        if (s != null) {
            s.linkLost(node);
        }
    }

    /** This node's store of a set it joined; empty if it is not one of its replicas (or not yet). */
    Optional<ReplicatedStore> store(String set) {
        return Optional.ofNullable(joined.get(set));
    }

    /**
     * Whether a set this node keeps stored a message with this JMSMessageID in {@code queue} lately (an unkeyed one
     * sent again through another node may have been placed in another set): null if none did.
     */
    java.util.concurrent.CompletableFuture<Void> writtenLately(String queue, String messageId) {
        for (ReplicatedStore s : joined.values()) {
            java.util.concurrent.CompletableFuture<Void> written = s.writtenLately(queue, messageId);
            if (written != null) {
                return written;
            }
        }
        return null;
    }

    /** Each set this node joined, as it sees it now. */
    List<ReplicaSetFigures> figures() {
        return joined.values().stream()
                .map(ReplicatedStore::replicaFigures)
                .sorted(java.util.Comparator.comparing(ReplicaSetFigures::set))
                .toList();
    }

    /** The sets this node serves now (each read back: it holds every entry its set committed). */
    Set<String> servedNow() {
        return Set.copyOf(served);
    }

    /** Whether this node serves the set now. */
    boolean serves(String set) {
        return served.contains(set);
    }

    /**
     * Whether a set this node joined is between leaders as this node sees it: none known, or led
     * here and not read back yet (see {@link org.partita.broker.core.ClusterHooks#setsSettling}).
     */
    boolean settling() {
        for (ReplicatedStore s : joined.values()) {
            String leader = s.leader();
            if (leader == null || (s.leading() && !served.contains(s.setName()))) {
                return true;
            }
        }
        return false;
    }

    /** The node leading the set as this node knows it; null if unknown (an election, or not a replica). */
    String leader(String set) {
        ReplicatedStore s = joined.get(set);
        return s == null ? null : s.leader();
    }

    /** When this node last saw the set's leadership change (epoch millis), or 0. */
    long lastChange(String set) {
        return lastChange.getOrDefault(set, 0L);
    }

    @Override
    public void leading(ReplicatedStore store) {
        onWorker(() -> {
            if (!store.leading() || served.contains(store.setName())) {
                return;
            }
            lastChange.put(store.setName(), System.currentTimeMillis());
            serving.ledBy(store.setName(), self); // no other node's feed brings its partitions any more
            confirmedAt.remove(store.setName()); // confirmed again once served, before it delivers
            serving.takeOver(store);
            served.add(store.setName());
            serving.servingChanged(store.setName(), true);
            LOG.info("this node leads replica set {} and serves its partitions", store.setName());
        });
    }

    @Override
    public void following(ReplicatedStore store, String leader) {
        // stop taking sends at once; what is let go is done in order with the other changes
        boolean was = served.remove(store.setName());
        lastChange.put(store.setName(), System.currentTimeMillis());
        onWorker(() -> {
            serving.ledBy(store.setName(), leader);
            if (was) {
                serving.servingChanged(store.setName(), false);
                LOG.info(
                        "replica set {} is led by {} now; this node stopped serving its partitions",
                        store.setName(),
                        leader == null ? "nobody yet (an election)" : leader);
            }
        });
    }

    /**
     * Runs {@code change} on the worker, in order with the other changes; nothing once the node is
     * stopping (Ratis still tells of leaders while its servers close, after the worker stopped).
     */
    private void onWorker(Runnable change) {
        try {
            worker.execute(change);
        } catch (java.util.concurrent.RejectedExecutionException stopping) {
            // the node is stopping: it serves nothing any more
        }
    }

    @Override
    public synchronized void close() {
        worker.shutdownNow();
        if (server != null) {
            server.close();
        }
    }
}
