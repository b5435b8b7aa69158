package org.partita.broker.network.connection;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.IntFunction;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import org.partita.broker.core.xa.XaBranch;
import org.partita.broker.core.xa.XaBranches;
import org.partita.broker.core.xa.XaError;
import org.partita.protocol.Frame;
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

    XaRequests(XaBranches branches, Object connectionKey, IntFunction<ServerSession> sessions, Replies replies) {
        this.branches = branches;
        this.connectionKey = connectionKey;
        this.sessions = sessions;
        this.replies = replies;
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
            answer(f.requestId(), () -> done(branches.commit(f.xid(), f.onePhase())));
        } else if (frame instanceof Frame.XaRollback f) {
            answer(f.requestId(), () -> done(branches.rollback(f.xid())));
        } else if (frame instanceof Frame.XaForget f) {
            answer(f.requestId(), () -> done(branches.forget(f.xid())));
        } else if (frame instanceof Frame.XaRecover f) {
            replies.answer(new Frame.XaRecovered(f.requestId(), branches.recover()));
        } else {
            return false;
        }
        return true;
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
