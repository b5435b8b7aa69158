package org.partita.broker.core.xa;

import static javax.transaction.xa.XAException.XAER_DUPID;
import static javax.transaction.xa.XAException.XAER_INVAL;
import static javax.transaction.xa.XAException.XAER_NOTA;
import static javax.transaction.xa.XAException.XAER_PROTO;
import static javax.transaction.xa.XAException.XAER_RMERR;
import static javax.transaction.xa.XAException.XAER_RMFAIL;
import static javax.transaction.xa.XAException.XA_HEURCOM;
import static javax.transaction.xa.XAException.XA_HEURHAZ;
import static javax.transaction.xa.XAException.XA_HEURRB;
import static javax.transaction.xa.XAException.XA_RBROLLBACK;
import static javax.transaction.xa.XAException.XA_RBTIMEOUT;
import static javax.transaction.xa.XAResource.TMFAIL;
import static javax.transaction.xa.XAResource.TMJOIN;
import static javax.transaction.xa.XAResource.TMNOFLAGS;
import static javax.transaction.xa.XAResource.TMRESUME;
import static javax.transaction.xa.XAResource.TMSUCCESS;
import static javax.transaction.xa.XAResource.TMSUSPEND;
import static javax.transaction.xa.XAResource.XA_OK;
import static javax.transaction.xa.XAResource.XA_RDONLY;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.partita.broker.core.Broker;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.core.queue.MessageRef;
import org.partita.broker.core.queue.QueueEntry;
import org.partita.broker.core.queue.QueueFullException;
import org.partita.broker.store.MessageStore;
import org.partita.broker.store.StoreBatch;
import org.partita.broker.store.StoreOp;
import org.partita.broker.store.StoredBranch;
import org.partita.protocol.WireXid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The XA transaction branches of a node, by id: the resource manager side of the XA protocol.
 * Sessions associate with a branch ({@link #start}/{@link #end}); what they send and consume in
 * it waits there. {@link #prepare} reserves room for the sends, locks the consumed entries (no
 * handoff or redelivery can take them any more) and stores the branch, so it survives a crash and
 * {@link #recover} lists it; {@link #commit} and {@link #rollback} complete it, also after a
 * restart. An administrator may complete a prepared branch by hand ({@link #resolve}): the
 * outcome is kept, as a heuristic decision, until the transaction manager {@link #forget}s it.
 *
 * <p>One lock, this object's, guards every branch's state; the store and queue work that
 * completes a branch runs outside it, on futures.
 */
public final class XaBranches {
    private static final Logger LOG = LoggerFactory.getLogger(XaBranches.class);
    /** Branch states as the store keeps them. */
    static final int STORED_PREPARED = 1;

    static final int STORED_HEURISTIC_COMMITTED = 2;
    static final int STORED_HEURISTIC_ROLLED_BACK = 3;

    /**
     * What the registry asks of its node: the broker's calls it completes branches with. An interface
     * so that a unit test can stand in for the broker ({@code XaBranchesTest}); the node passes
     * {@link BrokerWork}.
     */
    interface NodeWork {
        /** {@link Broker#reserve}. */
        void reserve(List<Broker.PendingSend> sends);

        /** {@link Broker#unreserve}. */
        void unreserve(List<Broker.PendingSend> sends);

        /** {@link Broker#commit}. */
        CompletableFuture<Void> commit(List<Broker.PendingSend> sends, List<Broker.Consumed> consumed);

        /** {@link Broker#complete}, {@code extra} written in each of {@code extraIn} (null: the node's own store). */
        CompletableFuture<Void> complete(
                List<Broker.PendingSend> sends,
                List<Broker.Consumed> consumed,
                List<QueueEntry> locked,
                List<StoreOp> extra,
                Collection<MessageStore> extraIn);

        /** The store that keeps {@code message} in {@code queue}; null for the node's own store. */
        default MessageStore storeOf(BrokerQueue queue, MessageRef message) {
            return null;
        }

        /** The store that keeps a stored entry; null for the node's own store. */
        default MessageStore storeOf(QueueEntry entry) {
            return null;
        }

        /** Writes to {@code store} (null: the node's own). */
        default CompletableFuture<Void> write(MessageStore store, StoreBatch batch) {
            return write(batch);
        }

        /** What a branch's records call a store: {@code node:<name>} for the node's own, {@code set:<name>}. */
        default String place(MessageStore store) {
            return "node:node";
        }

        /** Whether this node writes to {@code store} now: its own, or a replica set's that it serves. */
        default boolean serves(MessageStore store) {
            return true;
        }

        /** {@link org.partita.broker.core.ClusterHooks#setsSettling}. */
        default boolean setsSettling() {
            return false;
        }

        /** {@link Broker#reachingReplicas}. */
        default List<CompletableFuture<Void>> reachingReplicas(List<Broker.PendingSend> sends) {
            return List.of();
        }

        /** Writes to the broker's store. */
        CompletableFuture<Void> write(StoreBatch batch);

        /** Runs {@code task} on the broker's timers after {@code seconds}. */
        ScheduledFuture<?> schedule(Runnable task, long seconds);
    }

    /** The node's {@link NodeWork}: its broker, looked up at each call (the broker builds this registry while it is built). */
    private record BrokerWork(Broker broker) implements NodeWork {
        @Override
        public void reserve(List<Broker.PendingSend> sends) {
            broker.reserve(sends);
        }

        @Override
        public void unreserve(List<Broker.PendingSend> sends) {
            broker.unreserve(sends);
        }

        @Override
        public CompletableFuture<Void> commit(List<Broker.PendingSend> sends, List<Broker.Consumed> consumed) {
            return broker.commit(sends, consumed);
        }

        @Override
        public CompletableFuture<Void> complete(
                List<Broker.PendingSend> sends,
                List<Broker.Consumed> consumed,
                List<QueueEntry> locked,
                List<StoreOp> extra,
                Collection<MessageStore> extraIn) {
            return broker.complete(sends, consumed, locked, extra, extraIn);
        }

        @Override
        public MessageStore storeOf(BrokerQueue queue, MessageRef message) {
            return broker.ownStoreAsNull(queue.storeFor(message));
        }

        @Override
        public MessageStore storeOf(QueueEntry entry) {
            return broker.ownStoreAsNull(entry.queue().storeOf(entry));
        }

        @Override
        public CompletableFuture<Void> write(MessageStore store, StoreBatch batch) {
            return (store == null ? broker.store() : store).write(batch);
        }

        @Override
        public String place(MessageStore store) {
            return store == null || store.setName() == null
                    ? "node:" + broker.clusterHooks().memberName()
                    : "set:" + store.setName();
        }

        @Override
        public boolean setsSettling() {
            return broker.clusterHooks().setsSettling();
        }

        @Override
        public boolean serves(MessageStore store) {
            return store == null
                    || store.setName() == null
                    || broker.clusterHooks().serves(store.setName());
        }

        @Override
        public List<CompletableFuture<Void>> reachingReplicas(List<Broker.PendingSend> sends) {
            return broker.reachingReplicas(sends);
        }

        @Override
        public CompletableFuture<Void> write(StoreBatch batch) {
            return broker.store().write(batch);
        }

        @Override
        public ScheduledFuture<?> schedule(Runnable task, long seconds) {
            return broker.timers().schedule(task, seconds, TimeUnit.SECONDS);
        }
    }

    private final NodeWork node;
    private final Map<WireXid, XaBranch> branches = new HashMap<>();
    /**
     * Branches split over several places that this node completed its parts of lately, with the
     * places it did not hold: a request for one of them that comes again (the transaction manager
     * tries again after XAER_RMFAIL) is handed to those places, and "no such branch" from all of them
     * then means done, not unknown.
     */
    private final Map<WireXid, List<String>> completedSplit = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<WireXid, List<String>> eldest) {
            return size() > 10_000;
        }
    };

    public XaBranches(Broker broker) {
        this(new BrokerWork(broker));
    }

    /** For tests: the registry over a stand-in for its node. */
    XaBranches(NodeWork work) {
        this.node = work;
    }

    // ---- association -----------------------------------------------------------------------

    /** Whether a branch not yet completed will send the message with this id (a large body must stay for it). */
    public synchronized boolean sends(long messageId) {
        for (XaBranch b : branches.values()) {
            for (Broker.PendingSend s : b.sends) {
                if (s.message().id() == messageId) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Ties the large bodies kept in {@code bodies} to the sends of the branches read back at start
     * that own them: a branch rolled back after the restart then deletes them, as one rolled back
     * before it would (they were read back as plain messages, their bodies in no one's care until
     * the next start).
     */
    public synchronized void largeBodies(org.partita.broker.store.large.LargeBodies bodies) {
        for (XaBranch b : branches.values()) {
            for (Broker.PendingSend s : b.sends) {
                if (bodies.holds(s.message().id())) {
                    s.message().largeBody(bodies);
                }
            }
        }
    }

    /**
     * Associates {@code session} with a branch: a new one (TMNOFLAGS, owned by {@code connection}),
     * or an existing one it joins (TMJOIN) or resumes (TMRESUME).
     *
     * @param timeoutSeconds for a new branch: rolled back if not prepared by then; 0 for none
     */
    public synchronized XaBranch start(WireXid xid, int flags, Object session, Object connection, int timeoutSeconds) {
        XaBranch b = branches.get(xid);
        if (flags == TMNOFLAGS) {
            if (b != null) {
                throw new XaError(XAER_DUPID, "branch " + xid + " already exists on this node; join it with TMJOIN");
            }
            b = new XaBranch(xid, connection, false);
            branches.put(xid, b);
            scheduleTimeout(b, timeoutSeconds);
        } else if (flags == TMJOIN) {
            b = existing(xid);
            if (b.state == XaBranch.State.ROLLBACK_ONLY) {
                throw rolledBack(b);
            }
            if (b.state != XaBranch.State.WORKING || b.active.contains(session)) {
                throw new XaError(
                        XAER_PROTO,
                        "branch " + xid + " is " + b.state.name().toLowerCase()
                                + (b.active.contains(session)
                                        ? " and this session is in it already"
                                        : "; only a working branch can be joined"));
            }
        } else if (flags == TMRESUME) {
            b = existing(xid);
            if (!b.suspended.remove(session)) {
                throw new XaError(XAER_PROTO, "this session did not suspend branch " + xid);
            }
            if (b.state == XaBranch.State.ROLLBACK_ONLY) {
                throw rolledBack(b);
            }
        } else {
            throw new XaError(XAER_INVAL, "start takes TMNOFLAGS, TMJOIN or TMRESUME, not flags " + flags);
        }
        b.active.add(session);
        return b;
    }

    /** Ends {@code session}'s association (TMSUCCESS), suspends it (TMSUSPEND), or ends it and dooms the branch (TMFAIL). */
    public synchronized void end(WireXid xid, int flags, Object session) {
        if (flags != TMSUCCESS && flags != TMFAIL && flags != TMSUSPEND) {
            throw new XaError(XAER_INVAL, "end takes TMSUCCESS, TMFAIL or TMSUSPEND, not flags " + flags);
        }
        XaBranch b = existing(xid);
        if (!b.active.remove(session)) {
            throw new XaError(XAER_PROTO, "this session is not associated with branch " + xid);
        }
        if (flags == TMSUSPEND) {
            b.suspended.add(session);
        } else if (flags == TMFAIL && b.state == XaBranch.State.WORKING) {
            rollbackOnly(b, XA_RBROLLBACK, "the application ended it with TMFAIL");
        }
        if (b.state == XaBranch.State.ROLLBACK_ONLY) {
            throw rolledBack(b);
        }
    }

    /** Whether {@code session} works in the branch now (started, joined or resumed, and not ended). */
    public synchronized boolean isActive(XaBranch b, Object session) {
        return b.active.contains(session) && branches.get(b.xid) == b;
    }

    /**
     * Counts a send of {@code bytes} against the branch before it is added; false, counting nothing,
     * if the branch's sends would then hold more than {@code limit} bytes (the send is refused, the
     * branch can still end and roll back, or commit without it). {@code giveBack} is told the bytes
     * once the branch no longer holds its sends (committed, rolled back, forgotten): the node-wide
     * count of open transactions ({@code limits.openTransactionBytes}) that counted them.
     */
    public synchronized boolean admit(XaBranch b, long bytes, long limit, java.util.function.LongConsumer giveBack) {
        if (b.sentBytes + bytes > limit) {
            return false;
        }
        b.giveBack = giveBack;
        b.sentBytes += bytes;
        return true;
    }

    /** The branch no longer holds its sends in memory: their bytes are given back, once. Under the lock. */
    private static void release(XaBranch b) {
        long bytes = b.sentBytes;
        b.sentBytes = 0;
        if (bytes > 0) {
            b.giveBack.accept(bytes);
        }
    }

    /** A send of an associated session; false if the branch was rolled back meanwhile (the send is dropped). */
    public synchronized boolean addSend(XaBranch b, Broker.PendingSend send) {
        if (b.state != XaBranch.State.WORKING) {
            release(b); // what admit counted for it
            return false;
        }
        b.sends.add(send);
        return true;
    }

    /** A delivery an associated session consumed; if the branch was rolled back meanwhile, it comes back redelivered. */
    public void addConsumed(XaBranch b, Broker.Consumed consumed) {
        synchronized (this) {
            if (b.state == XaBranch.State.WORKING) {
                b.consumed.add(consumed);
                return;
            }
        }
        consumed.entry().queue().release(consumed.entry(), consumed.by(), true);
    }

    /** A delivery an associated session consumed from another node; handed back at once if the branch rolled back. */
    public void addOutside(XaBranch b, OutsideWork work) {
        synchronized (this) {
            if (b.state == XaBranch.State.WORKING) {
                b.outside.add(work);
                return;
            }
        }
        work.rollback();
    }

    /** A session closed: it leaves every branch it was in or had suspended. */
    public synchronized void sessionClosed(Object session) {
        for (XaBranch b : branches.values()) {
            b.active.remove(session);
            b.suspended.remove(session);
        }
    }

    /** A connection closed: the branches it started and left unprepared roll back. */
    public synchronized void connectionClosed(Object connection) {
        List<XaBranch> gone = branches.values().stream()
                .filter(b -> b.owner == connection
                        && (b.state == XaBranch.State.WORKING || b.state == XaBranch.State.ROLLBACK_ONLY))
                .toList();
        for (XaBranch b : gone) {
            if (b.state == XaBranch.State.WORKING) {
                rollbackOnly(b, XA_RBROLLBACK, "the connection that started it closed before it was prepared");
            }
            release(b);
            branches.remove(b.xid);
        }
    }

    // ---- completion ------------------------------------------------------------------------

    /** Votes on a branch: XA_RDONLY if it did nothing, XA_OK once it is durable; fails with an XaError. */
    public CompletableFuture<Integer> prepare(WireXid xid) {
        XaBranch b;
        List<Broker.PendingSend> sends;
        List<Broker.Consumed> consumed;
        synchronized (this) {
            b = existing(xid);
            if (b.state == XaBranch.State.ROLLBACK_ONLY) {
                release(b);
                branches.remove(xid);
                throw rolledBack(b);
            }
            if (b.state != XaBranch.State.WORKING || b.associated()) {
                throw new XaError(
                        XAER_PROTO,
                        "branch " + xid
                                + (b.associated()
                                        ? " still has sessions associated: end their association first"
                                        : " is " + b.state.name().toLowerCase()
                                                + "; only a working branch can be prepared"));
            }
            cancelTimeout(b);
            if (b.sends.isEmpty() && b.consumed.isEmpty() && b.outside.isEmpty()) {
                release(b);
                branches.remove(xid);
                return CompletableFuture.completedFuture(XA_RDONLY);
            }
            b.state = XaBranch.State.PREPARING;
            sends = List.copyOf(b.sends);
            consumed = List.copyOf(b.consumed);
            b.consumed.clear();
        }
        try {
            node.reserve(sends);
        } catch (QueueFullException e) {
            abandon(b, consumed);
            throw new XaError(XA_RBROLLBACK, e.getMessage() + "; branch " + xid + " was rolled back");
        }
        List<CompletableFuture<Boolean>> locks = consumed.stream()
                .map(c -> c.entry().queue().lock(c.entry(), c.by()))
                .toList();
        return CompletableFuture.allOf(locks.toArray(CompletableFuture[]::new)).thenCompose(v -> {
            List<QueueEntry> locked = new ArrayList<>(consumed.size());
            for (int i = 0; i < consumed.size(); i++) {
                if (locks.get(i).join()) {
                    locked.add(consumed.get(i).entry());
                }
            }
            synchronized (this) {
                b.locked.addAll(locked);
            }
            if (locked.size() < consumed.size()) {
                undoPrepare(b);
                throw new XaError(
                        XA_RBROLLBACK,
                        "a message branch " + xid + " consumed was taken back from its consumer"
                                + " (a partition handoff, or its session closed) before the prepare; the branch was rolled back");
            }
            long now = System.currentTimeMillis();
            Map<MessageStore, BranchRecord> parts;
            try {
                parts = parts(sends, locked, now, null);
            } catch (RuntimeException e) {
                // a store could not be named (the queue's layout changed since the work was done)
                undoPrepare(b);
                throw new XaError(XAER_RMERR, "branch " + xid + " could not be prepared: " + e.getMessage());
            }
            synchronized (this) {
                b.stores.addAll(parts.keySet());
                b.places = parts.values().iterator().next().places();
            }
            return writeParts(xid, parts).handle((ok, t) -> {
                if (t != null) {
                    // parts other stores took are deleted again; one left in doubt in a replica
                    // set comes back prepared with the set's next leader, for the transaction
                    // manager to roll back
                    writeEach(b, new StoreOp.DeleteBranch(xid.toBytes()));
                    letGoUnserved(b); // entries of a set led elsewhere now are not handed back here
                    undoPrepare(b);
                    throw new XaError(XAER_RMERR, "the node could not store prepared branch " + xid + ": " + cause(t));
                }
                synchronized (this) {
                    b.state = XaBranch.State.PREPARED;
                    b.preparedAt = now;
                }
                letGoUnserved(b);
                return XA_OK;
            });
        });
    }

    /** Commits a prepared branch, or with {@code onePhase} a working one in one step. */
    public CompletableFuture<Void> commit(WireXid xid, boolean onePhase) {
        XaBranch b;
        synchronized (this) {
            b = existing(xid);
            checkNotHeuristic(b);
            if (b.state == XaBranch.State.ROLLBACK_ONLY) {
                release(b);
                branches.remove(xid);
                throw rolledBack(b);
            }
            if (b.state == XaBranch.State.COMPLETING) {
                // another request (a recovery scan through another node) is completing it: try again
                throw new XaError(XAER_RMFAIL, "branch " + xid + " is being completed; try again when that finished");
            }
            checkServed(b);
            XaBranch.State needed = onePhase ? XaBranch.State.WORKING : XaBranch.State.PREPARED;
            if (b.state != needed || b.associated()) {
                throw new XaError(
                        XAER_PROTO,
                        "branch " + xid + " is " + b.state.name().toLowerCase()
                                + (b.associated() ? " with sessions still associated" : "")
                                + (onePhase
                                        ? "; a one-phase commit is for a branch that was not prepared"
                                        : "; a two-phase commit is for a prepared branch"));
            }
            cancelTimeout(b);
            b.state = XaBranch.State.COMPLETING;
        }
        if (onePhase) {
            CompletableFuture<Void> done;
            try {
                done = node.commit(b.sends, b.consumed);
            } catch (QueueFullException e) {
                abandon(b, b.consumed);
                throw new XaError(XA_RBROLLBACK, e.getMessage() + "; branch " + xid + " was rolled back");
            }
            return done.handle((v, t) -> {
                        if (t != null) {
                            abandon(b, b.consumed);
                            if (inDoubt(t)) {
                                // a replica set took part of it and lost its leader: that part may be stored
                                throw new XaError(
                                        XA_HEURHAZ, "branch " + xid + " may or may not be stored in part: " + cause(t));
                            }
                            throw new XaError(
                                    XA_RBROLLBACK,
                                    "branch " + xid + " could not be stored, so it rolled back: " + cause(t));
                        }
                        forget(b);
                        return null;
                    })
                    .thenCompose(v -> settleOutside(b));
        }
        // like a transaction's commit, it returns once its sends to a replica set led elsewhere are with the set
        List<CompletableFuture<Void>> atReplicas = node.reachingReplicas(b.sends);
        CompletableFuture<Void> completed;
        try {
            completed = node.complete(
                    b.sends, List.of(), b.locked, List.of(new StoreOp.DeleteBranch(xid.toBytes())), storesOf(b));
        } catch (RuntimeException e) {
            // refused before anything was written (a replica set this node has not opened yet, just
            // after a restart): the branch stays prepared for the next try
            completed = CompletableFuture.failedFuture(e);
        }
        return completed
                .handle((v, t) -> {
                    if (t != null) {
                        atReplicas.forEach(r -> r.cancel(false));
                        // XAER_RMFAIL, not XAER_RMERR (which says the work was rolled back): the
                        // transaction manager tries the commit again
                        return keptPrepared(b).<Void>thenApply(kept -> {
                            throw new XaError(
                                    XAER_RMFAIL,
                                    "branch " + xid + " stays prepared: its commit could not be stored: " + cause(t));
                        });
                    }
                    rememberSplit(b);
                    forget(b);
                    return CompletableFuture.<Void>completedFuture(null);
                })
                .thenCompose(f -> f)
                .thenCompose(v -> CompletableFuture.allOf(atReplicas.toArray(CompletableFuture[]::new)))
                .thenCompose(v -> settleOutside(b));
    }

    /** After the branch committed here: what it consumed on other nodes is consumed there. */
    private CompletableFuture<Void> settleOutside(XaBranch b) {
        List<OutsideWork> outside;
        synchronized (this) {
            outside = List.copyOf(b.outside);
            b.outside.clear();
        }
        return CompletableFuture.allOf(outside.stream().map(OutsideWork::commit).toArray(CompletableFuture[]::new));
    }

    /** The branch rolled back: what it consumed on other nodes goes back there. */
    private void giveBackOutside(XaBranch b) {
        List<OutsideWork> outside;
        synchronized (this) {
            outside = List.copyOf(b.outside);
            b.outside.clear();
        }
        outside.forEach(OutsideWork::rollback);
    }

    /** Rolls a branch back, prepared or not; what it consumed comes back redelivered. */
    public CompletableFuture<Void> rollback(WireXid xid) {
        XaBranch b;
        synchronized (this) {
            b = existing(xid);
            checkNotHeuristic(b);
            if (b.state == XaBranch.State.PREPARING || b.state == XaBranch.State.COMPLETING) {
                throw new XaError(
                        // completing: another request (a recovery scan through another node) is at it, and
                        // the transaction manager tries again on XAER_RMFAIL where it takes XAER_PROTO for
                        // a failure; preparing: it has not voted yet, a rollback now is out of turn
                        b.state == XaBranch.State.COMPLETING ? XAER_RMFAIL : XAER_PROTO,
                        "branch " + xid + " is being "
                                + (b.state == XaBranch.State.PREPARING ? "prepared" : "completed")
                                + "; try again when that finished");
            }
            if (b.state == XaBranch.State.PREPARED) {
                checkServed(b);
            }
            if (b.state != XaBranch.State.PREPARED) {
                cancelTimeout(b);
                if (b.state == XaBranch.State.WORKING) {
                    rollbackOnly(b, XA_RBROLLBACK, "it was rolled back");
                }
                release(b);
                branches.remove(xid);
                return CompletableFuture.completedFuture(null);
            }
            b.state = XaBranch.State.COMPLETING;
        }
        return writeEach(b, new StoreOp.DeleteBranch(xid.toBytes())).handle((v, t) -> {
            if (t != null) {
                stillPrepared(b);
                letGoUnserved(b);
                throw new XaError(
                        XAER_RMFAIL,
                        "branch " + xid + " stays prepared: its rollback could not be stored: " + cause(t));
            }
            releasePrepared(b);
            rememberSplit(b);
            forget(b);
            return null;
        });
    }

    /** Forgets a branch an administrator completed by hand, once its transaction manager heard of it. */
    public CompletableFuture<Void> forget(WireXid xid) {
        XaBranch b;
        synchronized (this) {
            b = existing(xid);
            if (b.state != XaBranch.State.HEURISTIC_COMMITTED && b.state != XaBranch.State.HEURISTIC_ROLLED_BACK) {
                throw new XaError(
                        XAER_PROTO,
                        "branch " + xid + " is " + b.state.name().toLowerCase()
                                + "; only a branch completed by hand is forgotten");
            }
        }
        return writeEach(b, new StoreOp.DeleteBranch(xid.toBytes())).handle((v, t) -> {
            if (t != null) {
                throw new XaError(XAER_RMERR, "branch " + xid + " could not be forgotten: " + cause(t));
            }
            forget(b);
            return null;
        });
    }

    /** The prepared and heuristically completed branches, which a transaction manager must complete or forget. */
    public synchronized List<WireXid> recover() {
        return branches.values().stream()
                .filter(XaBranch::inDoubt)
                .map(b -> b.xid)
                .toList();
    }

    // ---- administration --------------------------------------------------------------------

    /** The branches {@link #recover} lists, with what each holds. */
    public synchronized List<InDoubtBranch> inDoubt() {
        return branches.values().stream()
                .filter(XaBranch::inDoubt)
                .map(XaBranch::view)
                .sorted(java.util.Comparator.comparing(v -> v.xid().toString()))
                .toList();
    }

    /**
     * Completes a prepared branch by hand (its transaction manager is gone or cannot decide): the
     * decision is stored, and the transaction manager hears of it (XA_HEURCOM or XA_HEURRB) until
     * it forgets the branch.
     */
    public CompletableFuture<Void> resolve(WireXid xid, boolean commit) {
        XaBranch b;
        synchronized (this) {
            b = existing(xid);
            if (b.state != XaBranch.State.PREPARED) {
                throw new XaError(
                        XAER_PROTO,
                        "branch " + xid + " is " + b.state.name().toLowerCase()
                                + "; only a prepared branch is completed by hand");
            }
            b.state = XaBranch.State.COMPLETING;
        }
        StoreOp decision = new StoreOp.SaveBranch(
                xid.toBytes(), commit ? STORED_HEURISTIC_COMMITTED : STORED_HEURISTIC_ROLLED_BACK, new byte[0]);
        CompletableFuture<Void> stored = commit
                ? node.complete(b.sends, List.of(), b.locked, List.of(decision), storesOf(b))
                : writeEach(b, decision);
        return stored.handle((v, t) -> {
            if (t != null) {
                if (commit) {
                    keptPrepared(b); // another store may have taken its part, the decision with it
                } else {
                    stillPrepared(b);
                    letGoUnserved(b);
                }
                throw new XaError(
                        XAER_RMERR, "branch " + xid + " stays prepared: the decision could not be stored: " + cause(t));
            }
            if (commit) {
                settleOutside(b);
            } else {
                releasePrepared(b);
            }
            synchronized (this) {
                b.sends.clear();
                release(b);
                b.locked.clear();
                b.state = commit ? XaBranch.State.HEURISTIC_COMMITTED : XaBranch.State.HEURISTIC_ROLLED_BACK;
            }
            LOG.atInfo()
                    .addKeyValue("event", "xa.resolved")
                    .addKeyValue("xid", xid.toString())
                    .addKeyValue("outcome", commit ? "committed" : "rolled back")
                    .log("XA branch {} {} by hand", xid, commit ? "committed" : "rolled back");
            return null;
        });
    }

    // ---- start-up --------------------------------------------------------------------------

    /** Reads the stored branches back; the broker hands it their locked entries as it loads the queues. */
    public BranchRestore restore(List<StoredBranch> stored) {
        return restore(null, stored);
    }

    /**
     * Reads back the parts of prepared branches a replica set's store holds, as this node starts to
     * serve the set (it leads it now: the node that prepared them may be lost). A part of a branch
     * this node already holds joins it; the broker hands back the locked entries as it loads the set.
     */
    public BranchRestore restorePart(MessageStore set, List<StoredBranch> stored) {
        return restore(set, stored);
    }

    /**
     * This node no longer serves the replica set whose store is {@code set}: the parts of prepared
     * branches kept there leave the branches here (the set's new leader reads them back from the
     * store and completes them), their locked entries let go, their sends no longer counted. A branch
     * with no part left here is no longer held here.
     */
    public void letGo(MessageStore set) {
        List<XaBranch> holding;
        synchronized (this) {
            // a branch being completed settles with its write, then lets the part go (letGoUnserved)
            holding = branches.values().stream()
                    .filter(b -> b.stores.contains(set) && b.inDoubt())
                    .toList();
        }
        holding.forEach(b -> dropPart(b, set));
    }

    /**
     * Takes the part a replica set's store keeps out of a branch here: its locked entries let go,
     * its sends no longer counted. A branch with no part left here is no longer held here.
     */
    private void dropPart(XaBranch b, MessageStore set) {
        List<QueueEntry> released = new ArrayList<>();
        List<Broker.PendingSend> uncounted = new ArrayList<>();
        boolean gone;
        synchronized (this) {
            if (!b.stores.remove(set)) {
                return;
            }
            for (java.util.Iterator<QueueEntry> e = b.locked.iterator(); e.hasNext(); ) {
                QueueEntry entry = e.next();
                if (storeOrNull(() -> node.storeOf(entry)) == set) {
                    e.remove();
                    released.add(entry);
                }
            }
            for (java.util.Iterator<Broker.PendingSend> s = b.sends.iterator(); s.hasNext(); ) {
                Broker.PendingSend send = s.next();
                List<BrokerQueue> moved = send.targets().stream()
                        .filter(q -> q.storesEntryOf(send.message())
                                && storeOrNull(() -> node.storeOf(q, send.message())) == set)
                        .toList();
                if (moved.isEmpty()) {
                    continue;
                }
                uncounted.add(new Broker.PendingSend(moved, send.message()));
                List<BrokerQueue> rest = new ArrayList<>(send.targets());
                rest.removeAll(moved);
                if (rest.isEmpty()) {
                    s.remove();
                } else {
                    send.targets(rest);
                }
            }
            gone = b.stores.isEmpty() && branches.remove(b.xid, b);
            if (gone) {
                release(b);
            }
        }
        node.unreserve(uncounted);
        released.forEach(e -> e.queue().letGoLocked(e));
        if (gone) {
            // deliveries relayed from other nodes go back there (at least once across nodes)
            giveBackOutside(b);
            LOG.info("XA branch {}: its part is kept by replica set {}, now led elsewhere", b.xid, set.setName());
        }
    }

    /** The store a lookup names; null if it cannot name one now (this node keeps no replica of that partition any more). */
    private static MessageStore storeOrNull(java.util.function.Supplier<MessageStore> lookup) {
        try {
            return lookup.get();
        } catch (RuntimeException e) {
            return null;
        }
    }

    private BranchRestore restore(MessageStore from, List<StoredBranch> stored) {
        List<XaBranch> restored = new ArrayList<>();
        Map<XaBranch, BranchRecord> records = new LinkedHashMap<>();
        for (StoredBranch s : stored) {
            WireXid xid;
            try {
                xid = WireXid.fromBytes(s.xid());
            } catch (IllegalArgumentException e) {
                LOG.error(
                        "a stored XA branch has a damaged id and is ignored (it stays in the store): {}",
                        e.getMessage());
                continue;
            }
            XaBranch held;
            synchronized (this) {
                held = branches.get(xid);
            }
            if (held != null) {
                // another part of a branch this node holds (it prepared it, or serves another set of it)
                mergePart(held, from, s, records);
                continue;
            }
            XaBranch b = new XaBranch(xid, null, true);
            b.stores.add(from);
            switch (s.state()) {
                case STORED_PREPARED -> {
                    try {
                        BranchRecord r = BranchRecord.decode(s.data());
                        b.state = XaBranch.State.PREPARED;
                        b.preparedAt = r.preparedAt();
                        b.places = r.places();
                        records.put(b, r);
                    } catch (IllegalStateException e) {
                        LOG.error(
                                "prepared XA branch {} cannot be read and is ignored (it stays in the store): {}",
                                xid,
                                e.getMessage());
                        continue;
                    }
                }
                case STORED_HEURISTIC_COMMITTED -> b.state = XaBranch.State.HEURISTIC_COMMITTED;
                case STORED_HEURISTIC_ROLLED_BACK -> b.state = XaBranch.State.HEURISTIC_ROLLED_BACK;
                default -> {
                    LOG.error("XA branch {} has an unknown stored state {} and is ignored", xid, s.state());
                    continue;
                }
            }
            restored.add(b);
        }
        synchronized (this) {
            restored.forEach(b -> branches.put(b.xid, b));
        }
        if (!restored.isEmpty()) {
            LOG.info(
                    from == null
                            ? "{} XA branches are in doubt after the restart: {}"
                            : "{} XA branches are in doubt in replica set " + from.setName() + ": {}",
                    restored.size(),
                    restored.stream()
                            .map(b -> b.xid + " " + b.state.name().toLowerCase())
                            .toList());
        }
        return new BranchRestore(records, this);
    }

    // ---- inside ------------------------------------------------------------------------------

    private XaBranch existing(WireXid xid) {
        XaBranch b = branches.get(xid);
        if (b == null) {
            throw new XaError(XAER_NOTA, "no branch " + xid + " on this node (never started, or already completed)");
        }
        return b;
    }

    /**
     * Refuses to complete a branch now when a replica set keeping a part of it is not served here
     * (this node is reading the set back after it became its leader): it is tried again once it is
     * served, or is asked of the set's next leader. Under the lock.
     */
    private void checkServed(XaBranch b) {
        for (MessageStore s : b.stores) {
            if (s != null && !node.serves(s)) {
                throw new XaError(
                        XAER_RMFAIL,
                        "branch " + b.xid + " has a part in replica set " + s.setName()
                                + ", which this node is taking over or letting go: try again in a moment");
            }
        }
    }

    private static XaError rolledBack(XaBranch b) {
        return new XaError(b.rollbackCode, "branch " + b.xid + " was rolled back: " + b.rollbackReason);
    }

    private static void checkNotHeuristic(XaBranch b) {
        if (b.state == XaBranch.State.HEURISTIC_COMMITTED) {
            throw new XaError(XA_HEURCOM, "branch " + b.xid + " was committed by hand; forget it");
        }
        if (b.state == XaBranch.State.HEURISTIC_ROLLED_BACK) {
            throw new XaError(XA_HEURRB, "branch " + b.xid + " was rolled back by hand; forget it");
        }
    }

    /** Rolls back a working branch's work at once; it stays known so its transaction manager hears why. Under the lock. */
    private void rollbackOnly(XaBranch b, int code, String reason) {
        cancelTimeout(b);
        b.state = XaBranch.State.ROLLBACK_ONLY;
        b.rollbackCode = code;
        b.rollbackReason = reason;
        discardSends(b);
        release(b);
        giveBack(b.consumed);
        b.consumed.clear();
        b.outside.forEach(OutsideWork::rollback);
        b.outside.clear();
    }

    /** What a branch that never got prepared consumed comes back, redelivered, queue by queue. */
    private static void giveBack(List<Broker.Consumed> consumed) {
        Map<BrokerQueue, List<BrokerQueue.Returned>> byQueue = new LinkedHashMap<>();
        for (Broker.Consumed c : consumed) {
            byQueue.computeIfAbsent(c.entry().queue(), q -> new ArrayList<>())
                    .add(new BrokerQueue.Returned(c.entry(), c.by(), true));
        }
        byQueue.forEach(BrokerQueue::releaseAll);
    }

    /** A branch that could not be prepared or committed in one phase rolls back and is forgotten. */
    private void abandon(XaBranch b, List<Broker.Consumed> consumed) {
        giveBack(consumed);
        giveBackOutside(b);
        synchronized (this) {
            discardSends(b);
            release(b);
            b.consumed.clear();
            b.state = XaBranch.State.ROLLBACK_ONLY;
            b.rollbackCode = XA_RBROLLBACK;
            b.rollbackReason = "it could not complete";
            branches.remove(b.xid);
        }
    }

    /** A prepare that failed half-way: reservations and locks are undone, the branch is gone. */
    private void undoPrepare(XaBranch b) {
        releasePrepared(b);
        synchronized (this) {
            b.state = XaBranch.State.ROLLBACK_ONLY;
            b.rollbackCode = XA_RBROLLBACK;
            b.rollbackReason = "its prepare failed";
            release(b);
            branches.remove(b.xid);
        }
    }

    /** A prepared branch rolls back: its sends free their room, its locked entries come back redelivered. */
    private void releasePrepared(XaBranch b) {
        giveBackOutside(b);
        List<Broker.PendingSend> sends;
        List<QueueEntry> locked;
        synchronized (this) {
            sends = List.copyOf(b.sends);
            locked = List.copyOf(b.locked);
            b.sends.clear();
            release(b);
            b.locked.clear();
        }
        node.unreserve(sends);
        sends.forEach(s -> s.message().discardUntaken());
        locked.forEach(e -> e.queue().rollbackLocked(e));
    }

    /**
     * The branch's sends are dropped, never to be stored: their large bodies go with them (a body the
     * store keeps, or one a restart read back with its prepared branch, stays: the store's removal or
     * the next start deletes it). Under the lock.
     */
    private static void discardSends(XaBranch b) {
        b.sends.forEach(s -> s.message().discardUntaken());
        b.sends.clear();
    }

    private synchronized void stillPrepared(XaBranch b) {
        b.state = XaBranch.State.PREPARED;
    }

    /**
     * After a commit that failed in one store while another took its part, the node's store among
     * them (with the deletion of the branch's record): the record is written again, with the sends
     * still to do, so the branch is still prepared after a restart. Completes when it is written, or
     * failed; the branch is prepared in memory either way.
     */
    private CompletableFuture<Void> keptPrepared(XaBranch b) {
        stillPrepared(b);
        letGoUnserved(b);
        Map<MessageStore, BranchRecord> parts;
        synchronized (this) {
            if (branches.get(b.xid) != b) {
                return CompletableFuture.completedFuture(null); // its parts are all with other nodes now
            }
            parts = parts(b.sends, b.locked, b.preparedAt, b.places.isEmpty() ? null : b.places);
        }
        return writeParts(b.xid, parts).exceptionally(t -> {
            LOG.warn("prepared branch {}: its record could not be written again after a failed commit", b.xid, t);
            return null;
        });
    }

    /**
     * The parts of a branch, prepared again, kept by replica sets this node stopped serving while the
     * branch was being prepared or completed ({@link #letGo} passed it by then): they leave it here.
     */
    private void letGoUnserved(XaBranch b) {
        List<MessageStore> stores;
        synchronized (this) {
            stores = new ArrayList<>(b.stores);
        }
        for (MessageStore s : stores) {
            if (s != null && !node.serves(s)) {
                dropPart(b, s);
            }
        }
    }

    /**
     * Joins a stored part to a branch this node holds. A part it holds already (read back twice) is
     * not joined again. A part of a branch being prepared or completed here is left out, with a
     * warning: the work under way does not include it, and its record stays in the set's store.
     */
    private void mergePart(XaBranch held, MessageStore from, StoredBranch s, Map<XaBranch, BranchRecord> records) {
        synchronized (this) {
            if (held.stores.contains(from)) {
                return;
            }
            if (s.state() != STORED_PREPARED || held.state != XaBranch.State.PREPARED) {
                LOG.warn(
                        "a part of XA branch {} in replica set {} is not joined to the branch here, which is {};"
                                + " it stays in the set's store",
                        held.xid,
                        from == null ? "(none)" : from.setName(),
                        held.state.name().toLowerCase());
                return;
            }
            try {
                records.put(held, BranchRecord.decode(s.data()));
                held.stores.add(from);
            } catch (IllegalStateException e) {
                LOG.error(
                        "a part of prepared XA branch {} cannot be read and is ignored: {}", held.xid, e.getMessage());
            }
        }
    }

    /** Whether a failure leaves a write in doubt: a store took it and may keep it. */
    private static boolean inDoubt(Throwable t) {
        Throwable c = t instanceof java.util.concurrent.CompletionException && t.getCause() != null ? t.getCause() : t;
        return c instanceof org.partita.broker.store.StoreException e && e.maybeStored();
    }

    private synchronized void forget(XaBranch b) {
        release(b);
        branches.remove(b.xid, b);
    }

    private void scheduleTimeout(XaBranch b, int seconds) {
        if (seconds > 0) {
            b.timeout = node.schedule(() -> timedOut(b, seconds), seconds);
        }
    }

    private synchronized void timedOut(XaBranch b, int seconds) {
        if (b.state == XaBranch.State.WORKING && branches.get(b.xid) == b) {
            rollbackOnly(b, XA_RBTIMEOUT, "its timeout of " + seconds + " s passed before it was prepared");
            LOG.info("XA branch {} rolled back: its timeout of {} s passed before it was prepared", b.xid, seconds);
        }
    }

    private static void cancelTimeout(XaBranch b) {
        if (b.timeout != null) {
            b.timeout.cancel(false);
            b.timeout = null;
        }
    }

    /**
     * The stored form of what a branch will commit, only what the queues keep in a store, split by
     * the store that keeps each part (null stands for the node's own): a part in a replica set's
     * store is held by a majority of its replicas, so the set's next leader completes it if this
     * node is lost. Each part names every place holding one; a branch kept by the node's store
     * alone names none (its record is as before places existed).
     *
     * @param places the places to name, or null to name those of the parts
     */
    private Map<MessageStore, BranchRecord> parts(
            List<Broker.PendingSend> sends, List<QueueEntry> locked, long at, List<String> places) {
        Map<MessageStore, List<BranchRecord.Send>> sent = new LinkedHashMap<>();
        for (Broker.PendingSend s : sends) {
            Map<MessageStore, List<String>> queues = new LinkedHashMap<>();
            for (BrokerQueue q : s.targets()) {
                if (q.storesEntryOf(s.message())) {
                    queues.computeIfAbsent(node.storeOf(q, s.message()), k -> new ArrayList<>())
                            .add(q.name());
                }
            }
            queues.forEach((store, names) -> sent.computeIfAbsent(store, k -> new ArrayList<>())
                    .add(new BranchRecord.Send(s.message().id(), s.message().encoded(), names)));
        }
        Map<MessageStore, List<BranchRecord.Take>> taken = new LinkedHashMap<>();
        for (QueueEntry e : locked) {
            if (e.queue().storesEntryOf(e.message())) {
                taken.computeIfAbsent(node.storeOf(e), k -> new ArrayList<>())
                        .add(new BranchRecord.Take(e.queue().name(), e.id()));
            }
        }
        java.util.Set<MessageStore> stores = new java.util.LinkedHashSet<>(sent.keySet());
        stores.addAll(taken.keySet());
        if (stores.isEmpty()) {
            stores.add(null); // nothing stored: the record alone says the branch is prepared
        }
        List<String> named = places != null
                ? places
                : stores.size() == 1 && stores.contains(null)
                        ? List.of()
                        : stores.stream().map(node::place).toList();
        Map<MessageStore, BranchRecord> out = new LinkedHashMap<>();
        for (MessageStore store : stores) {
            out.put(
                    store,
                    new BranchRecord(
                            sent.getOrDefault(store, List.of()), taken.getOrDefault(store, List.of()), at, named));
        }
        return out;
    }

    /** Writes each part of a prepared branch to its store; fails if any write failed. */
    private CompletableFuture<Void> writeParts(WireXid xid, Map<MessageStore, BranchRecord> parts) {
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        parts.forEach((store, record) -> writes.add(node.write(
                store, new StoreBatch().add(new StoreOp.SaveBranch(xid.toBytes(), STORED_PREPARED, record.encode())))));
        return writes.size() == 1 ? writes.get(0) : CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new));
    }

    /** Writes {@code op} (a branch record's deletion or decision) to every store holding a part of the branch here. */
    private CompletableFuture<Void> writeEach(XaBranch b, StoreOp op) {
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (MessageStore store : storesOf(b)) {
            writes.add(node.write(store, new StoreBatch().add(op)));
        }
        return writes.size() == 1 ? writes.get(0) : CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new));
    }

    private synchronized List<MessageStore> storesOf(XaBranch b) {
        if (b.stores.isEmpty()) {
            return java.util.Collections.singletonList(null);
        }
        return new ArrayList<>(b.stores);
    }

    /** A split branch whose parts here are completed: the places holding the others, for a request that comes again. */
    private synchronized void rememberSplit(XaBranch b) {
        if (!b.places.isEmpty()) {
            completedSplit.put(b.xid, restOf(b));
        }
    }

    /** The places holding parts of the branch that this node's parts are not. Under the lock. */
    private List<String> restOf(XaBranch b) {
        List<String> here = (b.stores.isEmpty() ? java.util.Collections.<MessageStore>singletonList(null) : b.stores)
                .stream().map(node::place).toList();
        return b.places.stream().filter(p -> !here.contains(p)).toList();
    }

    /**
     * Whether a branch this node does not hold may still come to it: a replica set it keeps is
     * between leaders, and the set's store may keep a part of a prepared branch that its next leader,
     * perhaps this node, has not read back yet. "No such branch" is not a sure answer meanwhile.
     */
    public boolean mayHoldUnread() {
        return node.setsSettling();
    }

    /**
     * For a branch split over several places whose parts here this node completed lately: the places
     * holding its other parts (empty if it held them all); null if it completed no such branch lately.
     */
    public synchronized List<String> restElsewhere(WireXid xid) {
        return completedSplit.get(xid);
    }

    private static String cause(Throwable t) {
        Throwable c = t instanceof java.util.concurrent.CompletionException && t.getCause() != null ? t.getCause() : t;
        return String.valueOf(c.getMessage());
    }

    /** Counts of this registry, for tests. */
    synchronized int size() {
        return branches.size();
    }
}
