package org.partita.samples.support;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a sample's consumers apply numbered changes per key (a machine, an order), as a service
 * would write them to its database, and what checks afterwards that each key's changes were
 * applied once and in the order they were sent. Change {@code n} of a key must come after change
 * {@code n-1}; a change seen again is ignored when it is flagged {@code JMSRedelivered} (the
 * idempotency check the documents recommend) and counted as a fault when it is not.
 */
public final class KeyOrderLedger {
    /** What became of one delivery. */
    public enum Applied {
        APPLIED,
        DUPLICATE_IGNORED,
        OUT_OF_ORDER,
        UNFLAGGED_DUPLICATE
    }

    private static final int SHOWN_FAULTS = 5;

    private final Map<String, BitSet> seen = new HashMap<>();
    private final Map<String, Integer> last = new HashMap<>();
    private final List<String> faults = new ArrayList<>();
    private long applied;
    private long duplicatesIgnored;

    /** Applies change {@code seq} (1, 2, ...) of {@code key}. */
    public synchronized Applied apply(String key, int seq, boolean redelivered) {
        BitSet keySeen = seen.computeIfAbsent(key, k -> new BitSet());
        if (keySeen.get(seq)) {
            if (redelivered) {
                duplicatesIgnored++;
                return Applied.DUPLICATE_IGNORED;
            }
            fault("%s change %d delivered again without JMSRedelivered", key, seq);
            return Applied.UNFLAGGED_DUPLICATE;
        }
        keySeen.set(seq);
        applied++;
        int previous = last.getOrDefault(key, 0);
        last.merge(key, seq, Math::max);
        if (seq != previous + 1) {
            fault("%s change %d applied after change %d", key, seq, previous);
            return Applied.OUT_OF_ORDER;
        }
        return Applied.APPLIED;
    }

    public synchronized long applied() {
        return applied;
    }

    public synchronized long duplicatesIgnored() {
        return duplicatesIgnored;
    }

    /** Every fault seen (out of order, unflagged duplicate); the first few are described in {@link #faultSummary()}. */
    public synchronized int faults() {
        return faults.size();
    }

    public synchronized String faultSummary() {
        return faults.isEmpty()
                ? "none"
                : String.join("; ", faults.subList(0, Math.min(SHOWN_FAULTS, faults.size())))
                        + (faults.size() > SHOWN_FAULTS ? "; ..." : "");
    }

    /** Whether every key of {@code sent} has exactly changes 1 to {@code sent.get(key)} applied, and no other key any. */
    public synchronized boolean holdsExactly(Map<String, Integer> sent) {
        if (!seen.keySet().equals(sent.keySet())) {
            return false;
        }
        for (Map.Entry<String, Integer> e : sent.entrySet()) {
            BitSet s = seen.get(e.getKey());
            if (s.cardinality() != e.getValue() || s.nextSetBit(0) != 1 || s.length() != e.getValue() + 1) {
                return false;
            }
        }
        return true;
    }

    private void fault(String format, Object... args) {
        faults.add(String.format(format, args));
    }
}
