package org.partita.broker.core.queue;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a queue tells the flow control of its producers about its consumers: when one last took a
 * message, and when the bytes the queue holds (waiting and delivered unacknowledged) fall back to a
 * level someone waits for. Read and watched from any thread; the queue updates it from its own.
 */
public final class Consumption {
    private static final long NEVER = Long.MIN_VALUE / 2;
    private volatile long lastTakenNanos = NEVER;
    /** One-shot watchers and the held bytes each waits for (at or below). */
    private final Map<Runnable, Long> watchers = new ConcurrentHashMap<>();

    /** {@link System#nanoTime()} of the last message a consumer acknowledged (or a transaction consumed). */
    public long lastTakenNanos() {
        return lastTakenNanos;
    }

    void taken() {
        lastTakenNanos = System.nanoTime();
    }

    /**
     * Runs {@code watcher} once, the next time a message leaves the queue with the queue then
     * holding at most {@code level} bytes. Watching again replaces the level.
     */
    public void watch(long level, Runnable watcher) {
        watchers.put(watcher, level);
    }

    /** Forgets a watcher that no longer waits (its connection closed). */
    public void unwatch(Runnable watcher) {
        watchers.remove(watcher);
    }

    /** A message left the queue, which now holds {@code heldBytes}. */
    void left(long heldBytes) {
        if (watchers.isEmpty()) {
            return;
        }
        for (Map.Entry<Runnable, Long> w : watchers.entrySet()) {
            if (heldBytes <= w.getValue() && watchers.remove(w.getKey(), w.getValue())) {
                w.getKey().run();
            }
        }
    }
}
