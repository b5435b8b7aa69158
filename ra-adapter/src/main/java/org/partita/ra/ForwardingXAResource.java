package org.partita.ra;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * An XA resource that passes every call to a session's, for the adapter's wrappers to override
 * the few calls they watch or change. Two wrappers of one node's resources are the same resource
 * manager, as their sessions are.
 */
public abstract class ForwardingXAResource implements XAResource {
    private final XAResource delegate;

    protected ForwardingXAResource(XAResource delegate) {
        this.delegate = delegate;
    }

    @Override
    public void start(Xid xid, int flags) throws XAException {
        delegate.start(xid, flags);
    }

    @Override
    public void end(Xid xid, int flags) throws XAException {
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
        return delegate.isSameRM(other instanceof ForwardingXAResource f ? f.delegate : other);
    }

    @Override
    public int getTransactionTimeout() throws XAException {
        return delegate.getTransactionTimeout();
    }

    @Override
    public boolean setTransactionTimeout(int seconds) throws XAException {
        return delegate.setTransactionTimeout(seconds);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + delegate + "]";
    }
}
