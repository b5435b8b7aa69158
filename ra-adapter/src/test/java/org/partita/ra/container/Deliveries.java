package org.partita.ra.container;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What the message-driven beans received, message by message (a key and its sequence number):
 * each key's first arrivals must come in order; a message that arrives again is a repeat, which
 * is only allowed flagged as a redelivery.
 */
public final class Deliveries {
    private final Map<String, Integer> highest = new HashMap<>();
    private final Set<String> seen = new HashSet<>();
    private int total;
    private int repeats;
    private int unflaggedRepeats;
    private int orderViolations;
    private String firstViolation;

    public synchronized void arrived(String key, int seq, boolean redelivered) {
        total++;
        if (!seen.add(key + "#" + seq)) {
            repeats++;
            if (!redelivered) {
                unflaggedRepeats++;
            }
            return;
        }
        int before = highest.getOrDefault(key, -1);
        if (seq < before) {
            orderViolations++;
            if (firstViolation == null) {
                firstViolation = key + ": " + seq + " after " + before;
            }
        }
        highest.put(key, Math.max(before, seq));
    }

    public synchronized int distinct() {
        return seen.size();
    }

    public synchronized int total() {
        return total;
    }

    public synchronized boolean has(String key, int seq) {
        return seen.contains(key + "#" + seq);
    }

    public synchronized boolean hasAll(Set<String> keyHashSeq) {
        return seen.containsAll(keyHashSeq);
    }

    public synchronized Set<String> keys() {
        return new HashSet<>(highest.keySet());
    }

    public synchronized int repeats() {
        return repeats;
    }

    public synchronized int unflaggedRepeats() {
        return unflaggedRepeats;
    }

    public synchronized int orderViolations() {
        return orderViolations;
    }

    @Override
    public synchronized String toString() {
        return total + " deliveries, " + seen.size() + " distinct, " + repeats + " repeats (" + unflaggedRepeats
                + " not flagged redelivered), " + orderViolations + " order violations"
                + (firstViolation == null ? "" : " (first: " + firstViolation + ")");
    }
}
