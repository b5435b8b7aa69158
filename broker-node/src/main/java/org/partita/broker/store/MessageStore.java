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

    /**
     * Whether the calling thread is the store's writer thread, where a write's completion runs when
     * the writer committed it. A network thread that commits what it wrote itself
     * ({@link #commitAtEndOfTurns}) runs the completions there instead.
     */
    default boolean onWriterThread() {
        return false;
    }

    /**
     * On the writer thread: runs {@code work} once the writer has confirmed the group of writes whose
     * completion is running now (their callbacks, the answers to their senders included, have all
     * run). Elsewhere it runs at once. A queue's dispatch of a just-stored message goes here, so the
     * sender's answer leaves before the writer spends time on the delivery.
     */
    default void afterConfirmations(Runnable work) {
        work.run();
    }

    /**
     * Lets threads that work in turns (the node's network threads) gather what they write during a
     * turn and commit it themselves when the turn ends, instead of handing each write to the store's
     * writer thread (see {@link ThreadTurns}). The writes' completions then run on those threads.
     */
    default void commitAtEndOfTurns(ThreadTurns turns) {}

    /**
     * Forces to the disk every batch written before the call, {@link StoreBatch#relaxed() relaxed}
     * ones included, and returns once they are there. Blocks: never from a network thread.
     */
    default void forceWritten() {}

    /**
     * Whether a message with this JMSMessageID was written to {@code queue} here lately: a send made
     * again by a producer whose node was lost before it answered (by queue: a fan-out queue's AppId
     * queues each hold a copy with the same id). Null if not (or if this store does not
     * tell); else a future that completes once that write is durable, or fails if it failed (the
     * message was not stored, and may be sent now). Only a replicated store remembers
     * (see docs/cluster.md, "Sends made again after a node is lost").
     */
    default CompletableFuture<Void> writtenLately(String queue, String messageId) {
        return null;
    }

    /**
     * Whether the node did not stop cleanly last time (or this store cannot tell). Then any stored
     * message may have been delivered without its delivery count reaching the disk.
     */
    boolean recoveredFromCrash();

    /** The replica set this store keeps a copy of; null for a node's own store. */
    default String setName() {
        return null;
    }

    /** The highest message id in the store, so new ids continue after it. */
    long maxMessageId();

    List<StoredQueue> loadQueues();

    /** Every XA transaction branch saved and not deleted: prepared, or completed by hand. */
    List<StoredBranch> loadBranches();

    /** Streams every entry, ordered by queue then message id, each with its message's head or payload. */
    void loadEntries(Consumer<StoredEntry> sink);

    /**
     * The payload of a stored message, or null if it is not stored (any more). Safe from any
     * thread, and never waits for the writer: a node reads back messages it paged out of memory.
     */
    byte[] readPayload(long messageId);

    /** What the store counts of its work, for the metrics; empty if this store counts nothing. */
    default java.util.Optional<StoreCounters> counters() {
        return java.util.Optional.empty();
    }

    /** Figures for tests and admin: rows and payload bytes held. */
    StoreFigures figures();

    @Override
    void close();
}
