package org.partita.broker.store.journal;

import java.util.List;
import org.partita.broker.config.HeapCost;
import org.partita.broker.store.StoreOp;

/**
 * Cuts the net effect a checkpoint (or the replay at start) moves into H2 into transactions that
 * H2 holds in the heap one at a time. One huge transaction kept every deleted payload in H2's undo
 * log and wrote it out mid-way; a transaction of many large payloads held several copies of each.
 * So a part ends after {@link #MAX_OPS} operations, or before the one that takes its payloads, at
 * their heap cost, past {@code maxBytes}; a single larger payload goes alone. A deletion counts its
 * payload like an insertion: H2 loads the row it deletes. Parts are safe: the segment is marked
 * checkpointed only once every part is committed and forced, and applying a part again is harmless.
 */
final class CheckpointParts {
    static final int MAX_OPS = 1000;

    private final long maxBytes;

    /** @param maxBytes payload bytes, at their heap cost, one part inserts or deletes */
    CheckpointParts(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** Where the part that starts at {@code from} ends (exclusive): at least one operation further. */
    int end(List<StoreOp> ops, int from) {
        int limit = Math.min(ops.size(), from + MAX_OPS);
        long bytes = 0;
        for (int i = from; i < limit; i++) {
            long cost = cost(ops.get(i));
            if (cost > 0 && bytes + cost > maxBytes && i > from) {
                return i;
            }
            bytes += cost;
        }
        return limit;
    }

    /** What H2 loads or writes of a payload for the operation: nothing for the small rows of entries. */
    static long cost(StoreOp op) {
        if (op instanceof StoreOp.InsertMessage m) {
            return HeapCost.of(m.payload().length);
        }
        if (op instanceof StoreOp.DeleteMessage m) {
            return HeapCost.of(m.payloadBytes());
        }
        return op instanceof StoreOp.SaveBranch b ? HeapCost.of(b.data().length) : 0;
    }
}
