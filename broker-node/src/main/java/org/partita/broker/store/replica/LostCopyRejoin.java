package org.partita.broker.store.replica;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.client.api.GroupManagementApi;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.proto.RaftProtos.CommitInfoProto;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.util.TimeDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A replica that comes back without its copy of a set (its node started on an empty data folder: a
 * disk lost, a machine replaced) takes its place in the set again as a new member.
 *
 * <p>Raft assumes that a member keeps what it acknowledged. The set's leader goes on counting the
 * entries the lost copy held: it sends the empty replica nothing before them (Ratis answers each
 * "I hold nothing" by trying again from just after what it counts as held), and it counts that
 * replica towards a majority it cannot make; the empty replica would also vote for a candidate that
 * lacks entries the lost copy helped confirm. So when this node joins a set it holds nothing of, it
 * first asks the set's other replicas whether they count it as holding entries (Ratis tells each
 * member's commit index to the others). If one does, the set's configuration is changed through its
 * leader (Ratis's membership change) to leave this node out, this node's empty replica is started,
 * and the configuration is changed again to take it in: Ratis then catches the new member up from
 * the log's start, or with a copy of the leader's store, before it counts it. Meanwhile the set runs
 * on its other replicas, which must be a majority of the set to change it.
 *
 * <p>When none of the others answers (all down or cut off), the node joins as a new replica would:
 * waiting for an answer instead would also hold back every node of a new cluster started one node
 * at a time, and change how its sets first form. A node on an empty folder is to be started while
 * the others of its sets are up (docs/cluster.md).
 *
 * <p>Consensus and membership change are Ratis's; this class only decides when to ask for them.
 */
final class LostCopyRejoin implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LostCopyRejoin.class);
    /** How long one question to another replica may take: a node's start waits for it. */
    private static final TimeDuration ASK_TIMEOUT = TimeDuration.valueOf(2, TimeUnit.SECONDS);
    /** How long between two tries of a rejoin that failed (no leader, a majority down). */
    private static final long RETRY_MILLIS = 2_000;

    /**
     * How long a change of a set's members may take: taking a member in waits until Ratis caught it
     * up, which may mean sending it a copy of a large store.
     */
    private static final TimeDuration CHANGE_TIMEOUT = TimeDuration.valueOf(5, TimeUnit.MINUTES);

    /** This node's replicas in its Ratis server. */
    interface LocalJoin {
        /** Starts this node's replica of {@code set}. */
        void start(ReplicaSet set) throws IOException;

        /** Whether this node's replica of {@code set} runs. */
        boolean started(ReplicaSet set);
    }

    private final RaftPeerId self;
    private final LocalJoin localJoin;
    private final RaftProperties askProperties;
    private final RaftProperties changeProperties;
    /** A thread per set joined in the background (a node is in a few sets), each waiting on its own. */
    private final ExecutorService worker = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "partita-replica-rejoin");
        t.setDaemon(true);
        return t;
    });
    /** Sets being rejoined in the background, by name, so that a second join of one waits for the first. */
    private final java.util.Set<String> joining = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private volatile boolean closed;

    LostCopyRejoin(RaftPeerId self, LocalJoin localJoin) {
        this.self = self;
        this.localJoin = localJoin;
        this.askProperties = clientProperties(ASK_TIMEOUT);
        this.changeProperties = clientProperties(CHANGE_TIMEOUT);
    }

    /**
     * Joins {@code set}, which this node holds nothing of: now, as a new replica does, when no other
     * replica counts it as holding entries (a new set, a node that never took part, or no other
     * replica answering); as a new member after leaving the set, in the background, when one does.
     */
    void join(ReplicaSet set) throws IOException {
        long counted = countedAsHolding(set);
        if (counted < 0) {
            localJoin.start(set);
            return;
        }
        if (!joining.add(set.name())) {
            return; // rejoining in the background already
        }
        LOG.warn(
                "replica set {}: this node lost its copy of replica set {} (the other replicas count it as holding"
                        + " the log up to entry {}, and it holds nothing: a data folder lost or replaced); it"
                        + " leaves the set and joins it again as a new member, to be sent the log or a copy of the"
                        + " store",
                set.name(),
                set.name(),
                counted);
        worker.execute(() -> {
            try {
                if (retried(set, "rejoining as a new member", () -> leaveAndJoin(set))) {
                    LOG.info("replica set {}: this node is a member again; its leader catches it up", set.name());
                }
            } finally {
                joining.remove(set.name());
            }
        });
    }

    /**
     * The highest commit index another replica of {@code set} counts this node as holding (Ratis
     * tells every member's to the others); -1 when none does, or none answers. A question a node's
     * start waits for: each replica asked has {@link #ASK_TIMEOUT} to answer, a refused connection
     * answers at once.
     */
    private long countedAsHolding(ReplicaSet set) {
        RaftGroup others = othersOf(set);
        long counted = -1;
        try (RaftClient client = client(others, askProperties, RetryPolicies.noRetry())) {
            for (RaftPeer peer : others.getPeers()) {
                try {
                    GroupManagementApi api = client.getGroupManagementApi(peer.getId());
                    // its list first: asked for a group it lacks, a server logs the error at length
                    if (!api.list().getGroupIds().contains(others.getGroupId())) {
                        continue;
                    }
                    for (CommitInfoProto c : api.info(others.getGroupId()).getCommitInfos()) {
                        if (c.getServer().getId().toStringUtf8().equals(self.toString())) {
                            counted = Math.max(counted, c.getCommitIndex());
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    LOG.debug("replica set {}: no answer from {}: {}", set.name(), peer.getId(), e.toString());
                }
            }
        } catch (IOException e) {
            LOG.debug("replica set {}: cannot ask its other replicas: {}", set.name(), e.toString());
        }
        return counted;
    }

    /** A step of a join in the background. */
    private interface Step {
        void run() throws IOException;
    }

    /** Runs {@code step} every 2 s until it succeeds (true) or the node stops (false). */
    private boolean retried(ReplicaSet set, String what, Step step) {
        while (!closed) {
            try {
                step.run();
                return true;
            } catch (IOException | RuntimeException e) {
                LOG.warn("replica set {}: {} failed ({}); trying again in {} ms", set.name(), what, e, RETRY_MILLIS);
                if (!pause()) {
                    return false;
                }
            }
        }
        return false;
    }

    /** Waits before the next try; false once the node stops. */
    private boolean pause() {
        try {
            Thread.sleep(RETRY_MILLIS); // between tries on this class's own daemon thread, ended by close
            return !closed;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Out of the set, this node's replica started, into the set. Tried again from the top after a
     * failure: once the replica runs, the node is never taken out again (a second "out" in the middle
     * of its catching up would start it all over).
     */
    private void leaveAndJoin(ReplicaSet set) throws IOException {
        RaftGroup others = othersOf(set);
        if (!localJoin.started(set)) {
            try (RaftClient client = client(others, askProperties, patiently())) {
                // Out: the set goes on with the others, none of them counting this node any more
                expect(
                        client.admin()
                                .setConfiguration(others.getPeers().stream().toList()),
                        set,
                        "leaving");
            }
            // This node's replica starts empty, with every replica in its configuration
            localJoin.start(set);
        }
        try (RaftClient client = client(others, changeProperties, patiently())) {
            // In: Ratis sends the new member the log (or a copy of the store) before it counts it
            expect(
                    client.admin()
                            .setConfiguration(set.group().getPeers().stream().toList()),
                    set,
                    "joining");
        }
    }

    private static org.apache.ratis.retry.RetryPolicy patiently() {
        return RetryPolicies.retryUpToMaximumCountWithFixedSleep(10, TimeDuration.valueOf(500, TimeUnit.MILLISECONDS));
    }

    private static void expect(RaftClientReply reply, ReplicaSet set, String step) throws IOException {
        if (!reply.isSuccess()) {
            throw new IOException(
                    "replica set " + set.name() + " refused this node's " + step + ": " + reply.getException());
        }
    }

    private RaftGroup othersOf(ReplicaSet set) {
        RaftGroup all = set.group();
        List<RaftPeer> others =
                all.getPeers().stream().filter(p -> !p.getId().equals(self)).toList();
        return RaftGroup.valueOf(all.getGroupId(), others);
    }

    private static RaftProperties clientProperties(TimeDuration requestTimeout) {
        RaftProperties p = new RaftProperties();
        RaftConfigKeys.Rpc.setType(p, SupportedRpcType.GRPC);
        RaftClientConfigKeys.Rpc.setRequestTimeout(p, requestTimeout);
        return p;
    }

    private static RaftClient client(
            RaftGroup group, RaftProperties properties, org.apache.ratis.retry.RetryPolicy retry) {
        return RaftClient.newBuilder()
                .setClientId(ClientId.randomId())
                .setRaftGroup(group)
                .setProperties(properties)
                .setParameters(new Parameters())
                .setRetryPolicy(retry)
                .build();
    }

    @Override
    public void close() {
        closed = true;
        worker.shutdownNow();
    }
}
