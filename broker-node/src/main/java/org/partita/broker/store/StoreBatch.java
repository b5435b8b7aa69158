package org.partita.broker.store;

import java.util.ArrayList;
import java.util.List;

/** Changes that must become durable together (one send, one commit of a transaction, ...). */
public final class StoreBatch {
    private final List<StoreOp> ops = new ArrayList<>(4);

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
