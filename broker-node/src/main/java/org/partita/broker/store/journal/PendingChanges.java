package org.partita.broker.store.journal;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.partita.broker.config.HeapCost;
import org.partita.broker.store.StoreBatch;
import org.partita.broker.store.StoreOp;
import org.partita.broker.store.h2.H2BatchApplier;

/**
 * The net effect of the journal's current epoch on H2: what a checkpoint must still write. A
 * message sent and acknowledged within one epoch cancels out and never reaches H2; only what is
 * still alive at the checkpoint is written there, in bounded transactions ({@link CheckpointParts}).
 *
 * <p>Every operation it produces sets a row to its final state (insert-or-replace, update,
 * delete), so applying it again over an H2 that already holds part of it gives the same result:
 * that is what lets a checkpoint interrupted by a crash simply run again from the journal.
 */
public final class PendingChanges {
    private record EntryKey(String queue, long messageId) {}

    /**
     * An entry's final delivery count. {@code created}: (re)inserted in this epoch, written with
     * insert-or-replace; otherwise only its count changed. {@code inH2}: H2 may hold an older row
     * of it, which a delete in this epoch must remove.
     */
    private record EntryState(int deliveryCount, boolean created, boolean inH2) {}

    /** Concurrent: {@link #payload} is read by queue threads while the writer changes it. */
    private final Map<Long, byte[]> createdMessages = new ConcurrentHashMap<>();
    /** Messages H2 may hold that this epoch deleted, with their payloads' lengths (what H2 loads to delete them). */
    private final Map<Long, Integer> deletedMessages = new HashMap<>();

    private final Map<EntryKey, EntryState> entries = new LinkedHashMap<>();
    private final Set<EntryKey> deletedEntries = new HashSet<>();
    /** XA branches saved in this epoch (by id) and branches deleted; an id is in one of the two at most. */
    private final Map<java.nio.ByteBuffer, StoreOp.SaveBranch> savedBranches = new LinkedHashMap<>();

    private final Set<java.nio.ByteBuffer> deletedBranches = new HashSet<>();
    /** Heap cost ({@link HeapCost}) of the payloads and branch data held. */
    private long payloadBytes;
    /** Map node, key, boxed id and state of one pending row, roughly. */
    static final int BYTES_PER_ROW = 128;

    void add(StoreOp op) {
        if (op instanceof StoreOp.InsertMessage m) {
            createdMessages.put(m.messageId(), m.payload());
            payloadBytes += HeapCost.of(m.payload().length);
        } else if (op instanceof StoreOp.DeleteMessage m) {
            byte[] created = createdMessages.remove(m.messageId());
            if (created != null) {
                payloadBytes -= HeapCost.of(created.length);
            } else {
                deletedMessages.put(m.messageId(), m.payloadBytes());
            }
        } else if (op instanceof StoreOp.InsertEntry e) {
            EntryKey key = new EntryKey(e.queue(), e.messageId());
            EntryState before = entries.get(key);
            boolean inH2 = deletedEntries.remove(key) || (before != null && before.inH2());
            entries.put(key, new EntryState(e.deliveryCount(), true, inH2));
        } else if (op instanceof StoreOp.DeleteEntry e) {
            EntryKey key = new EntryKey(e.queue(), e.messageId());
            EntryState before = entries.remove(key);
            if (before == null || before.inH2()) {
                deletedEntries.add(key);
            }
        } else if (op instanceof StoreOp.UpdateDeliveryCount u) {
            EntryKey key = new EntryKey(u.queue(), u.messageId());
            EntryState before = entries.get(key);
            entries.put(
                    key,
                    before == null
                            ? new EntryState(u.deliveryCount(), false, true)
                            : new EntryState(u.deliveryCount(), before.created(), before.inH2()));
        } else if (op instanceof StoreOp.SaveBranch b) {
            java.nio.ByteBuffer key = java.nio.ByteBuffer.wrap(b.xid());
            deletedBranches.remove(key);
            StoreOp.SaveBranch before = savedBranches.put(key, b);
            payloadBytes += HeapCost.of(b.data().length) - (before == null ? 0 : HeapCost.of(before.data().length));
        } else if (op instanceof StoreOp.DeleteBranch b) {
            java.nio.ByteBuffer key = java.nio.ByteBuffer.wrap(b.xid());
            StoreOp.SaveBranch saved = savedBranches.remove(key);
            if (saved != null) {
                payloadBytes -= HeapCost.of(saved.data().length);
            }
            deletedBranches.add(key); // H2 may hold it from an earlier epoch; deleting what is not there is harmless
        } else {
            throw new IllegalArgumentException("not a journaled operation: " + op);
        }
    }

    boolean isEmpty() {
        return createdMessages.isEmpty()
                && deletedMessages.isEmpty()
                && entries.isEmpty()
                && deletedEntries.isEmpty()
                && savedBranches.isEmpty()
                && deletedBranches.isEmpty();
    }

    /** Payload bytes held until the next checkpoint, at their heap cost. */
    long payloadBytes() {
        return payloadBytes;
    }

    /**
     * About how much heap the pending changes take: their payloads plus a fixed cost per changed
     * row. Draining a deep backlog appends only small deletions, so the journal's size alone would
     * let millions of them pile up here before a checkpoint.
     */
    long heapEstimate() {
        long rows = createdMessages.size()
                + deletedMessages.size()
                + entries.size()
                + deletedEntries.size()
                + savedBranches.size()
                + deletedBranches.size();
        return payloadBytes + rows * BYTES_PER_ROW;
    }

    /** The payload of a message created in this epoch and not deleted since, or null; any thread. */
    byte[] payload(long messageId) {
        return createdMessages.get(messageId);
    }

    /**
     * H2 has committed this message's payload (a checkpoint's part): it is no longer held here, and
     * a payload reader that misses it finds it in H2. Only for a closed segment's changes, on the
     * thread checkpointing them.
     */
    void committed(long messageId) {
        byte[] payload = createdMessages.remove(messageId);
        if (payload != null) {
            payloadBytes -= HeapCost.of(payload.length);
        }
    }

    /** The net effect as one batch, in an order {@link H2BatchApplier} applies safely. */
    StoreBatch toBatch() {
        StoreBatch batch = new StoreBatch();
        createdMessages.forEach((id, payload) -> batch.add(new StoreOp.InsertMessage(id, payload)));
        entries.forEach((key, state) -> batch.add(
                state.created()
                        ? new StoreOp.InsertEntry(key.queue(), key.messageId(), state.deliveryCount())
                        : new StoreOp.UpdateDeliveryCount(key.queue(), key.messageId(), state.deliveryCount())));
        deletedEntries.forEach(key -> batch.add(new StoreOp.DeleteEntry(key.queue(), key.messageId())));
        deletedMessages.forEach((id, bytes) -> batch.add(new StoreOp.DeleteMessage(id, bytes)));
        savedBranches.values().forEach(batch::add);
        deletedBranches.forEach(key -> batch.add(new StoreOp.DeleteBranch(key.array())));
        return batch;
    }

    void clear() {
        createdMessages.clear();
        deletedMessages.clear();
        entries.clear();
        deletedEntries.clear();
        savedBranches.clear();
        deletedBranches.clear();
        payloadBytes = 0;
    }
}
