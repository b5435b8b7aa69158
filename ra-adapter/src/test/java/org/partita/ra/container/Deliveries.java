package org.partita.ra.container;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
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
    /** Per key, each arrival as {@code seq} (+ {@code r} when flagged redelivered) {@code @endpoint}: what a failure shows. */
    private final Map<String, List<String>> history = new HashMap<>();

    private String firstUnflaggedRepeat;
    private int total;
    private int repeats;
    private int unflaggedRepeats;
    private int orderViolations;
    private String firstViolation;

    public synchronized void arrived(String key, int seq, boolean redelivered, int endpoint) {
        total++;
        history.computeIfAbsent(key, k -> new ArrayList<>()).add(seq + (redelivered ? "r" : "") + "@" + endpoint);
        if (!seen.add(key + "#" + seq)) {
            repeats++;
            if (!redelivered) {
                unflaggedRepeats++;
                if (firstUnflaggedRepeat == null) {
                    firstUnflaggedRepeat = key;
                }
            }
            return;
        }
        int before = highest.getOrDefault(key, -1);
        if (seq < before) {
            orderViolations++;
            if (firstViolation == null) {
                firstViolation = key;
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
                + (firstViolation == null
                        ? ""
                        : "; first out of order: " + firstViolation + " " + history.get(firstViolation))
                + (firstUnflaggedRepeat == null
                        ? ""
                        : "; first unflagged repeat: " + firstUnflaggedRepeat + " "
                                + history.get(firstUnflaggedRepeat));
    }
}
