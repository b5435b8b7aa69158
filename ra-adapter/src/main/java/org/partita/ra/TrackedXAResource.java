package org.partita.ra;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * The XA resource of a managed connection: the physical XA session's, telling the connection when
 * the transaction manager associates it with a branch (then its session handles work in it).
 */
final class TrackedXAResource extends ForwardingXAResource {
    private volatile boolean associated;

    TrackedXAResource(XAResource delegate) {
        super(delegate);
    }

    boolean associated() {
        return associated;
    }

    @Override
    public void start(Xid xid, int flags) throws XAException {
        super.start(xid, flags);
        associated = true;
    }

    @Override
    public void end(Xid xid, int flags) throws XAException {
        associated = false;
        super.end(xid, flags);
    }
}
