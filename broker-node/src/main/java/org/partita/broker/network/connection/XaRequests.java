package org.partita.broker.network.connection;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.IntFunction;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import org.partita.broker.core.xa.XaBranch;
import org.partita.broker.core.xa.XaBranches;
import org.partita.broker.core.xa.XaError;
import org.partita.broker.network.ClusterFront;
import org.partita.protocol.Frame;
import org.partita.protocol.WireXid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The XA frames of one connection (docs/protocol.md, "XA"): turns them into calls on the node's
 * {@link XaBranches} and answers each with {@code XA_RESULT}, whose code is what the client's
 * XAResource returns or throws. Runs on the connection's event loop, like the connection.
 */
final class XaRequests {
    private static final Logger LOG = LoggerFactory.getLogger(XaRequests.class);

    private final XaBranches branches;
    private final Object connectionKey;
    private final IntFunction<ServerSession> sessions;
    private final Replies replies;
    /** The other members; null on a node of its own. */
    private final java.util.function.Supplier<ClusterFront> cluster;
    /**
     * Whether this connection is another member's link: a branch this node does not hold is not
     * asked of the others for it (it asks them itself, and a relayed request is not relayed again).
     */
    private final java.util.function.BooleanSupplier fromMember;

    XaRequests(
            XaBranches branches,
            Object connectionKey,
            IntFunction<ServerSession> sessions,
            Replies replies,
            java.util.function.Supplier<ClusterFront> cluster,
            java.util.function.BooleanSupplier fromMember) {
        this.branches = branches;
        this.connectionKey = connectionKey;
        this.sessions = sessions;
        this.replies = replies;
        this.cluster = cluster;
        this.fromMember = fromMember;
    }

    /** Handles the frame if it is an XA request; false otherwise. */
    boolean handle(Frame frame) {
        if (frame instanceof Frame.XaStart f) {
            answer(f.requestId(), () -> start(f));
        } else if (frame instanceof Frame.XaEnd f) {
            answer(f.requestId(), () -> end(f));
        } else if (frame instanceof Frame.XaPrepare f) {
            answer(f.requestId(), () -> branches.prepare(f.xid()));
        } else if (frame instanceof Frame.XaCommit f) {
            answer(
                    f.requestId(),
                    () -> here(
                            f.xid(),
                            () -> branches.commit(f.xid(), f.onePhase()),
                            id -> new Frame.XaCommit(id, f.xid(), f.onePhase())));
        } else if (frame instanceof Frame.XaRollback f) {
            answer(
                    f.requestId(),
                    () -> here(f.xid(), () -> branches.rollback(f.xid()), id -> new Frame.XaRollback(id, f.xid())));
        } else if (frame instanceof Frame.XaForget f) {
            answer(
                    f.requestId(),
                    () -> here(f.xid(), () -> branches.forget(f.xid()), id -> new Frame.XaForget(id, f.xid())));
        } else if (frame instanceof Frame.XaRecover f) {
            recover(f.requestId());
        } else {
            return false;
        }
        return true;
    }

    /**
     * Completes a branch on this node, or, when it holds no such branch, on the member that does
     * ({@link ClusterFront#completeBranchElsewhere}): the client may have failed over from the node
     * that prepared it. A branch split over several places (the node's store and replica sets'
     * stores, whose parts the sets' leaders hold) has its other parts completed where they are held
     * once this node completed its own ({@link ClusterFront#completeRestElsewhere}), also when the
     * request came from another member, which asked this node for the part it holds.
     */
    private CompletableFuture<Integer> here(
            WireXid xid, java.util.function.Supplier<CompletableFuture<Void>> local, IntFunction<Frame> relayed) {
        ClusterFront members = cluster.get();
        CompletableFuture<Integer> done;
        try {
            done = done(local.get());
        } catch (XaError e) {
            done = CompletableFuture.failedFuture(e);
        }
        if (members == null) {
            return done;
        }
        boolean linked = fromMember.getAsBoolean();
        return done.handle((code, t) -> {
                    Throwable c = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
                    if (c instanceof XaError x && x.code() == XAException.XAER_NOTA) {
                        if (linked) {
                            // the member asks the others itself
                            return CompletableFuture.<Integer>failedFuture(notSureYet(xid, x));
                        }
                        List<String> rest = branches.restElsewhere(xid);
                        if (rest != null) {
                            // completed here before (the answer did not reach the transaction manager, or
                            // another part could not be completed then): the other parts are asked again
                            return rest.isEmpty()
                                    ? CompletableFuture.completedFuture(XAResource.XA_OK)
                                    : members.completeRestElsewhere(xid, relayed, rest);
                        }
                        return members.completeBranchElsewhere(xid, relayed).exceptionallyCompose(u -> {
                            Throwable d = u instanceof CompletionException && u.getCause() != null ? u.getCause() : u;
                            return CompletableFuture.failedFuture(d instanceof XaError y ? notSureYet(xid, y) : d);
                        });
                    }
                    if (t != null) {
                        return CompletableFuture.<Integer>failedFuture(c);
                    }
                    List<String> rest = branches.restElsewhere(xid);
                    return rest == null || rest.isEmpty()
                            ? CompletableFuture.completedFuture(code)
                            : members.completeRestElsewhere(xid, relayed, rest);
                })
                .thenCompose(f -> f);
    }

    /**
     * "No such branch" from this node, or from every member, is said as {@code XAER_RMFAIL} while a
     * replica set this node keeps is between leaders: a transaction manager takes XAER_NOTA as
     * "already completed" and forgets the branch, whose part the set's next leader may be reading back.
     */
    private XaError notSureYet(WireXid xid, XaError e) {
        if (e.code() != XAException.XAER_NOTA || !branches.mayHoldUnread()) {
            return e;
        }
        return new XaError(
                XAException.XAER_RMFAIL,
                "no node holds branch " + xid + " now, but a replica set is changing leader and may keep"
                        + " a part of it: try again in a moment");
    }

    /** This node's branches, and on a cluster's client link those of the other members (a TM's recovery scan). */
    private void recover(int requestId) {
        List<WireXid> local = branches.recover();
        ClusterFront members = cluster.get();
        if (members == null || fromMember.getAsBoolean()) {
            replies.answer(new Frame.XaRecovered(requestId, local));
            return;
        }
        members.branchesElsewhere().whenComplete((others, t) -> {
            java.util.Set<WireXid> all = new java.util.LinkedHashSet<>(local);
            if (others != null) {
                all.addAll(others);
            }
            replies.answer(new Frame.XaRecovered(requestId, List.copyOf(all)));
        });
    }

    private CompletableFuture<Integer> start(Frame.XaStart f) {
        ServerSession s = sessions.apply(f.sessionId());
        if (s.transacted()) {
            throw new XaError(
                    XAException.XAER_PROTO,
                    "session " + f.sessionId() + " is a locally transacted session;"
                            + " only a non-transacted session works in XA branches");
        }
        if (s.branch() != null) {
            throw new XaError(
                    XAException.XAER_PROTO, "session " + f.sessionId() + " is already associated with a branch");
        }
        XaBranch b = branches.start(f.xid(), f.flags(), s, connectionKey, f.timeoutSeconds());
        s.branch(b);
        return ok();
    }

    private CompletableFuture<Integer> end(Frame.XaEnd f) {
        ServerSession s = sessions.apply(f.sessionId());
        try {
            branches.end(f.xid(), f.flags(), s);
        } finally {
            // the association ends with a rollback code too; a refused end (bad flags) keeps it
            if (s.branch() != null && !branches.isActive(s.branch(), s)) {
                s.branch(null);
            }
        }
        return ok();
    }

    private static CompletableFuture<Integer> ok() {
        return CompletableFuture.completedFuture(XAResource.XA_OK);
    }

    private static CompletableFuture<Integer> done(CompletableFuture<Void> f) {
        return f.thenApply(v -> XAResource.XA_OK);
    }

    private void answer(int requestId, java.util.function.Supplier<CompletableFuture<Integer>> work) {
        CompletableFuture<Integer> result;
        try {
            result = work.get();
        } catch (RuntimeException e) {
            result = CompletableFuture.failedFuture(e);
        }
        result.whenComplete((code, t) -> {
            Frame answer;
            if (t == null) {
                answer = new Frame.XaResult(requestId, code, null);
            } else {
                Throwable c = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
                if (c instanceof XaError x) {
                    answer = new Frame.XaResult(requestId, x.code(), x.getMessage());
                } else if (c instanceof org.partita.protocol.ProtocolException p) {
                    answer = new Frame.XaResult(requestId, XAException.XAER_PROTO, p.getMessage());
                } else if (c instanceof org.partita.broker.store.StoreUnavailableException u) {
                    answer = new Frame.XaResult(requestId, XAException.XAER_RMFAIL, u.getMessage());
                } else {
                    LOG.warn("XA request failed unexpectedly", c);
                    answer = new Frame.XaResult(requestId, XAException.XAER_RMERR, String.valueOf(c));
                }
            }
            replies.answer(answer);
        });
    }
}
