package org.partita.broker.it.cluster;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What the consumers of a failure test saw, message by message ({@code key#seq}): each key's first
 * arrivals must come in order, and a message that comes again must be flagged redelivered.
 */
final class KeyOrderLedger {
    private final Map<String, Integer> highest = new HashMap<>();
    private final Set<String> seen = new HashSet<>();
    private int violations;
    private int newRepeats;
    /** What each unflagged repeat was, for the failure message: key#seq, message id, when. */
    private final java.util.List<String> newRepeatsSeen = new java.util.ArrayList<>();

    private int repeats;
    /** What each violation was, for the failure message: key#seq, the seq before it, message id, when. */
    private final java.util.List<String> violationsSeen = new java.util.ArrayList<>();

    synchronized void arrived(String key, int seq, boolean redelivered) {
        arrived(key, seq, redelivered, "");
    }

    /** Each key's latest arrivals (seq, detail, when), so that a violation shows what came before it. */
    private final Map<String, java.util.Deque<String>> latest = new HashMap<>();

    /** Each message's first arrival (detail, when), so that an unflagged repeat shows both. */
    private final Map<String, String> first = new HashMap<>();

    private synchronized void arrived(String key, int seq, boolean redelivered, String detail) {
        java.util.Deque<String> before = latest.computeIfAbsent(key, k -> new java.util.ArrayDeque<>());
        String recent = String.join("; ", before);
        before.addLast("#" + seq + (redelivered ? " redelivered " : " ") + detail + " at " + java.time.Instant.now());
        if (before.size() > 4) {
            before.removeFirst();
        }
        if (!seen.add(key + "#" + seq)) {
            repeats++;
            if (!redelivered) {
                newRepeats++;
                newRepeatsSeen.add(key + "#" + seq + " " + detail + " at " + java.time.Instant.now() + " (first: "
                        + first.get(key + "#" + seq) + ")");
            }
            return;
        }
        first.put(key + "#" + seq, (redelivered ? "redelivered " : "") + detail + " at " + java.time.Instant.now());
        if (seq < highest.getOrDefault(key, -1)) {
            violations++;
            violationsSeen.add(key + "#" + seq + " after #" + highest.get(key) + (redelivered ? " redelivered " : " ")
                    + detail + " at " + java.time.Instant.now() + " (before it: " + recent + ")");
        }
        highest.merge(key, seq, Math::max);
    }

    /**
     * Records a received message by its {@code JMSXGroupID} (or, for a message sent without one, its
     * {@code symbol} property) and {@code seq} property.
     */
    void arrived(jakarta.jms.Message m) throws jakarta.jms.JMSException {
        arrived(m, "");
    }

    /** {@link #arrived(jakarta.jms.Message)}, naming who received it ({@code by}) in the reports. */
    void arrived(jakarta.jms.Message m, String by) throws jakarta.jms.JMSException {
        String key = m.getStringProperty("JMSXGroupID");
        arrived(
                key != null ? key : m.getStringProperty("symbol"),
                m.getIntProperty("seq"),
                m.getJMSRedelivered(),
                m.getJMSMessageID()
                        + (m.propertyExists("JMS_PARTITA_SentAgain") ? " sent again" : "")
                        + (by.isEmpty() ? "" : " by " + by));
    }

    /** A listener for a {@code CLIENT_ACKNOWLEDGE} session: records each message, then acknowledges it. */
    jakarta.jms.MessageListener acknowledgingListener() {
        return m -> {
            try {
                arrived(m);
                m.acknowledge();
            } catch (jakarta.jms.JMSException e) {
                throw new IllegalStateException(e);
            }
        };
    }

    /** First arrivals of a key after a later one of the same key. */
    synchronized int violations() {
        return violations;
    }

    /** Each first arrival out of its key's order, described. */
    synchronized java.util.List<String> violationsSeen() {
        return java.util.List.copyOf(violationsSeen);
    }

    /** Messages that came again without the redelivered flag. */
    synchronized int newRepeats() {
        return newRepeats;
    }

    /** Each message that came again unflagged: key#seq, its JMSMessageID and when it came again. */
    synchronized java.util.List<String> newRepeatsSeen() {
        return java.util.List.copyOf(newRepeatsSeen);
    }

    synchronized int repeats() {
        return repeats;
    }

    /** Every message ({@code key#seq}) that arrived at least once, a copy. */
    synchronized Set<String> seen() {
        return new HashSet<>(seen);
    }

    synchronized boolean has(Set<String> confirmed) {
        return seen.containsAll(confirmed);
    }

    /** The confirmed messages ({@code key#seq}) not seen yet. */
    synchronized Set<String> missing(Set<String> confirmed) {
        Set<String> out = new HashSet<>(confirmed);
        out.removeAll(seen);
        return out;
    }

    /**
     * For a last value queue, which keeps only each key's newest message: the keys whose newest
     * confirmed message ({@code key#seq}, the highest seq) neither it nor a later one of the key
     * arrived, each as {@code key#seq}.
     */
    synchronized Set<String> newestMissing(Set<String> confirmed) {
        Map<String, Integer> newest = new HashMap<>();
        for (String c : confirmed) {
            int hash = c.lastIndexOf('#');
            newest.merge(c.substring(0, hash), Integer.parseInt(c.substring(hash + 1)), Math::max);
        }
        Set<String> out = new HashSet<>();
        newest.forEach((key, seq) -> {
            if (highest.getOrDefault(key, -1) < seq) {
                out.add(key + "#" + seq);
            }
        });
        return out;
    }

    synchronized int size() {
        return seen.size();
    }
}
