package org.partita.broker.store.replica;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.TransferLeadershipRequest;
import org.apache.ratis.protocol.exceptions.LeaderSteppingDownException;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.partita.broker.store.MessageStore;
import org.partita.broker.store.StoreBatch;
import org.partita.broker.store.StoreFigures;
import org.partita.broker.store.StoredBranch;
import org.partita.broker.store.StoredEntry;
import org.partita.broker.store.StoredQueue;
import org.partita.broker.store.journal.BatchRecord;

/**
 * A replica set's store on one node: a {@link MessageStore} whose writes go through the set's Raft
 * log. On the node leading the set, {@link #write} hands the batch to the log as one entry and
 * completes once a majority of the replicas holds it durably and this node's own store has applied
 * it; on the others it is refused ({@link NotReplicaLeaderException}: nothing kept). Reads are this
 * node's own store, which every replica fills from the log in the same order.
 *
 * <p>A write the log took but could not confirm (leadership lost, no majority within the request
 * timeout) fails with {@link ReplicaInDoubtException}: it may still be committed.
 */
public final class ReplicatedStore implements MessageStore, ReplicaStateMachine.Leadership {
    private final String setName;
    private final RaftPeerId self;
    private final MessageStore local;
    private final ReplicaStateMachine machine;
    private final ClientId clientId = ClientId.randomId();
    private final AtomicLong calls = new AtomicLong();
    private final long requestTimeoutMillis;
    private volatile RaftServer server;
    private volatile ReplicaSet set;
    private volatile LeadershipListener listener = LeadershipListener.NONE;
    private volatile boolean leading;
    private volatile String leader;
    private final AtomicLong leaderChanges = new AtomicLong();
    /** Guards {@link #lastWrite}: the order writes were handed to the log in. */
    private final Object order = new Object();
    /** The last write handed to the log, as returned: the next one completes after it. */
    private CompletableFuture<Void> lastWrite = CompletableFuture.completedFuture(null);

    ReplicatedStore(String setName, RaftPeerId self, MessageStore local, AppliedMark mark, long requestTimeoutMillis) {
        this.setName = setName;
        this.self = self;
        this.local = local;
        this.requestTimeoutMillis = requestTimeoutMillis;
        this.machine = new ReplicaStateMachine(setName, local, mark, this);
    }

    ReplicaStateMachine machine() {
        return machine;
    }

    void attach(RaftServer server, ReplicaSet set) {
        this.server = server;
        this.set = set;
    }

    public String setName() {
        return setName;
    }

    /** The set as this node joined it, or null while it is only recovered from disk and not joined yet. */
    public ReplicaSet set() {
        return set;
    }

    /** Whether this node leads the set and its store holds everything the set confirmed. */
    public boolean leading() {
        return leading;
    }

    /** The node leading the set as last heard here, or null during an election. */
    public String leader() {
        return leading ? self.toString() : leader;
    }

    /** Where this node's starts and ends of leadership go; told at once if it leads now. */
    public void setLeadershipListener(LeadershipListener listener) {
        this.listener = listener;
        if (leading) {
            listener.leading(this);
        }
    }

    @Override
    public void ready() {
        if (!stillLeader()) {
            return; // leadership moved on while the store finished its last writes: following() came or comes
        }
        leading = true;
        leader = self.toString();
        leaderChanges.incrementAndGet();
        listener.leading(this);
    }

    /** Whether Ratis still has this node lead the set: ready() may come late, after the store's last write. */
    private boolean stillLeader() {
        RaftServer raft = server;
        if (raft == null) {
            return true; // recovered from disk and not joined yet: Ratis called it, so it leads now
        }
        try {
            return raft.getDivision(ReplicaSet.groupIdOf(setName)).getInfo().isLeader();
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }

    @Override
    public void lost(String newLeader) {
        boolean was = leading;
        leading = false;
        if (!java.util.Objects.equals(leader, newLeader)) {
            leaderChanges.incrementAndGet();
        }
        leader = newLeader;
        if (was || newLeader != null) {
            listener.following(this, newLeader);
        }
    }

    @Override
    public CompletableFuture<Void> write(StoreBatch batch) {
        RaftServer raft = server;
        if (!leading || raft == null) {
            String at = leader;
            return CompletableFuture.failedFuture(new NotReplicaLeaderException(
                    "this node does not lead replica set " + setName
                            + (at == null ? ": an election is under way" : "; node " + at + " does"),
                    at));
        }
        RaftClientRequest request = RaftClientRequest.newBuilder()
                .setClientId(clientId)
                .setServerId(self)
                .setGroupId(ReplicaSet.groupIdOf(setName))
                .setCallId(calls.incrementAndGet())
                .setMessage(Message.valueOf(UnsafeByteOperations.unsafeWrap(BatchRecord.encode(batch.ops()))))
                .setType(RaftClientRequest.writeRequestType())
                .setTimeoutMs(requestTimeoutMillis)
                .build();
        // Writes complete in the order they were handed to the log: Ratis answers on several threads,
        // and a later send's entry must not be queued (and delivered) before an earlier one of its key.
        synchronized (order) {
            CompletableFuture<RaftClientReply> reply;
            try {
                reply = raft.submitClientRequestAsync(request);
            } catch (java.io.IOException e) {
                return CompletableFuture.failedFuture(new NotReplicaLeaderException(
                        "replica set " + setName + " did not take the write: " + e.getMessage(), leader));
            }
            CompletableFuture<Void> mine = reply.orTimeout(requestTimeoutMillis, TimeUnit.MILLISECONDS)
                    .handle((r, failure) -> {
                        if (failure == null && r.isSuccess()) {
                            return null;
                        }
                        Throwable cause = failure != null ? failure : r.getException();
                        if (cause instanceof CompletionException && cause.getCause() != null) {
                            cause = cause.getCause();
                        }
                        if (cause instanceof LeaderSteppingDownException) {
                            // refused before it reached the log (leadership is being handed to
                            // another replica, see transferLeadership): nothing kept
                            throw new CompletionException(new NotReplicaLeaderException(
                                    "replica set " + setName + " is handing its leadership to another"
                                            + " replica and took no write; nothing was stored",
                                    null));
                        }
                        String why = cause instanceof TimeoutException
                                ? "no majority of its replicas confirmed it within " + requestTimeoutMillis + " ms"
                                : String.valueOf(cause.getMessage());
                        throw new CompletionException(new ReplicaInDoubtException(
                                "replica set " + setName + " took a write but did not confirm it (" + why
                                        + "): it may or may not be stored",
                                cause));
                    });
            CompletableFuture<Void> inOrder = lastWrite.handle((v, t) -> null).thenCompose(v -> mine);
            lastWrite = inOrder;
            return inOrder;
        }
    }

    /**
     * Has a majority of the set confirm that this node still leads it: a Raft read index, a
     * heartbeat round with nothing written. Completes with the {@link System#nanoTime()} at which it
     * was asked; no other node can have been elected before that time plus the election timeout.
     */
    public CompletableFuture<Long> confirmLeading() {
        RaftServer raft = server;
        if (!leading || raft == null) {
            return CompletableFuture.failedFuture(
                    new NotReplicaLeaderException("this node does not lead replica set " + setName, leader));
        }
        long asked = System.nanoTime();
        RaftClientRequest request = RaftClientRequest.newBuilder()
                .setClientId(clientId)
                .setServerId(self)
                .setGroupId(ReplicaSet.groupIdOf(setName))
                .setCallId(calls.incrementAndGet())
                .setMessage(Message.EMPTY)
                .setType(RaftClientRequest.readRequestType())
                .setTimeoutMs(requestTimeoutMillis)
                .build();
        try {
            return raft.submitClientRequestAsync(request)
                    .orTimeout(requestTimeoutMillis, TimeUnit.MILLISECONDS)
                    .thenApply(r -> {
                        if (!r.isSuccess()) {
                            throw new CompletionException(new NotReplicaLeaderException(
                                    "replica set " + setName + " did not confirm this node leads it", leader));
                        }
                        return asked;
                    });
        } catch (java.io.IOException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * The set as this node sees it; on the leader, how far each follower is behind (the leader's
     * commit index less the follower's match index, from Ratis).
     */
    public ReplicaSetFigures replicaFigures() {
        java.util.Map<String, Long> lag = new java.util.TreeMap<>();
        for (Follower f : followers()) {
            lag.put(f.node(), f.lagEntries());
        }
        return new ReplicaSetFigures(setName, leading, leader(), leaderChanges.get(), lag);
    }

    /**
     * On the leader, each follower as Ratis's log appenders see it; empty on the other replicas, and
     * when leadership moves on meanwhile.
     */
    public List<Follower> followers() {
        RaftServer raft = server;
        if (!leading || raft == null) {
            return List.of();
        }
        try {
            var division = raft.getDivision(ReplicaSet.groupIdOf(setName));
            long[] match = division.getInfo().getFollowerMatchIndices();
            var followers =
                    division.getInfo().getRoleInfoProto().getLeaderInfo().getFollowerInfoList();
            long commit = division.getRaftLog().getLastCommittedIndex();
            // both come from the leader's log appenders, in the same order
            List<Follower> out = new java.util.ArrayList<>(followers.size());
            for (int i = 0; i < Math.min(match.length, followers.size()); i++) {
                out.add(new Follower(
                        followers.get(i).getId().getId().toStringUtf8(),
                        Math.max(0, commit - match[i]),
                        followers.get(i).getLastRpcElapsedTimeMs()));
            }
            return out;
        } catch (java.io.IOException | RuntimeException e) {
            return List.of(); // leadership moved on meanwhile: no figures this time
        }
    }

    /**
     * A follower as the leader sees it.
     *
     * @param node         the follower's node
     * @param lagEntries   how many committed log entries it has yet to hold (commit index less its match index)
     * @param silentMillis how long ago it last answered the leader
     */
    public record Follower(String node, long lagEntries, long silentMillis) {}

    /**
     * Asks Ratis to hand this node's leadership of the set to {@code node}, a follower with the
     * highest priority (the set's preferred leader): the leader takes no new writes meanwhile
     * (they are refused, nothing kept), lets the follower catch up on what it has not got yet, then
     * has it stand for election at once. Completes with true once {@code node} leads, false when
     * it did not within {@code timeoutMillis} or was refused (the leader then takes writes again);
     * never exceptionally.
     */
    public CompletableFuture<Boolean> transferLeadership(String node, long timeoutMillis) {
        RaftServer raft = server;
        if (!leading || raft == null) {
            return CompletableFuture.completedFuture(false);
        }
        TransferLeadershipRequest request = new TransferLeadershipRequest(
                clientId,
                self,
                ReplicaSet.groupIdOf(setName),
                calls.incrementAndGet(),
                RaftPeerId.valueOf(node),
                timeoutMillis);
        try {
            return raft.transferLeadershipAsync(request)
                    .orTimeout(timeoutMillis + requestTimeoutMillis, TimeUnit.MILLISECONDS)
                    .handle((r, failure) -> failure == null && r.isSuccess());
        } catch (java.io.IOException | RuntimeException e) {
            return CompletableFuture.completedFuture(false);
        }
    }

    @Override
    public boolean recoveredFromCrash() {
        return local.recoveredFromCrash();
    }

    @Override
    public long maxMessageId() {
        return local.maxMessageId();
    }

    @Override
    public List<StoredQueue> loadQueues() {
        return local.loadQueues();
    }

    @Override
    public List<StoredBranch> loadBranches() {
        return local.loadBranches();
    }

    @Override
    public void loadEntries(Consumer<StoredEntry> sink) {
        local.loadEntries(sink);
    }

    @Override
    public byte[] readPayload(long messageId) {
        return local.readPayload(messageId);
    }

    @Override
    public StoreFigures figures() {
        return local.figures();
    }

    /** Closes this node's store of the set; the server closes the set's group. */
    @Override
    public void close() {
        local.close();
    }

    @Override
    public String toString() {
        return "replica set " + setName + " on " + self + (leading ? " (leading)" : ", leader " + leader);
    }
}
