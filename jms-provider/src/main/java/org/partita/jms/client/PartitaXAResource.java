package org.partita.jms.client;

import jakarta.jms.JMSException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.partita.protocol.Frame;
import org.partita.protocol.WireXid;

/**
 * The XA resource of one {@link PartitaXASession}. While the session is associated with a branch
 * ({@link #start} to {@link #end}), its sends and the messages its application consumes belong to
 * that branch on the node; prepare makes the branch durable there, and commit or rollback
 * completes it, also from another connection after either side restarted. Every XA resource of
 * one node is one resource manager ({@link #isSameRM}).
 */
final class PartitaXAResource implements XAResource {
    private final PartitaXASession session;
    /** The branch the session is associated with, or null. */
    private volatile WireXid current;
    /** The branch the session was associated with last; its rollback also hands back what the session prefetched. */
    private volatile WireXid lastEnded;

    private volatile int timeoutSeconds;

    PartitaXAResource(PartitaXASession session) {
        this.session = session;
    }

    boolean associated() {
        return current != null;
    }

    @Override
    public void start(Xid xid, int flags) throws XAException {
        if (flags != TMNOFLAGS && flags != TMJOIN && flags != TMRESUME) {
            throw error(XAException.XAER_INVAL, "start takes TMNOFLAGS, TMJOIN or TMRESUME, not flags " + flags);
        }
        WireXid x = wire(xid);
        if (current != null) {
            throw error(
                    XAException.XAER_PROTO,
                    "the session is already associated with branch " + current + "; end it before starting " + x);
        }
        int timeout = timeoutSeconds;
        call(id -> new Frame.XaStart(id, session.id(), x, flags, timeout));
        current = x;
    }

    @Override
    public void end(Xid xid, int flags) throws XAException {
        if (flags != TMSUCCESS && flags != TMFAIL && flags != TMSUSPEND) {
            throw error(XAException.XAER_INVAL, "end takes TMSUCCESS, TMFAIL or TMSUSPEND, not flags " + flags);
        }
        WireXid x = wire(xid);
        if (!x.equals(current)) {
            throw error(
                    XAException.XAER_PROTO,
                    "the session is not associated with branch " + x + (current == null ? "" : " but with " + current));
        }
        // What the session did in the branch reaches the node before the association ends.
        Throwable failedSend = session.awaitPendingSends();
        session.acknowledgeIntoTransaction();
        int sent = failedSend != null ? TMFAIL : flags;
        current = null;
        lastEnded = x;
        if (sent == TMFAIL) {
            // the node rolls a failed branch back at once: what the session prefetched goes back
            // first, so the branch's messages are delivered again before the later ones of their keys
            handBackPrefetch();
        }
        try {
            call(id -> new Frame.XaEnd(id, session.id(), x, sent));
        } catch (XAException e) {
            boolean rolledBackAsAsked =
                    flags == TMFAIL && e.errorCode >= XAException.XA_RBBASE && e.errorCode <= XAException.XA_RBEND;
            if (!rolledBackAsAsked) {
                throw e;
            }
        } finally {
            if (sent == TMFAIL) {
                session.resumeDelivery();
            }
        }
        if (failedSend != null && flags != TMFAIL) {
            XAException e = error(
                    XAException.XA_RBROLLBACK,
                    "a send of branch " + x + " failed, so the branch" + " can only roll back: "
                            + failedSend.getMessage());
            e.initCause(failedSend);
            throw e;
        }
    }

    @Override
    public int prepare(Xid xid) throws XAException {
        WireXid x = wire(xid);
        return call(id -> new Frame.XaPrepare(id, x));
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        WireXid x = wire(xid);
        call(id -> new Frame.XaCommit(id, x, onePhase));
    }

    /**
     * Rolls the branch back. When this session worked in it, the messages it prefetched go back
     * first, as for a local rollback, so the rolled-back messages are delivered again before them.
     */
    @Override
    public void rollback(Xid xid) throws XAException {
        WireXid x = wire(xid);
        boolean ours = current == null && x.equals(lastEnded);
        if (ours) {
            handBackPrefetch();
        }
        call(id -> new Frame.XaRollback(id, x));
        if (ours) {
            session.resumeDelivery();
        }
    }

    private void handBackPrefetch() throws XAException {
        try {
            session.releaseAll();
        } catch (JMSException e) {
            throw error(XAException.XAER_RMFAIL, "could not hand back what the session prefetched: " + e.getMessage());
        }
    }

    @Override
    public void forget(Xid xid) throws XAException {
        WireXid x = wire(xid);
        call(id -> new Frame.XaForget(id, x));
    }

    /** Every prepared or heuristically completed branch of the node, at the start of a scan (or with TMNOFLAGS). */
    @Override
    public Xid[] recover(int flag) throws XAException {
        if ((flag & ~(TMSTARTRSCAN | TMENDRSCAN)) != 0) {
            throw error(XAException.XAER_INVAL, "recover takes TMSTARTRSCAN, TMENDRSCAN or TMNOFLAGS, not " + flag);
        }
        if ((flag & TMSTARTRSCAN) == 0 && flag != TMNOFLAGS) {
            return new Xid[0]; // the whole list came with the scan's start
        }
        List<WireXid> xids = await(session.connection().transport().xaRecover());
        return xids.stream().map(PartitaXid::new).toArray(Xid[]::new);
    }

    @Override
    public boolean isSameRM(XAResource other) {
        return other instanceof PartitaXAResource o
                && (o == this || o.session.connection().sameNode(session.connection()));
    }

    @Override
    public int getTransactionTimeout() {
        return timeoutSeconds;
    }

    /** Applies to branches started afterwards; the node rolls back a branch not prepared in time. */
    @Override
    public boolean setTransactionTimeout(int seconds) throws XAException {
        if (seconds < 0) {
            throw error(XAException.XAER_INVAL, "a transaction timeout cannot be negative: " + seconds);
        }
        timeoutSeconds = seconds;
        return true;
    }

    /** Sends an XA request and turns its answer into a vote or an XAException with the node's code. */
    private int call(IntFunction<Frame> request) throws XAException {
        Frame.XaResult r = await(session.connection().transport().xa(request));
        if (r.code() == XA_OK || r.code() == XA_RDONLY) {
            return r.code();
        }
        throw error(r.code(), r.message());
    }

    private static <T> T await(CompletableFuture<T> f) throws XAException {
        try {
            return f.get(JmsExceptions.REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw error(XAException.XAER_RMFAIL, "interrupted while waiting for the node");
        } catch (ExecutionException e) {
            XAException x = error(
                    XAException.XAER_RMFAIL,
                    "the node cannot be reached: " + e.getCause().getMessage());
            x.initCause(e.getCause());
            throw x;
        } catch (TimeoutException e) {
            throw error(
                    XAException.XAER_RMFAIL,
                    "the node did not answer within " + JmsExceptions.REQUEST_TIMEOUT_SECONDS + " s");
        }
    }

    private static WireXid wire(Xid xid) throws XAException {
        if (xid == null) {
            throw error(XAException.XAER_INVAL, "the transaction id is null");
        }
        try {
            return new WireXid(xid.getFormatId(), xid.getGlobalTransactionId(), xid.getBranchQualifier());
        } catch (IllegalArgumentException e) {
            throw error(XAException.XAER_INVAL, e.getMessage());
        }
    }

    private static XAException error(int code, String message) {
        XAException e = new XAException(message);
        e.errorCode = code;
        return e;
    }

    @Override
    public String toString() {
        return "PartitaXAResource[session " + session.id() + (current == null ? "" : ", branch " + current) + "]";
    }
}
