package org.partita.broker.core.queue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a queue tells the flow control of its producers about its consumers: when one last took a
 * message, and when the bytes the queue holds (waiting and delivered unacknowledged) fall back to a
 * level someone waits for. Read and watched from any thread; the queue updates it from its own.
 */
public final class Consumption {
    private static final long NEVER = Long.MIN_VALUE / 2;
    private volatile long lastTakenNanos = NEVER;
    /** One-shot watchers and the held bytes each waits for (at or below). Guarded by itself. */
    private final Map<Runnable, Long> watchers = new HashMap<>();
    /**
     * The same watchers by level: a message that leaves wakes only those whose level it reached,
     * without a walk over every watcher (10,000 producers' connections on one queue, S9). Guarded by
     * {@link #watchers}.
     */
    private final NavigableMap<Long, Set<Runnable>> byLevel = new TreeMap<>();
    /** Whether any watcher waits: read without the lock on every message that leaves. */
    private volatile boolean watched;

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
        synchronized (watchers) {
            forget(watcher);
            watchers.put(watcher, level);
            byLevel.computeIfAbsent(level, l -> new LinkedHashSet<>()).add(watcher);
            watched = true;
        }
    }

    /** Forgets a watcher that no longer waits (its connection closed). */
    public void unwatch(Runnable watcher) {
        synchronized (watchers) {
            forget(watcher);
            watched = !watchers.isEmpty();
        }
    }

    private void forget(Runnable watcher) {
        Long level = watchers.remove(watcher);
        if (level != null) {
            Set<Runnable> same = byLevel.get(level);
            same.remove(watcher);
            if (same.isEmpty()) {
                byLevel.remove(level);
            }
        }
    }

    /** A message left the queue, which now holds {@code heldBytes}: the watchers it reached run, once. */
    void left(long heldBytes) {
        if (!watched) {
            return;
        }
        List<Runnable> due;
        synchronized (watchers) {
            NavigableMap<Long, Set<Runnable>> reached = byLevel.tailMap(heldBytes, true);
            if (reached.isEmpty()) {
                return; // the common case while producers are paced: no list made for each message
            }
            due = new ArrayList<>();
            for (Set<Runnable> same : reached.values()) {
                due.addAll(same);
            }
            reached.clear();
            due.forEach(watchers::remove);
            watched = !watchers.isEmpty();
        }
        due.forEach(Runnable::run); // outside the lock: a watcher may watch again at once
    }
}
