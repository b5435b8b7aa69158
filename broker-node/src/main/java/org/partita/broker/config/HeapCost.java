package org.partita.broker.config;

/**
 * What a byte array of a given length takes of the heap. Under G1 an array of half a region or more
 * is humongous: it gets whole regions of its own, which nothing else shares and which the collector
 * never compacts, so a payload of 1 MiB and a few bytes takes 2 MiB in a heap with 1 MiB regions
 * (any G1 heap under 2 GiB). Budgets of payloads held in memory count this cost, not the length,
 * or a budget of 16 MiB of such payloads holds 32.
 */
public final class HeapCost {
    /** A byte array's header, which counts towards G1's humongous threshold. */
    static final int ARRAY_HEADER = 16;

    private static final HeapCost CURRENT = new HeapCost(JvmMemory.current().regionBytes());

    private final long regionBytes;

    /** @param regionBytes G1's region size, or 0 for a collector that takes arrays at their length */
    public HeapCost(long regionBytes) {
        this.regionBytes = regionBytes;
    }

    /** The cost of an array of {@code bytes} in this JVM. */
    public static long of(long bytes) {
        return CURRENT.cost(bytes);
    }

    public long cost(long bytes) {
        if (regionBytes == 0 || bytes + ARRAY_HEADER < regionBytes / 2) {
            return bytes;
        }
        long regions = (bytes + ARRAY_HEADER + regionBytes - 1) / regionBytes;
        return regions * regionBytes;
    }
}
