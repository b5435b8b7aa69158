package org.partita.broker.store;

import java.util.ArrayList;
import java.util.List;

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
        return this;
    }

    public List<StoreOp> ops() {
        return ops;
    }

    public boolean isEmpty() {
        return ops.isEmpty();
    }
}
