package org.partita.broker.store;

import java.util.ArrayList;
import java.util.List;
import org.partita.broker.config.HeapCost;

/**
 * Changes that must become durable together (one send, one commit of a transaction, ...). A
 * batch is forced to disk before it is confirmed, unless it is {@link #relaxed()}: then it is
 * committed (safe from a process crash) and reaches the disk with the next forced commit. Only
 * changes whose loss on power failure means a redelivery, never a lost message, may be relaxed:
 * removing acknowledged entries, updating delivery counts.
 */
public final class StoreBatch {
    private final List<StoreOp> ops = new ArrayList<>(4);
    private boolean forced = true;
    /** Heap cost of the payloads and branch data it carries: what the journal holds of it until a checkpoint. */
    private long payloadCost;

    /** A batch that need not wait for a disk sync of its own. */
    public static StoreBatch relaxed() {
        StoreBatch b = new StoreBatch();
        b.forced = false;
        return b;
    }

    public boolean forced() {
        return forced;
    }

    public StoreBatch add(StoreOp op) {
        ops.add(op);
        if (op instanceof StoreOp.InsertMessage m) {
            payloadCost += HeapCost.of(m.payload().length);
        } else if (op instanceof StoreOp.SaveBranch b) {
            payloadCost += HeapCost.of(b.data().length);
        }
        return this;
    }

    /** The heap cost ({@link HeapCost}) of the payloads and XA branch data it carries. */
    public long payloadCost() {
        return payloadCost;
    }

    public List<StoreOp> ops() {
        return ops;
    }

    public boolean isEmpty() {
        return ops.isEmpty();
    }
}
