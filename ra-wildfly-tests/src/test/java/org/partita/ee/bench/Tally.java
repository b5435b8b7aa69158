package org.partita.ee.bench;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** Counts what each benchmark bean consumed, with the times of its first and last message. */
public final class Tally {
    private static final Map<String, Tally> BY_NAME = new ConcurrentHashMap<>();

    private final AtomicLong count = new AtomicLong();
    private volatile long firstNanos;
    private volatile long lastNanos;

    static Tally of(String name) {
        return BY_NAME.computeIfAbsent(name, n -> new Tally());
    }

    void consumed() {
        long now = System.nanoTime();
        if (count.getAndIncrement() == 0) {
            firstNanos = now;
        }
        lastNanos = now;
    }

    /** {@code count=..} and {@code millis=..} (first to last message). */
    String report() {
        return "count=" + count.get() + "\nmillis=" + (lastNanos - firstNanos) / 1_000_000 + "\n";
    }
}
