package org.partita.broker.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Under G1 an array of half a region or more takes whole regions; other collectors take it at its length. */
class HeapCostTest {
    private static final long MIB = 1L << 20;

    @Test
    void anArrayOfHalfARegionOrMoreTakesWholeRegions() {
        HeapCost g1 = new HeapCost(MIB);
        assertEquals(1000, g1.cost(1000));
        assertEquals(MIB / 2 - 17, g1.cost(MIB / 2 - 17), "under half a region with its header: its length");
        assertEquals(MIB, g1.cost(MIB / 2), "humongous: a region of its own");
        assertEquals(2 * MIB, g1.cost(MIB), "a payload of 1 MiB and its header take two regions");
        assertEquals(16 * MIB, g1.cost(15 * MIB + 100));
    }

    @Test
    void withoutRegionsAnArrayCostsItsLength() {
        assertEquals(MIB, new HeapCost(0).cost(MIB));
    }
}
