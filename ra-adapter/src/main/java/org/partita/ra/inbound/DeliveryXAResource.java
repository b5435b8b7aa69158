package org.partita.ra.inbound;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.partita.ra.ForwardingXAResource;

/**
 * The XA resource a transacted endpoint is created with: its session's, with one addition. When a
 * delivery failed (the bean threw, or the container refused the invocation without marking its
 * transaction), the end of the branch is turned into {@code TMFAIL}, so the node rolls the branch
 * back and the message comes again, whatever the container then tries to commit. A container that
 * refuses an invocation while it shuts a bean down does not always mark the transaction it began at
 * {@code beforeDelivery}; committing it would acknowledge a message no bean processed.
 */
final class DeliveryXAResource extends ForwardingXAResource {
    /** Set by a failed delivery; the next branch the endpoint starts clears it. */
    private volatile boolean failed;

    DeliveryXAResource(XAResource delegate) {
        super(delegate);
    }

    /** The delivery in progress failed: its branch must not commit. */
    void failDelivery() {
        failed = true;
    }

    @Override
    public void start(Xid xid, int flags) throws XAException {
        if (flags == TMNOFLAGS) {
            failed = false;
        }
        super.start(xid, flags);
    }

    @Override
    public void end(Xid xid, int flags) throws XAException {
        super.end(xid, failed && flags == TMSUCCESS ? TMFAIL : flags);
    }
}
