package org.partita.jms.client;

import javax.transaction.xa.Xid;
import org.partita.protocol.WireXid;

/** A transaction branch id the node reported by {@code XAResource.recover}; equal by content. */
final class PartitaXid implements Xid {
    private final WireXid xid;

    PartitaXid(WireXid xid) {
        this.xid = xid;
    }

    @Override
    public int getFormatId() {
        return xid.formatId();
    }

    @Override
    public byte[] getGlobalTransactionId() {
        return xid.gtrid();
    }

    @Override
    public byte[] getBranchQualifier() {
        return xid.bqual();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PartitaXid x && x.xid.equals(xid);
    }

    @Override
    public int hashCode() {
        return xid.hashCode();
    }

    @Override
    public String toString() {
        return xid.toString();
    }
}
