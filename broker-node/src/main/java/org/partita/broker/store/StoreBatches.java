package org.partita.broker.store;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The batches of one piece of work, one per store it touches. Almost all work touches one store,
 * the node's own; work on a clustered queue's replicated partitions touches the store of each
 * partition's replica set as well. Each store commits its batch atomically; across stores the
 * batches are written together and the work is done once all are (a crash between two leaves one
 * written: a send stored, its transaction's acknowledgement not, so the message comes again flagged).
 */
public final class StoreBatches {
    private final boolean forced;
    private final Map<MessageStore, StoreBatch> batches = new LinkedHashMap<>(2);

    private StoreBatches(boolean forced) {
        this.forced = forced;
    }

    /** Batches forced to disk before they are confirmed. */
    public static StoreBatches forced() {
        return new StoreBatches(true);
    }

    /** Batches that need not wait for a disk sync of their own (see {@link StoreBatch#relaxed()}). */
    public static StoreBatches relaxed() {
        return new StoreBatches(false);
    }

    /** The batch for {@code store}, begun on first use. */
    public StoreBatch of(MessageStore store) {
        return batches.computeIfAbsent(store, s -> forced ? new StoreBatch() : StoreBatch.relaxed());
    }

    public boolean isEmpty() {
        return batches.values().stream().allMatch(StoreBatch::isEmpty);
    }

    /** Writes every batch; each store's write, by store (those with nothing to write left out). */
    public Map<MessageStore, CompletableFuture<Void>> writeEach() {
        Map<MessageStore, CompletableFuture<Void>> writes = new LinkedHashMap<>(2);
        batches.forEach((store, batch) -> {
            if (!batch.isEmpty()) {
                writes.put(store, store.write(batch));
            }
        });
        return writes;
    }

    /** Writes every batch; completes once all are durable, or fails with the first failure. */
    public CompletableFuture<Void> write() {
        CompletableFuture<?>[] writes = batches.entrySet().stream()
                .filter(e -> !e.getValue().isEmpty())
                .map(e -> e.getKey().write(e.getValue()))
                .toArray(CompletableFuture[]::new);
        if (writes.length == 1) {
            @SuppressWarnings("unchecked")
            CompletableFuture<Void> only = (CompletableFuture<Void>) writes[0];
            return only; // the common case keeps the store's own future (and the thread it completes on)
        }
        return CompletableFuture.allOf(writes);
    }
}
