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
 * member's commit index to the others), and joins nothing until one of them answered. If one does, the set's configuration is changed through its
 * leader (Ratis's membership change) to leave this node out, this node's empty replica is started,
 * and the configuration is changed again to take it in: Ratis then catches the new member up from
 * the log's start, or with a copy of the leader's store, before it counts it. Meanwhile the set runs
 * on its other replicas, which must be a majority of the set to change it.
 *
 * <p>Consensus and membership change are Ratis's; this class only decides when to ask for them.
 */
final class LostCopyRejoin implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LostCopyRejoin.class);
    /** How long one question to another replica may take: a node's start waits for it. */
    private static final TimeDuration ASK_TIMEOUT = TimeDuration.valueOf(2, TimeUnit.SECONDS);
    /** How long between two tries of a rejoin that failed (no leader, a majority down). */
    private static final long RETRY_MILLIS = 2_000;

    /** What starts this node's replica of a set in its Ratis server. */
    interface LocalJoin {
        void start(ReplicaSet set) throws IOException;
    }

    private final RaftPeerId self;
    private final LocalJoin localJoin;
    private final RaftProperties clientProperties;
    /** A thread per set joined in the background (a node is in a few sets), each waiting on its own. */
    private final ExecutorService worker = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "partita-replica-rejoin");
        t.setDaemon(true);
        return t;
    });
    /** Sets being joined, by name, so that a second join of one waits for the first. */
    private final java.util.Set<String> joining = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private volatile boolean closed;

    LostCopyRejoin(RaftPeerId self, LocalJoin localJoin) {
        this.self = self;
        this.localJoin = localJoin;
        this.clientProperties = new RaftProperties();
        RaftConfigKeys.Rpc.setType(clientProperties, SupportedRpcType.GRPC);
        RaftClientConfigKeys.Rpc.setRequestTimeout(clientProperties, ASK_TIMEOUT);
    }

    /**
     * Joins {@code set}, which this node holds nothing of: as a new replica does when no other
     * replica counts it as holding entries, as a new member after leaving the set when one does. Asks
     * the others once now, and joins now when one of them answered and none counts it; otherwise the
     * rest happens in the background: the question is asked again every 2 s until one of them answers
     * (a node with an empty folder that joined its sets before any other replica could tell it what
     * it held would vote as if it held nothing), then the rejoin, tried again until it is done.
     */
    void join(ReplicaSet set) throws IOException {
        if (!joining.add(set.name())) {
            return; // joining in the background already
        }
        Answer answer = ask(set);
        if (answer.heard() && answer.counted() < 0) {
            try {
                localJoin.start(set);
            } finally {
                joining.remove(set.name());
            }
            return;
        }
        worker.execute(() -> {
            try {
                joinLater(set, answer);
            } finally {
                joining.remove(set.name());
            }
        });
    }

    private void joinLater(ReplicaSet set, Answer answer) {
        Answer a = answer;
        while (!closed && !a.heard()) {
            if (!pause()) {
                return;
            }
            a = ask(set);
        }
        if (a.counted() < 0) {
            retried(set, "joining", () -> localJoin.start(set));
            return;
        }
        LOG.warn(
                "replica set {}: this node lost its copy of replica set {} (the other replicas count it as holding"
                        + " the log up to entry {}, and it holds nothing: a data folder lost or replaced); it"
                        + " leaves the set and joins it again as a new member, to be sent the log or a copy of the"
                        + " store",
                set.name(),
                set.name(),
                a.counted());
        if (retried(set, "rejoining as a new member", () -> leaveAndJoin(set))) {
            LOG.info("replica set {}: this node is a member again; its leader catches it up", set.name());
        }
    }

    /**
     * What the other replicas of a set say of this node.
     *
     * @param heard   whether one of them answered (a server up, with or without the set)
     * @param counted the highest commit index one of them counts this node as holding; -1 for none
     */
    private record Answer(boolean heard, long counted) {}

    private Answer ask(ReplicaSet set) {
        RaftGroup others = othersOf(set);
        boolean heard = false;
        long counted = -1;
        try (RaftClient client = client(others, RetryPolicies.noRetry())) {
            for (RaftPeer peer : others.getPeers()) {
                try {
                    GroupManagementApi api = client.getGroupManagementApi(peer.getId());
                    // its list first: asked for a group it lacks, a server logs the error at length
                    boolean hasTheSet = api.list().getGroupIds().contains(others.getGroupId());
                    heard = true;
                    if (hasTheSet) {
                        for (CommitInfoProto c : api.info(others.getGroupId()).getCommitInfos()) {
                            if (c.getServer().getId().toStringUtf8().equals(self.toString())) {
                                counted = Math.max(counted, c.getCommitIndex());
                            }
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    LOG.debug("replica set {}: no answer from {}: {}", set.name(), peer.getId(), e.toString());
                }
            }
        } catch (IOException e) {
            LOG.debug("replica set {}: cannot ask its other replicas: {}", set.name(), e.toString());
        }
        return new Answer(heard, counted);
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

    private void leaveAndJoin(ReplicaSet set) throws IOException {
        RaftGroup others = othersOf(set);
        try (RaftClient client = client(
                others,
                RetryPolicies.retryUpToMaximumCountWithFixedSleep(
                        10, TimeDuration.valueOf(500, TimeUnit.MILLISECONDS)))) {
            // Out: the set goes on with the others, none of them counting this node any more
            expect(client.admin().setConfiguration(others.getPeers().stream().toList()), set, "leaving");
            // This node's replica starts empty, with every replica in its configuration
            localJoin.start(set);
            // In: Ratis sends the new member the log (or a copy of the store) before it counts it
            expect(
                    client.admin()
                            .setConfiguration(set.group().getPeers().stream().toList()),
                    set,
                    "joining");
        }
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

    private RaftClient client(RaftGroup group, org.apache.ratis.retry.RetryPolicy retry) {
        return RaftClient.newBuilder()
                .setClientId(ClientId.randomId())
                .setRaftGroup(group)
                .setProperties(clientProperties)
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
