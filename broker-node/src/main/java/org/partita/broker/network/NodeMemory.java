package org.partita.broker.network;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The node-wide memory budgets of flow control: bytes of sends read and not yet stored or queued
 * (in flight), and payload bytes of non-persistent messages held in queues. Connections whose send
 * credit or reading was held back because a budget was spent wait here; they are resumed when the
 * budget has room again (checked as in-flight sends finish and on a short tick, since consumers
 * free non-persistent bytes from the queues' threads without telling anyone).
 */
final class NodeMemory {
    private final long inFlightLimit;
    private final long nonPersistentLimit;
    private final LongSupplier nonPersistentBytes;
    private final AtomicLong inFlight = new AtomicLong();
    private final Set<SendWindow> waiting = ConcurrentHashMap.newKeySet();

    NodeMemory(long inFlightLimit, long nonPersistentLimit, LongSupplier nonPersistentBytes) {
        this.inFlightLimit = inFlightLimit;
        this.nonPersistentLimit = nonPersistentLimit;
        this.nonPersistentBytes = nonPersistentBytes;
    }

    void reading(long bytes) {
        inFlight.addAndGet(bytes);
    }

    void done(long bytes) {
        if (inFlight.addAndGet(-bytes) <= inFlightLimit) {
            resumeWaiting();
        }
    }

    boolean inFlightSpent() {
        return inFlight.get() > inFlightLimit;
    }

    boolean nonPersistentSpent() {
        return nonPersistentBytes.getAsLong() > nonPersistentLimit;
    }

    /** Far past the non-persistent budget: only a sender that ignores its credit gets here, and it is refused. */
    boolean nonPersistentOverrun() {
        return nonPersistentBytes.getAsLong() > nonPersistentLimit + nonPersistentLimit / 2;
    }

    long inFlightBytes() {
        return inFlight.get();
    }

    long nonPersistentBytes() {
        return nonPersistentBytes.getAsLong();
    }

    void await(SendWindow w) {
        waiting.add(w);
    }

    void forget(SendWindow w) {
        waiting.remove(w);
    }

    /** Gives every waiting connection a chance to go on; each checks the budgets again on its own event loop. */
    void resumeWaiting() {
        if (waiting.isEmpty() || inFlightSpent()) {
            return;
        }
        for (SendWindow w : waiting) {
            if (waiting.remove(w)) {
                w.resume();
            }
        }
    }
}
