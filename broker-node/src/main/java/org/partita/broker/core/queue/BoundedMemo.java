package org.partita.broker.core.queue;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Results of a pure function of a few distinct inputs, kept so that a hot path (a destination named
 * in every send) computes each once. Bounded: past {@code max} inputs it starts afresh, so names
 * made up by the thousand (temporary queues, a client naming at random) cost memory only up to the
 * bound. A computation that throws is not kept.
 */
public final class BoundedMemo<K, V> {
    private final int max;
    private final Map<K, V> results = new ConcurrentHashMap<>();

    public BoundedMemo(int max) {
        this.max = max;
    }

    public V get(K key, Function<K, V> compute) {
        V known = results.get(key);
        if (known != null) {
            return known;
        }
        V fresh = compute.apply(key);
        if (results.size() >= max) {
            results.clear();
        }
        results.put(key, fresh);
        return fresh;
    }
}
