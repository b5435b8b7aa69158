package org.partita.broker.store;

/**
 * One change to durable state. A {@link StoreBatch} of them commits atomically. Payloads are
 * stored once in {@code messages}; each queue that holds a message has a row in {@code entries}.
 */
public sealed interface StoreOp {

    record InsertMessage(long messageId, byte[] payload) implements StoreOp {}

    /**
     * @param payloadBytes the payload's length: a checkpoint that deletes the row counts it, since H2
     *                     loads the whole row to delete it; 0 if not known (a record of an older journal)
     */
    record DeleteMessage(long messageId, int payloadBytes) implements StoreOp {
        /** Without its payload's length: counted as a row only. */
        public DeleteMessage(long messageId) {
            this(messageId, 0);
        }
    }

    /** @param deliveryCount 0 for a new entry; the count so far when a journal checkpoint moves it to H2 */
    record InsertEntry(String queue, long messageId, int deliveryCount) implements StoreOp {
        public InsertEntry(String queue, long messageId) {
            this(queue, messageId, 0);
        }
    }

    record DeleteEntry(String queue, long messageId) implements StoreOp {}

    record UpdateDeliveryCount(String queue, long messageId, int deliveryCount) implements StoreOp {}

    record SaveQueue(String queue, String kind, String options) implements StoreOp {}

    record DeleteQueue(String queue) implements StoreOp {}

    /**
     * Saves an XA transaction branch: prepared (its {@code data} holds what it will commit), or
     * completed by hand and waiting to be forgotten. The store keeps {@code xid} and {@code data}
     * as opaque bytes; the broker core writes and reads them.
     */
    record SaveBranch(byte[] xid, int state, byte[] data) implements StoreOp {}

    /** Forgets an XA transaction branch. */
    record DeleteBranch(byte[] xid) implements StoreOp {}
}
