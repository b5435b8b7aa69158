package org.partita.ra;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * The XA resource of a managed connection: the physical XA session's, telling the connection when
 * the transaction manager associates it with a branch (then its session handles work in it).
 */
final class TrackedXAResource implements XAResource {
    private final XAResource delegate;
    private volatile boolean associated;

    TrackedXAResource(XAResource delegate) {
        this.delegate = delegate;
    }

    boolean associated() {
        return associated;
    }

    @Override
    public void start(Xid xid, int flags) throws XAException {
        delegate.start(xid, flags);
        associated = true;
    }

    @Override
    public void end(Xid xid, int flags) throws XAException {
        associated = false;
        delegate.end(xid, flags);
    }

    @Override
    public int prepare(Xid xid) throws XAException {
        return delegate.prepare(xid);
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        delegate.commit(xid, onePhase);
    }

    @Override
    public void rollback(Xid xid) throws XAException {
        delegate.rollback(xid);
    }

    @Override
    public void forget(Xid xid) throws XAException {
        delegate.forget(xid);
    }

    @Override
    public Xid[] recover(int flag) throws XAException {
        return delegate.recover(flag);
    }

    @Override
    public boolean isSameRM(XAResource other) throws XAException {
        return delegate.isSameRM(other instanceof TrackedXAResource t ? t.delegate : other);
    }

    @Override
    public int getTransactionTimeout() throws XAException {
        return delegate.getTransactionTimeout();
    }

    @Override
    public boolean setTransactionTimeout(int seconds) throws XAException {
        return delegate.setTransactionTimeout(seconds);
    }
}
