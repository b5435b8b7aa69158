package org.partita.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Pins the key-to-partition mapping: these values must never change (docs/partitions.md). */
class PartitionKeysTest {

    @ParameterizedTest
    @CsvSource({"'', 811c9dc5", "a, e40c292c", "foobar, bf9cf968"})
    void hashIsFnv1a32OfUtf8(String key, String hex) {
        assertEquals((int) Long.parseLong(hex, 16), PartitionKeys.hash(key));
    }

    @ParameterizedTest
    @CsvSource({
        "m-001, 8, 2",
        "m-002, 8, 7",
        "m-120, 8, 0",
        "filler-01, 8, 1",
        "capper-07, 8, 0",
        "machine-ü, 8, 6",
        "a, 3, 1"
    })
    void partitionVectors(String key, int partitions, int expected) {
        assertEquals(expected, PartitionKeys.partition(key, partitions));
    }

    @Test
    void everyKeyLandsInRange() {
        for (int i = 0; i < 1000; i++) {
            int p = PartitionKeys.partition("key-" + i, 7);
            if (p < 0 || p >= 7) {
                throw new AssertionError("partition " + p + " out of range for key-" + i);
            }
        }
    }

    @Test
    void partitionCountMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> PartitionKeys.partition("k", 0));
    }
}
