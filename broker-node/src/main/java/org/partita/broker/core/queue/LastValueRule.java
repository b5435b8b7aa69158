package org.partita.broker.core.queue;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The storage rule of a last value queue: a new message replaces the waiting one with the same
 * last-value key. {@code lastValue=queue} keys every message alike (the queue holds one message);
 * {@code lastValue=<property>} keys by the value of that property. A message being delivered is
 * not taken from its consumer, but it is marked replaced: when it comes back it is dropped, even if
 * the newer one was consumed meanwhile (a stale value must never follow a fresher one).
 */
final class LastValueRule {
    private final String property;
    /** The newest waiting entry of each key; touched only on the queue's executor. */
    private final Map<String, QueueEntry> latest = new HashMap<>();
    /**
     * Messages the queue holds per key (reserved, waiting or in flight), counted from the sending
     * thread on: the queue's depth in messages is the number of keys, since a new message of a key
     * replaces the older one.
     */
    private final Map<String, Integer> held = new ConcurrentHashMap<>();

    private final AtomicInteger heldWithoutKey = new AtomicInteger();

    /** @param option the queue's {@code lastValue} option */
    LastValueRule(String option) {
        this.property = option.equals("queue") ? null : option;
    }

    private String key(QueueEntry e) {
        return key(e.message());
    }

    private String key(MessageRef m) {
        return keyOf(property, m);
    }

    /** @param property the last-value property, or null for {@code lastValue=queue} (every message alike) */
    private static String keyOf(String property, MessageRef m) {
        if (property == null) {
            return "";
        }
        Object v = m.wire().property(property);
        return v == null ? null : v.toString();
    }

    /**
     * On a last value queue spread over the cluster: keys {@code m} by its last-value key, so that
     * every message of a key goes to one partition, and the node serving it keeps the newest for the
     * whole cluster ({@code lastValue=queue}: every message to one partition). A message without the
     * property keeps its own key. Nothing on any other queue.
     */
    static void partitionByLastValue(QueueOptions o, MessageRef m) {
        String option = o.lastValue();
        if (option == null || o.hosts().isEmpty()) {
            return;
        }
        String key = keyOf(option.equals("queue") ? null : option, m);
        if (key != null) {
            m.keyBy(key);
        }
    }

    /** Counts {@code m} in; returns the queue's depth as this rule sees it: keys held, plus keyless messages. */
    int hold(MessageRef m) {
        String k = key(m);
        if (k == null) {
            heldWithoutKey.incrementAndGet();
        } else {
            held.merge(k, 1, Integer::sum);
        }
        return held.size() + heldWithoutKey.get();
    }

    /** Counts {@code m} out again: it left the queue, or its send was refused. */
    void unhold(MessageRef m) {
        String k = key(m);
        if (k == null) {
            heldWithoutKey.decrementAndGet();
        } else {
            held.computeIfPresent(k, (key, n) -> n == 1 ? null : n - 1);
        }
    }

    /**
     * Records {@code e} as the newest of its key; returns the entry it supersedes, or null. The
     * superseded entry is marked replaced for good.
     */
    QueueEntry supersede(QueueEntry e) {
        String k = key(e);
        QueueEntry older = k == null ? null : latest.put(k, e);
        if (older != null) {
            older.replaced();
        }
        return older;
    }

    /**
     * True if a newer entry of the same key arrived after {@code e}, so {@code e} must not come back:
     * it was marked replaced, or another entry of its key is the newest (an entry restored locked by a
     * prepared XA branch never went through {@link #supersede}).
     */
    boolean superseded(QueueEntry e) {
        if (e.isReplaced()) {
            return true;
        }
        String k = key(e);
        return k != null && latest.containsKey(k) && latest.get(k) != e;
    }

    /** {@code e} left the queue for good. */
    void removed(QueueEntry e) {
        String k = key(e);
        if (k != null) {
            latest.remove(k, e);
        }
    }
}
