package org.partita.broker.it;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import javax.transaction.xa.Xid;

/** A transaction branch id as a transaction manager would make one. */
public record TestXid(int formatId, byte[] gtrid, byte[] bqual) implements Xid {

    public static TestXid of(String global) {
        return new TestXid(0x4242, global.getBytes(StandardCharsets.UTF_8), new byte[] {1});
    }

    @Override
    public int getFormatId() {
        return formatId;
    }

    @Override
    public byte[] getGlobalTransactionId() {
        return gtrid.clone();
    }

    @Override
    public byte[] getBranchQualifier() {
        return bqual.clone();
    }

    /** The text form the admin commands use: formatId:gtridHex:bqualHex. */
    String text() {
        return formatId + ":" + java.util.HexFormat.of().formatHex(gtrid) + ":"
                + java.util.HexFormat.of().formatHex(bqual);
    }

    /** Whether a branch id the node reported is this one. */
    public boolean sameAs(Xid other) {
        return other.getFormatId() == formatId
                && Arrays.equals(other.getGlobalTransactionId(), gtrid)
                && Arrays.equals(other.getBranchQualifier(), bqual);
    }
}
