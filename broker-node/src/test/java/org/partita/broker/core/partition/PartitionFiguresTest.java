package org.partita.broker.core.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A partition is flagged hot (a hot key is likely) when it is far deeper than the others. */
class PartitionFiguresTest {

    private static List<Boolean> hot(int... depths) {
        List<PartitionFigures.Current> in = new java.util.ArrayList<>();
        for (int p = 0; p < depths.length; p++) {
            in.add(new PartitionFigures.Current(p, depths[p], 0, null, "ASSIGNED", -1, 0, 0.0, false));
        }
        return PartitionFigures.markHot(in).stream()
                .map(PartitionFigures.Current::hot)
                .toList();
    }

    @Test
    void aPartitionFarDeeperThanTheOthersIsHot() {
        assertEquals(List.of(false, true, false, false), hot(4, 40, 5, 6));
    }

    @Test
    void tenMessagesAtLeastBeforeAnythingIsHot() {
        assertEquals(List.of(false, false), hot(0, 9), "9 against 0 is not yet a hot key");
        assertEquals(List.of(false, true), hot(0, 10));
    }

    @Test
    void twiceTheOthersAverageIsNotEnough() {
        assertEquals(List.of(false, false, false), hot(20, 20, 40), "40 is exactly twice the others' 20");
        assertEquals(List.of(false, false, true), hot(20, 20, 41));
    }

    @Test
    void aSinglePartitionIsNeverHot() {
        assertEquals(List.of(false), hot(1_000));
    }
}
