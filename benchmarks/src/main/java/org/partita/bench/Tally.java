package org.partita.bench;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Exactly-once bookkeeping: every expected message has an index; arrivals are counted per index,
 * so a missing message and a duplicate are both visible. Thread-safe.
 */
final class Tally {
    private final int expected;
    private final AtomicIntegerArray counts;
    private final AtomicInteger distinct = new AtomicInteger();
    private final AtomicInteger duplicates = new AtomicInteger();
    private final AtomicInteger unexpected = new AtomicInteger();
    private final CountDownLatch complete = new CountDownLatch(1);
    private volatile long completedAt;

    Tally(int expected) {
        this.expected = expected;
        this.counts = new AtomicIntegerArray(Math.max(1, expected));
        if (expected == 0) {
            completedAt = System.nanoTime();
            complete.countDown();
        }
    }

    /** Records one arrival; true if it is the first arrival of that index. */
    boolean record(int index) {
        if (index < 0 || index >= expected) {
            unexpected.incrementAndGet();
            return false;
        }
        if (counts.getAndIncrement(index) != 0) {
            duplicates.incrementAndGet();
            return false;
        }
        if (distinct.incrementAndGet() == expected) {
            completedAt = System.nanoTime();
            complete.countDown();
        }
        return true;
    }

    /** Waits until every index arrived or the deadline (System.nanoTime) passed, checking {@code abort} meanwhile. */
    boolean await(long deadlineNanos, Workers abort) throws InterruptedException {
        while (true) {
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                return complete.getCount() == 0;
            }
            if (complete.await(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)), TimeUnit.NANOSECONDS)) {
                return true;
            }
            if (abort != null && abort.failure() != null) {
                return false;
            }
        }
    }

    int expected() {
        return expected;
    }

    int distinct() {
        return distinct.get();
    }

    int duplicates() {
        return duplicates.get();
    }

    int unexpected() {
        return unexpected.get();
    }

    /** System.nanoTime when the last missing index arrived; 0 if not complete. */
    long completedAt() {
        return completedAt;
    }
}
