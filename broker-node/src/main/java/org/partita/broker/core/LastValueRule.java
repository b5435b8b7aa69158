package org.partita.broker.core;

import java.util.HashMap;
import java.util.Map;

/**
 * The storage rule of a last value queue: a new message replaces the waiting one with the same
 * last-value key. {@code lastValue=queue} keys every message alike (the queue holds one message);
 * {@code lastValue=<property>} keys by the value of that property. A message being delivered is
 * not taken from its consumer, but if it comes back while a newer one exists, it is dropped.
 */
final class LastValueRule {
    private final String property;
    private final Map<String, QueueEntry> latest = new HashMap<>();

    /** @param option the queue's {@code lastValue} option */
    LastValueRule(String option) {
        this.property = option.equals("queue") ? null : option;
    }

    private String key(QueueEntry e) {
        if (property == null) {
            return "";
        }
        Object v = e.message().wire().property(property);
        return v == null ? null : v.toString();
    }

    /** Records {@code e} as the newest of its key; returns the entry it supersedes, or null. */
    QueueEntry supersede(QueueEntry e) {
        String k = key(e);
        return k == null ? null : latest.put(k, e);
    }

    /** True if a newer entry of the same key exists, so {@code e} must not come back. */
    boolean superseded(QueueEntry e) {
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
