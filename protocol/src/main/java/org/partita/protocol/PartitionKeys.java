package org.partita.protocol;

import java.nio.charset.StandardCharsets;

/**
 * The stable key-to-partition mapping, identical on every node and client and across restarts:
 * {@code partition = FNV-1a-32(UTF-8 bytes of the key), as unsigned, mod partitionCount}.
 * FNV-1a 32: start with 0x811C9DC5; for each byte, XOR it in, then multiply by 0x01000193 (mod 2^32).
 * Pinned by test vectors (docs/partitions.md); never change it, or keys move between partitions.
 */
public final class PartitionKeys {
    private static final int OFFSET_BASIS = 0x811C9DC5;
    private static final int PRIME = 0x01000193;

    private PartitionKeys() {}

    public static int hash(String key) {
        int h = OFFSET_BASIS;
        for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
            h ^= (b & 0xff);
            h *= PRIME;
        }
        return h;
    }

    public static int partition(String key, int partitionCount) {
        return partitionOfHash(hash(key), partitionCount);
    }

    /** The partition of a key whose {@link #hash} was computed before (a node keeps only the hash of a paged-out message). */
    public static int partitionOfHash(int hash, int partitionCount) {
        if (partitionCount < 1) {
            throw new IllegalArgumentException("partition count must be at least 1, not " + partitionCount);
        }
        return (int) (Integer.toUnsignedLong(hash) % partitionCount);
    }
}
