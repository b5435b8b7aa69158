package org.partita.bench;

import java.util.BitSet;

/**
 * Exactly-once bookkeeping for a drain of a deep backlog (S11): one bit per message index, so that
 * 20 million messages cost 2.5 MiB, where {@link Tally}'s counter per index costs 80 MiB and a set of
 * ids far more, beside the clients in the tool's heap. A bit already set is a duplicate; an index
 * outside the backlog is counted apart. Used by one thread, the draining consumer's.
 */
final class ArrivalBitmap {
    private final int expected;
    private final BitSet seen;
    private int distinct;
    private int duplicates;
    private int unexpected;

    ArrivalBitmap(int expected) {
        if (expected < 0) {
            throw new IllegalArgumentException("a negative count: " + expected);
        }
        this.expected = expected;
        this.seen = new BitSet(expected);
    }

    /** Records one arrival of {@code index}; true if it is its first. */
    boolean record(int index) {
        if (index < 0 || index >= expected) {
            unexpected++;
            return false;
        }
        if (seen.get(index)) {
            duplicates++;
            return false;
        }
        seen.set(index);
        distinct++;
        return true;
    }

    /** Every index arrived, none twice, nothing else. */
    boolean exactlyOnce() {
        return distinct == expected && duplicates == 0 && unexpected == 0;
    }

    int expected() {
        return expected;
    }

    int distinct() {
        return distinct;
    }

    int duplicates() {
        return duplicates;
    }

    int unexpected() {
        return unexpected;
    }

    /** The first index that has not arrived, or -1: where a report can say the loss began. */
    int firstMissing() {
        int i = seen.nextClearBit(0);
        return i < expected ? i : -1;
    }
}
