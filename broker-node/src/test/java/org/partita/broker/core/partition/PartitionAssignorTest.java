package org.partita.broker.core.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.partita.broker.core.dispatch.ConsumerRef;

class PartitionAssignorTest {

    private static List<ConsumerRef> consumers(int n) {
        List<ConsumerRef> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(PartitionOwnershipTest.consumer("c" + i));
        }
        return out;
    }

    private static Map<ConsumerRef, Integer> counts(ConsumerRef[] target) {
        Map<ConsumerRef, Integer> m = new HashMap<>();
        for (ConsumerRef c : target) {
            m.merge(c, 1, Integer::sum);
        }
        return m;
    }

    @Test
    void spreadsEvenly() {
        List<ConsumerRef> cs = consumers(3);
        ConsumerRef[] t = PartitionAssignor.assign(cs, new ConsumerRef[8]);
        Map<ConsumerRef, Integer> counts = counts(t);
        assertEquals(3, counts.get(cs.get(0)));
        assertEquals(3, counts.get(cs.get(1)));
        assertEquals(2, counts.get(cs.get(2)));
    }

    @Test
    void aJoiningConsumerTakesOnlyItsShareAndNothingElseMoves() {
        List<ConsumerRef> cs = consumers(2);
        ConsumerRef[] before = PartitionAssignor.assign(cs, new ConsumerRef[8]);
        cs.add(PartitionOwnershipTest.consumer("new"));
        ConsumerRef[] after = PartitionAssignor.assign(cs, before);
        int moved = 0;
        for (int p = 0; p < 8; p++) {
            if (before[p] != after[p]) {
                moved++;
                assertEquals("new", after[p].toString(), "only partitions going to the newcomer move");
            }
        }
        assertEquals(2, moved, "8 partitions over 3 consumers: the newcomer takes 2");
    }

    @Test
    void consumersBeyondThePartitionCountAreStandbys() {
        List<ConsumerRef> cs = consumers(5);
        ConsumerRef[] t = PartitionAssignor.assign(cs, new ConsumerRef[3]);
        Map<ConsumerRef, Integer> counts = counts(t);
        assertEquals(3, counts.size());
        counts.values().forEach(v -> assertEquals(1, v));
    }

    @Test
    void aLeavingConsumersPartitionsGoToTheOthers() {
        List<ConsumerRef> cs = consumers(4);
        ConsumerRef[] before = PartitionAssignor.assign(cs, new ConsumerRef[8]);
        ConsumerRef gone = cs.remove(1);
        ConsumerRef[] current = before.clone();
        for (int p = 0; p < 8; p++) {
            if (current[p] == gone) {
                current[p] = null;
            }
        }
        ConsumerRef[] after = PartitionAssignor.assign(cs, current);
        for (int p = 0; p < 8; p++) {
            assertTrue(after[p] != gone);
            if (before[p] != gone) {
                assertEquals(before[p], after[p], "partitions of staying consumers do not move");
            }
        }
    }

    @Test
    void nobodyEligibleMeansNoOwners() {
        ConsumerRef[] t = PartitionAssignor.assign(List.of(), new ConsumerRef[4]);
        for (ConsumerRef c : t) {
            assertNull(c);
        }
    }
}
