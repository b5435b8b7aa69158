package org.partita.broker.store.replica;

import java.util.ArrayList;
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
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.partita.broker.store.MessageStore;
import org.partita.broker.store.StoreBatch;
import org.partita.broker.store.StoreException;
import org.partita.broker.store.StoreFigures;
import org.partita.broker.store.StoreOp;
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
    private final AppliedMark mark;
    /** What Ratis's division of the set applies the log with; a new one each time the division restarts. */
    private volatile ReplicaStateMachine machine;

    private final ClientId clientId = ClientId.randomId();
    private final AtomicLong calls = new AtomicLong();
    private final long requestTimeoutMillis;
    /** The largest entry the set's log takes (Ratis refuses a larger one). */
    private final int maxEntryBytes;

    private volatile RaftServer server;
    private volatile ReplicaSet set;
    private volatile LeadershipListener listener = LeadershipListener.NONE;
    private volatile boolean leading;
    private volatile String leader;
    private final AtomicLong leaderChanges = new AtomicLong();
    /** How often the node restarted this replica because its appends failed for good ({@link FollowerRestarts}). */
    private final AtomicLong restarts = new AtomicLong();
    /** The messages this replica applied lately, by queue and JMSMessageID ({@link SentCopies}). */
    private final RecentSends recent;
    /** The bound on what this replica applied and its store did not write yet. */
    private final ApplyBacklog backlog;
    /** The messages in writes handed to the log here and not answered yet, by queue and JMSMessageID. */
    private final java.util.Map<String, CompletableFuture<Void>> onTheirWay =
            new java.util.concurrent.ConcurrentHashMap<>();
    /**
     * Entries handed to the log and not answered yet, at most: one, so that the writes that come
     * meanwhile (other sends, the acknowledgements of delivered messages) share the next entry. Each
     * entry costs every replica a round of Ratis's work (requests, log, apply, answers, thread
     * hand-offs); measured at a quarter of the benchmark's S2 (4 producers, 4 consumers, three nodes
     * on two cores, one run each): 263 msg/s with an entry per write, 208 with two in flight, 381 with one (two
     * writes per entry on average).
     */
    private static final int MAX_ENTRIES_IN_FLIGHT = 1;
    /** Writes in one entry, at most. */
    private static final int MAX_WRITES_PER_ENTRY = 256;
    /** Payload bytes (at their heap cost) in one entry of several writes, at most. */
    private static final long MAX_ENTRY_BYTES = 1 << 20;
    /**
     * Hands the next entry to the log once one is answered, off Ratis's threads, and ends the
     * lingering of settlements ({@link #SETTLEMENT_LINGER_NANOS}); one for all sets.
     */
    private static final java.util.concurrent.ScheduledExecutorService NEXT_ENTRY =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "partita-replica-entries");
                t.setDaemon(true);
                return t;
            });
    /**
     * How long writes that only settle messages (acknowledgements, delivery counts) wait for another
     * write to share their entry, at most, when no entry is on its way. A consumer acknowledges a
     * message at the moment its producer, told the send is stored, sends the next one: without the
     * wait, whichever reached the set first went alone, and the other waited a whole round for it
     * (measured: a synchronous send took two rounds of the log instead of one). Nobody waits for an
     * automatic acknowledgement, and a send or commit ends the wait at once. Measured on the benchmark's
     * replicated S1 (three nodes in one JVM, medians of 3): 338 msg/s without, 546 with 500 us, 442 with 1 ms.
     */
    private static final long SETTLEMENT_LINGER_NANOS = TimeUnit.MICROSECONDS.toNanos(500);

    /** What Raft adds around a write in its log entry (term, index, client and call ids), with room to spare. */
    private static final int ENTRY_FRAMING = 4096;

    /**
     * A write waiting for its entry.
     *
     * @param settlesOnly whether it only settles messages (acknowledgements, delivery counts), which
     *                    may wait a moment for company ({@link #SETTLEMENT_LINGER_NANOS})
     */
    private record Waiting(StoreBatch batch, CompletableFuture<Void> done, boolean settlesOnly) {}

    /** Guards the writes waiting, the entries in flight and {@link #lastWrite}: the order writes go to the log in. */
    private final Object order = new Object();

    private final java.util.ArrayDeque<Waiting> waiting = new java.util.ArrayDeque<>();
    private int entriesInFlight;
    /** Settlements wait for company; the end of their wait is scheduled. */
    private boolean lingering;
    /** Their wait ended: the settlements waiting go now, alone if need be. */
    private boolean lingerOver;
    /** Writes waiting that do more than settle messages: while there are any, nothing lingers. */
    private int othersWaiting;
    /** The last entry handed to the log, as answered: the next one completes after it. */
    private CompletableFuture<Void> lastWrite = CompletableFuture.completedFuture(null);

    ReplicatedStore(
            String setName,
            RaftPeerId self,
            MessageStore local,
            AppliedMark mark,
            long requestTimeoutMillis,
            int maxEntryBytes,
            long sentAgainWindowMillis,
            ApplyBacklog backlog) {
        this.backlog = backlog;
        this.recent = new RecentSends(
                RecentSends.MAX_IDS, java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(sentAgainWindowMillis));
        this.setName = setName;
        this.maxEntryBytes = maxEntryBytes;
        this.self = self;
        this.local = local;
        this.requestTimeoutMillis = requestTimeoutMillis;
        this.mark = mark;
        this.machine = new ReplicaStateMachine(setName, local, mark, this, recent, backlog);
    }

    ReplicaStateMachine machine() {
        return machine;
    }

    /**
     * A new state machine over the same store, for the division Ratis starts when {@link FollowerRestarts}
     * restarts it: Ratis closed the old one with its division and does not open a closed one again.
     */
    void renewMachine() {
        machine = new ReplicaStateMachine(setName, local, mark, this, recent, backlog);
    }

    /** The node restarted this replica (its division is running again). */
    void restarted() {
        restarts.incrementAndGet();
    }

    void attach(RaftServer server, ReplicaSet set) {
        this.server = server;
        this.set = set;
    }

    @Override
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
        if (!leading || server == null) {
            return CompletableFuture.failedFuture(notLeading());
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        boolean settlesOnly = true;
        for (StoreOp op : batch.ops()) {
            settlesOnly &= op instanceof StoreOp.DeleteEntry
                    || op instanceof StoreOp.DeleteMessage
                    || op instanceof StoreOp.UpdateDeliveryCount;
        }
        for (String copy : SentCopies.of(batch.ops())) {
            onTheirWay.put(copy, done);
            done.whenComplete((v, t) -> onTheirWay.remove(copy, done));
        }
        synchronized (order) {
            waiting.add(new Waiting(batch, done, settlesOnly));
            if (!settlesOnly) {
                othersWaiting++;
            }
            handEntries();
        }
        return done;
    }

    @Override
    public CompletableFuture<Void> writtenLately(String queue, String messageId) {
        String copy = SentCopies.key(queue, messageId);
        if (recent.contains(copy, System.nanoTime())) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> pending = onTheirWay.get(copy);
        if (pending == null || pending.isCompletedExceptionally()) {
            return null; // a write that failed stored nothing the set confirmed: the message may be sent
        }
        return pending.copy();
    }

    private NotReplicaLeaderException notLeading() {
        String at = leader;
        return new NotReplicaLeaderException(
                "this node does not lead replica set " + setName
                        + (at == null ? ": an election is under way" : "; node " + at + " does"),
                at);
    }

    /**
     * Hands the writes waiting now to the log as one entry (under {@link #order}); writes that come
     * while {@link #MAX_ENTRIES_IN_FLIGHT} entries are on their way wait and go together in the next.
     */
    private void handNextEntry() {
        List<Waiting> entry = takeEntry();
        if (entry.isEmpty()) {
            return;
        }
        RaftServer raft = server;
        if (!leading || raft == null) {
            NotReplicaLeaderException refused = notLeading();
            entry.forEach(w -> w.done().completeExceptionally(refused));
            return;
        }
        List<StoreOp> ops = entry.size() == 1 ? entry.get(0).batch().ops() : new ArrayList<>();
        if (entry.size() > 1) {
            entry.forEach(w -> ops.addAll(w.batch().ops()));
        }
        byte[] encoded = BatchRecord.encode(ops);
        if (encoded.length > maxEntryBytes - ENTRY_FRAMING) {
            // only a write of its own is this large (a shared entry stops at MAX_ENTRY_BYTES)
            StoreException tooLarge = new StoreException(
                    "a write of " + encoded.length + " bytes to replica set " + setName + " is larger than its log's"
                            + " largest entry (" + (maxEntryBytes - ENTRY_FRAMING) + " bytes, from the node's"
                            + " maxFrameSize); nothing was stored: commit smaller transactions",
                    null);
            entry.forEach(w -> w.done().completeExceptionally(tooLarge));
            return;
        }
        RaftClientRequest request = RaftClientRequest.newBuilder()
                .setClientId(clientId)
                .setServerId(self)
                .setGroupId(ReplicaSet.groupIdOf(setName))
                .setCallId(calls.incrementAndGet())
                .setMessage(Message.valueOf(UnsafeByteOperations.unsafeWrap(encoded)))
                .setType(RaftClientRequest.writeRequestType())
                .setTimeoutMs(requestTimeoutMillis)
                .build();
        CompletableFuture<RaftClientReply> reply;
        try {
            reply = raft.submitClientRequestAsync(request);
        } catch (java.io.IOException e) {
            NotReplicaLeaderException refused = new NotReplicaLeaderException(
                    "replica set " + setName + " did not take the write: " + e.getMessage(), leader);
            entry.forEach(w -> w.done().completeExceptionally(refused));
            return;
        }
        entriesInFlight++;
        CompletableFuture<Void> confirmed = reply.orTimeout(requestTimeoutMillis, TimeUnit.MILLISECONDS)
                .handle((r, failure) -> {
                    // the next entry is handed off this thread: Ratis completes replies on its own threads
                    NEXT_ENTRY.execute(this::entryAnswered);
                    if (failure == null && r.isSuccess()) {
                        return null;
                    }
                    Throwable cause = failure != null ? failure : r.getException();
                    if (cause instanceof CompletionException && cause.getCause() != null) {
                        cause = cause.getCause();
                    }
                    // A write refused while leadership is handed on (LeaderSteppingDownException) is
                    // treated as in doubt too: Ratis was seen to append one in that moment, and the
                    // node's retries send an in-doubt write again marked, so the next leader keeps one copy
                    throw new CompletionException(inDoubt(cause));
                });
        // Writes complete in the order they were handed to the log: Ratis answers on several threads,
        // and a later send's entry must not be queued (and delivered) before an earlier one of its key.
        CompletableFuture<Void> inOrder = lastWrite.handle((v, t) -> null).thenCompose(v -> confirmed);
        lastWrite = inOrder;
        inOrder.whenComplete((v, failure) -> {
            for (Waiting w : entry) {
                if (failure == null) {
                    w.done().complete(null);
                } else {
                    w.done()
                            .completeExceptionally(
                                    failure instanceof CompletionException c && c.getCause() != null
                                            ? c.getCause()
                                            : failure);
                }
            }
        });
    }

    /** The waiting writes of the next entry, in the order they came, up to an entry's bounds. */
    private List<Waiting> takeEntry() {
        List<Waiting> entry = new ArrayList<>();
        long bytes = 0;
        while (!waiting.isEmpty() && entry.size() < MAX_WRITES_PER_ENTRY) {
            Waiting next = waiting.peek();
            if (!entry.isEmpty() && bytes + next.batch().payloadCost() > MAX_ENTRY_BYTES) {
                break; // a large write goes in an entry of its own rather than swell a shared one
            }
            bytes += next.batch().payloadCost();
            Waiting taken = waiting.poll();
            if (!taken.settlesOnly()) {
                othersWaiting--;
            }
            entry.add(taken);
        }
        return entry;
    }

    private void entryAnswered() {
        synchronized (order) {
            entriesInFlight--;
            handEntries();
        }
    }

    /**
     * Hands waiting writes to the log while fewer than {@link #MAX_ENTRIES_IN_FLIGHT} entries are on
     * their way (under {@link #order}). An entry refused before it reached the log puts none in
     * flight, so the writes after it go on at once rather than wait for a write to come.
     */
    private void handEntries() {
        while (entriesInFlight < MAX_ENTRIES_IN_FLIGHT && !waiting.isEmpty()) {
            if (!lingerOver && othersWaiting == 0) {
                if (!lingering) {
                    lingering = true;
                    NEXT_ENTRY.schedule(this::lingerEnded, SETTLEMENT_LINGER_NANOS, TimeUnit.NANOSECONDS);
                }
                return;
            }
            lingerOver = false;
            handNextEntry();
        }
    }

    private void lingerEnded() {
        synchronized (order) {
            lingering = false;
            lingerOver = true;
            handEntries();
            lingerOver = false;
        }
    }

    private ReplicaInDoubtException inDoubt(Throwable failure) {
        Throwable cause = failure;
        if (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        String why = cause instanceof TimeoutException
                ? "no majority of its replicas confirmed it within " + requestTimeoutMillis + " ms"
                : String.valueOf(cause.getMessage());
        return new ReplicaInDoubtException(
                "replica set " + setName + " took a write but did not confirm it (" + why
                        + "): it may or may not be stored",
                cause);
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
        return new ReplicaSetFigures(setName, leading, leader(), leaderChanges.get(), lag, restarts.get());
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
