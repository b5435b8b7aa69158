package org.partita.broker.store.journal;

import java.nio.ByteBuffer;
import java.util.List;
import org.partita.broker.store.StoreException;
import org.partita.broker.store.StoreOp;

/**
 * The message, entry and XA branch operations of one batch as a self-contained record: the
 * journal's encoding, with queue names written out in every record rather than once per epoch, so
 * that a record can be read on its own (an entry of a replicated log, read by another node).
 */
public final class BatchRecord {
    private BatchRecord() {}

    /** Whether a batch made of {@code ops} can travel as a record: queue definitions cannot (they are agreed apart). */
    public static boolean carries(List<StoreOp> ops) {
        return ops.stream().allMatch(JournalCodec::journaled);
    }

    public static byte[] encode(List<StoreOp> ops) {
        long max = 0;
        for (StoreOp op : ops) {
            if (!JournalCodec.journaled(op)) {
                throw new IllegalArgumentException("not an operation a record carries: " + op);
            }
            max += JournalCodec.maxSize(op);
        }
        if (max > Integer.MAX_VALUE - 64) {
            throw new IllegalArgumentException("a batch of " + max + " bytes is too large for one record");
        }
        ByteBuffer out = ByteBuffer.allocate((int) max);
        JournalCodec codec = new JournalCodec();
        for (StoreOp op : ops) {
            codec.encode(op, out);
        }
        byte[] bytes = new byte[out.position()];
        out.flip().get(bytes);
        return bytes;
    }

    /** The operations of a record; one that does not parse is a {@link StoreException}, never half read. */
    public static List<StoreOp> decode(ByteBuffer record) {
        return new JournalCodec().decode(record);
    }
}
