package org.partita.broker.store.replica;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.GroupManagementRequest;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.exceptions.AlreadyExistsException;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;
import org.partita.broker.config.ClusterConfig;
import org.partita.broker.store.h2.H2MessageStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's part in replicated partitions: one Raft server (Apache Ratis over gRPC) that hosts a
 * Raft group for each replica set the node belongs to, so that a node runs one server however
 * many sets it is in. Each set has its own store on this node ({@link ReplicatedStore}), in a folder
 * of its own under {@code dir/stores}, filled from the set's log.
 *
 * <p>Consensus, elections and log replication are Ratis's; this class only says which groups the
 * node is in and where each group's entries go.
 */
public final class ReplicaServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaServer.class);
    private static final String NAME_FILE = "replica-set";

    private final ReplicaServerSettings settings;
    private final RaftPeerId self;
    private final Map<RaftGroupId, ReplicatedStore> stores = new ConcurrentHashMap<>();
    /** What each replica may have applied and its store not written yet, in bytes. */
    private final long applyBacklogBytes =
            org.partita.broker.config.HeapBudgets.current().replicaApplyBytes();
    /** Each set's store journal: a smaller share than the node's own store has, as a node keeps several. */
    private final long replicaJournalBytes =
            org.partita.broker.config.HeapBudgets.current().replicaJournalBytes();

    private final RaftServer server;
    /** Restarts a replica of this node whose appends failed for good. */
    private final FollowerRestarts followerRestarts;
    /** Elections started at once for sets whose leader's process is gone. */
    private final LostLeaderElections lostLeaders;
    /** Ends a leadership transfer Ratis left pending after it failed, refusing every write of its set. */
    private final StuckTransfers stuckTransfers;

    private ReplicaServer(ReplicaServerSettings settings) throws IOException {
        this.settings = settings;
        this.self = RaftPeerId.valueOf(settings.node());
        Files.createDirectories(settings.dir().resolve("stores"));
        this.server = RaftServer.newBuilder()
                .setServerId(self)
                .setProperties(properties(settings))
                // the groups found on disk at start are recovered with their stores; those joined
                // later get theirs when they are added
                .setStateMachineRegistry(group -> storeOf(group, null).machine())
                .setOption(RaftStorage.StartupOption.RECOVER)
                .build();
        server.start();
        for (RaftGroupId group : server.getGroupIds()) {
            ReplicatedStore store = storeOf(group, null);
            store.attach(server, null);
        }
        followerRestarts = new FollowerRestarts(server, settings, stores::get);
        lostLeaders = new LostLeaderElections(server, self);
        stuckTransfers = new StuckTransfers(server, stores::get);
        LOG.info(
                "replica server of {} listening on {}:{}, {} replica sets recovered",
                settings.node(),
                settings.host(),
                port(),
                stores.size());
    }

    public static ReplicaServer start(ReplicaServerSettings settings) {
        try {
            return new ReplicaServer(settings);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot start the replica server of " + settings.node() + ": " + e.getMessage(), e);
        }
    }

    private static RaftProperties properties(ReplicaServerSettings s) {
        RaftProperties p = new RaftProperties();
        RaftConfigKeys.Rpc.setType(p, SupportedRpcType.GRPC);
        GrpcConfigKeys.Server.setHost(p, s.host());
        GrpcConfigKeys.Server.setPort(p, s.port());
        RaftServerConfigKeys.setStorageDir(p, List.of(s.dir().resolve("raft").toFile()));
        long election = s.electionTimeout().toMillis();
        RaftServerConfigKeys.Rpc.setTimeoutMin(p, TimeDuration.valueOf(election, TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Rpc.setTimeoutMax(p, TimeDuration.valueOf(2 * election, TimeUnit.MILLISECONDS));
        // a leader that hears from no majority for an election timeout steps down, so that writes to it
        // end (in doubt) instead of waiting for the request timeout on a leader nobody follows
        RaftServerConfigKeys.LeaderElection.setLeaderStepDownWaitTime(
                p, TimeDuration.valueOf(election, TimeUnit.MILLISECONDS));
        // The store is the snapshot (AppliedMark): marked every markEntries entries, which keeps the replay
        // at start short, and the log before the mark dropped but for the last keptEntries. A follower
        // behind the log's start is sent a copy of the leader's store (StoreSnapshot, StoreCopy).
        ClusterConfig.ReplicaLog retention = s.retention();
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(p, retention.markEntries());
        RaftServerConfigKeys.Log.Appender.setInstallSnapshotEnabled(p, true);
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(p, true);
        RaftServerConfigKeys.Log.setPurgePreservationLogNum(p, retention.keptEntries());
        RaftServerConfigKeys.Log.setPurgeGap(p, Math.max(1, Math.min(1024, retention.markEntries())));
        RaftServerConfigKeys.Log.setSegmentSizeMax(p, SizeInBytes.valueOf(retention.segmentBytes()));
        // Ratis keeps the entries of a set's log files in the heap: its open file's, and by default up
        // to six closed files' (200 MB) in every set. One closed file's is enough to send followers what
        // they lack without reading it back; the rest is read from the disk. The file size follows the
        // heap (HeapBudgets.replicaSegmentBytes), so this stays a share of it per set.
        RaftServerConfigKeys.Log.setSegmentCacheNumMax(p, 2);
        RaftServerConfigKeys.Log.setSegmentCacheSizeMax(p, SizeInBytes.valueOf(retention.segmentBytes()));
        // An entry holds a whole write: a message up to the node's maxFrameSize, or a transaction's
        // commit. Ratis refuses an entry over its appender buffer (4 MiB by default), which its log's
        // write buffer (a direct buffer per set, 8 MiB by default) must exceed, and a request over its
        // pending-write or gRPC message limits (64 MiB): all follow the largest entry.
        int entryMax = s.maxEntryBytes();
        RaftServerConfigKeys.Log.Appender.setBufferByteLimit(p, SizeInBytes.valueOf(entryMax));
        RaftServerConfigKeys.Log.setWriteBufferSize(p, SizeInBytes.valueOf(Math.max(8L << 20, entryMax + 8L)));
        RaftServerConfigKeys.Write.setByteLimit(p, SizeInBytes.valueOf(Math.max(64L << 20, 2L * entryMax)));
        GrpcConfigKeys.setMessageSizeMax(p, SizeInBytes.valueOf(Math.max(64L << 20, entryMax + (1L << 20))));
        // A leader sends a follower behind it requests of up to that buffer each (dozens of large
        // messages), eight at a time by default, and the follower takes them all in at once: in a
        // small heap, two at a time. A set has one entry on its way at a time anyway (ReplicatedStore).
        GrpcConfigKeys.Server.setLeaderOutstandingAppendsMax(p, 2);
        // Ratis waits 10 ms by default between two appends to a follower, which a synchronous send
        // pays in full (one entry per round trip): the next entry goes out as soon as it is in the log
        RaftServerConfigKeys.Log.Appender.setWaitTimeMin(p, TimeDuration.ZERO);
        // Ratis appends an entry of its own to the log each time the commit index moves, so that a
        // restart finds it sooner; every such entry is written and sent to the followers like a write,
        // and the commit index is learned again from the leader anyway
        RaftServerConfigKeys.Log.setLogMetadataEnabled(p, false);
        // a read makes the leader confirm it still leads with a heartbeat round (ReplicatedStore.confirmLeading)
        RaftServerConfigKeys.Read.setOption(p, RaftServerConfigKeys.Read.Option.LINEARIZABLE);
        return p;
    }

    /** The port the server listens on (the one chosen when the settings said 0). */
    public int port() {
        int configured = settings.port();
        if (configured != 0) {
            return configured;
        }
        try {
            return ((java.net.InetSocketAddress) server.getServerRpc().getInetSocketAddress()).getPort();
        } catch (RuntimeException e) {
            return configured;
        }
    }

    /**
     * Joins {@code set} (once: a set joined before, or recovered from disk, is returned as it is):
     * its group is added to this node's server with this node's store for it. The other replicas
     * join it on their own nodes; the set elects a leader once a majority has.
     */
    public ReplicatedStore join(ReplicaSet set) {
        RaftGroupId group = set.groupId();
        ReplicatedStore store = storeOf(group, set.name());
        store.attach(server, set);
        if (contains(group)) {
            return store;
        }
        try {
            RaftClientReply reply = server.groupManagementAsync(
                            GroupManagementRequest.newAdd(ClientId.randomId(), self, 0, set.group()))
                    .get(settings.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
            if (!reply.isSuccess()) {
                throw new IllegalStateException(
                        "cannot join replica set " + set.name() + ": "
                                + reply.getException().getMessage(),
                        reply.getException());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while joining replica set " + set.name(), e);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof AlreadyExistsException)) { // joined meanwhile: as good
                throw new IllegalStateException(
                        "cannot join replica set " + set.name() + ": " + e.getCause(), e.getCause());
            }
        } catch (TimeoutException e) {
            throw new IllegalStateException("cannot join replica set " + set.name() + ": " + e, e);
        }
        return store;
    }

    /** This node's Raft division of {@code set}: for tests that put it in a state Ratis can leave it in. */
    RaftServer.Division division(String setName) throws IOException {
        return server.getDivision(ReplicaSet.groupIdOf(setName));
    }

    /**
     * This node's link to {@code node} closed: the sets it led whose replica server is gone elect
     * another leader now, not after the election timeout ({@link LostLeaderElections}).
     */
    public void linkLost(String node) {
        lostLeaders.linkLost(node);
    }

    /** How many elections this node started at once for a leader whose process was gone. */
    public long earlyElections() {
        return lostLeaders.started();
    }

    /** How many leadership transfers Ratis left pending after they failed this node ended. */
    long stuckTransfersEnded() {
        return stuckTransfers.count();
    }

    /** How many times a replica of this node was restarted because its appends failed for good. */
    public long stalledFollowerRestarts() {
        return followerRestarts.count();
    }

    private boolean contains(RaftGroupId group) {
        try {
            for (RaftGroupId g : server.getGroupIds()) {
                if (g.equals(group)) {
                    return true;
                }
            }
            return false;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** This node's store of a set it joined or recovered. */
    public Optional<ReplicatedStore> store(String setName) {
        return Optional.ofNullable(stores.get(ReplicaSet.groupIdOf(setName)));
    }

    /** The sets this node is in, by name. */
    public List<String> sets() {
        return stores.values().stream().map(ReplicatedStore::setName).sorted().toList();
    }

    private ReplicatedStore storeOf(RaftGroupId group, String name) {
        return stores.computeIfAbsent(group, g -> open(g, name));
    }

    /** Opens (or creates) this node's store of a group; its set's name is kept beside it for a restart. */
    private ReplicatedStore open(RaftGroupId group, String name) {
        Path folder = settings.dir().resolve("stores").resolve(group.getUuid().toString());
        try {
            Files.createDirectories(folder);
            Path nameFile = folder.resolve(NAME_FILE);
            String setName = name;
            if (setName != null) {
                Files.writeString(nameFile, setName, StandardCharsets.UTF_8);
            } else if (Files.exists(nameFile)) {
                setName = Files.readString(nameFile, StandardCharsets.UTF_8);
            } else {
                setName = group.getUuid().toString();
            }
            return new ReplicatedStore(
                    setName,
                    self,
                    H2MessageStore.open(folder, true, H2MessageStore.Layout.JOURNALED, replicaJournalBytes),
                    new AppliedMark(folder.resolve("applied")),
                    settings.requestTimeout().toMillis(),
                    settings.maxEntryBytes(),
                    settings.retention().sentAgainWindowMillis(),
                    new ApplyBacklog(applyBacklogBytes));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot open the store of replica group " + group + ": " + e.getMessage(), e);
        }
    }

    /** Stops the server (this node leaves no set: its replicas are back when it starts again) and closes the stores. */
    @Override
    public void close() {
        lostLeaders.close();
        followerRestarts.close();
        stuckTransfers.close();
        try {
            server.close();
        } catch (IOException e) {
            LOG.warn("replica server of {} did not close cleanly: {}", settings.node(), e.toString());
        }
        stores.values().forEach(ReplicatedStore::close);
        stores.clear();
    }
}
