package org.partita.broker.store.h2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Deletions become ranges only over ids that were all added: a range never deletes a live row. */
class DeletionRunsTest {
    private final DeletionRuns runs = new DeletionRuns();

    @Test
    void consecutiveIdsOfAKeyBecomeOneRunInWhateverOrderTheyCame() throws Exception {
        for (long id : new long[] {7, 5, 6, 9, 5, 12, 11, 10}) {
            runs.add("q", id);
        }
        runs.add("r", 8);
        assertEquals(List.of("q:5-7", "q:9-12", "r:8-8"), collect());
    }

    @Test
    void aGapSplitsTheRun() throws Exception {
        runs.add("q", 1);
        runs.add("q", 3);
        assertEquals(List.of("q:1-1", "q:3-3"), collect(), "id 2 was not deleted and must not be");
    }

    @Test
    void clearedRunsAreEmpty() throws Exception {
        runs.add("q", 1);
        runs.clear();
        assertTrue(runs.isEmpty());
        assertEquals(List.of(), collect());
    }

    private List<String> collect() throws Exception {
        List<String> out = new ArrayList<>();
        runs.forEachRun((key, from, to) -> out.add(key + ":" + from + "-" + to));
        return out;
    }
}
