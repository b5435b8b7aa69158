package org.partita.broker.store;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Durable state of a node. Writes are asynchronous: the future completes once the batch is
 * committed and, unless the node relaxed it, forced to disk. Callers never block on it from a
 * network thread.
 */
public interface MessageStore extends AutoCloseable {

    CompletableFuture<Void> write(StoreBatch batch);

    /** The highest message id in the store, so new ids continue after it. */
    long maxMessageId();

    List<StoredQueue> loadQueues();

    /** Streams every entry, ordered by queue then message id. */
    void loadEntries(Consumer<StoredEntry> sink);

    /** Figures for tests and admin: rows and payload bytes held. */
    StoreStats stats();

    @Override
    void close();
}
