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
    /**
     * The other members, asked for branches this node does not hold; null on a node of its own and on
     * a link from another member (which asks for itself: a request it relays is not relayed again).
     */
    private final java.util.function.Supplier<ClusterFront> elsewhere;

    XaRequests(
            XaBranches branches,
            Object connectionKey,
            IntFunction<ServerSession> sessions,
            Replies replies,
            java.util.function.Supplier<ClusterFront> elsewhere) {
        this.branches = branches;
        this.connectionKey = connectionKey;
        this.sessions = sessions;
        this.replies = replies;
        this.elsewhere = elsewhere;
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
     * that prepared it.
     */
    private CompletableFuture<Integer> here(
            WireXid xid, java.util.function.Supplier<CompletableFuture<Void>> local, IntFunction<Frame> relayed) {
        ClusterFront cluster = elsewhere.get();
        CompletableFuture<Integer> done;
        try {
            done = done(local.get());
        } catch (XaError e) {
            done = CompletableFuture.failedFuture(e);
        }
        if (cluster == null) {
            return done;
        }
        return done.handle((code, t) -> {
                    Throwable c = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
                    if (c instanceof XaError x && x.code() == XAException.XAER_NOTA) {
                        return cluster.completeBranchElsewhere(xid, relayed);
                    }
                    return t == null
                            ? CompletableFuture.completedFuture(code)
                            : CompletableFuture.<Integer>failedFuture(c);
                })
                .thenCompose(f -> f);
    }

    /** This node's branches, and on a cluster's client link those of the other members (a TM's recovery scan). */
    private void recover(int requestId) {
        List<WireXid> local = branches.recover();
        ClusterFront cluster = elsewhere.get();
        if (cluster == null) {
            replies.answer(new Frame.XaRecovered(requestId, local));
            return;
        }
        cluster.branchesElsewhere().whenComplete((others, t) -> {
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
