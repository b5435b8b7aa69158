package org.partita.broker.core.queue;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import org.partita.broker.config.HeapCost;

/**
 * The node's budget for payloads of stored messages held in memory, counted at their heap cost
 * ({@link HeapCost}: under G1 a payload of a megabyte takes two). Below it every message stays
 * resident; above it, each newly stored message is paged out at once, so the oldest messages,
 * which are delivered first, stay in memory and a deep backlog costs only its summaries. A
 * message that is not stored (non-persistent) is never paged out and not counted here.
 */
public final class PayloadMemory {
    private final long budget;
    private final LongFunction<byte[]> store;
    private final AtomicLong residentBytes;
    private final AtomicLong pagedOut;

    /** @param store reads a stored payload back by message id; null if it is no longer stored */
    public PayloadMemory(long budget, LongFunction<byte[]> store) {
        this(budget, store, new AtomicLong(), new AtomicLong());
    }

    private PayloadMemory(long budget, LongFunction<byte[]> store, AtomicLong residentBytes, AtomicLong pagedOut) {
        this.budget = budget;
        this.store = store;
        this.residentBytes = residentBytes;
        this.pagedOut = pagedOut;
    }

    /**
     * The same budget for payloads kept in another store (a replica set's): counted together, read
     * back from that store, whose message ids are its own.
     */
    public PayloadMemory readingFrom(LongFunction<byte[]> other) {
        return new PayloadMemory(budget, other, residentBytes, pagedOut);
    }

    void admitted(MessageRef m) {
        long cost = HeapCost.of(m.size());
        if (residentBytes.addAndGet(cost) > budget && m.pageOut()) {
            residentBytes.addAndGet(-cost);
            pagedOut.incrementAndGet();
        }
    }

    /** A message read back at start-up from its head: paged out without ever being resident. */
    void restoredPagedOut() {
        pagedOut.incrementAndGet();
    }

    void released(MessageRef m) {
        residentBytes.addAndGet(-HeapCost.of(m.size()));
    }

    byte[] read(long messageId) {
        return store.apply(messageId);
    }

    /** Payload bytes of stored messages held in memory now, at their heap cost. */
    public long residentBytes() {
        return residentBytes.get();
    }

    /** Messages paged out since the node started, those restored from their heads included. */
    public long pagedOutCount() {
        return pagedOut.get();
    }
}
