package org.partita.broker.store.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.broker.store.StoreOp;

/** A checkpoint's H2 transactions: bounded by operations and by the payload bytes they insert or delete. */
class CheckpointPartsTest {
    private static final int KIB = 1024;

    /** The sizes of the parts {@code ops} is cut into. */
    private static List<Integer> parts(CheckpointParts parts, List<StoreOp> ops) {
        List<Integer> sizes = new ArrayList<>();
        for (int from = 0; from < ops.size(); ) {
            int to = parts.end(ops, from);
            sizes.add(to - from);
            from = to;
        }
        return sizes;
    }

    @Test
    void smallChangesGoAThousandToATransaction() {
        List<StoreOp> ops = new ArrayList<>();
        for (long id = 0; id < 2500; id++) {
            ops.add(new StoreOp.InsertEntry("q", id));
        }
        assertEquals(List.of(1000, 1000, 500), parts(new CheckpointParts(KIB), ops));
    }

    @Test
    void payloadsEndATransactionAtItsBytesAndALargerOneGoesAlone() {
        List<StoreOp> ops = List.of(
                new StoreOp.InsertMessage(1, new byte[400 * KIB]),
                new StoreOp.InsertMessage(2, new byte[400 * KIB]),
                new StoreOp.InsertMessage(3, new byte[400 * KIB]),
                new StoreOp.InsertMessage(4, new byte[3000 * KIB]),
                new StoreOp.InsertEntry("q", 1),
                new StoreOp.InsertEntry("q", 4));
        assertEquals(List.of(2, 1, 3), parts(new CheckpointParts(1000 * KIB), ops));
    }

    @Test
    void aDeletionCountsThePayloadH2LoadsToDeleteIt() {
        List<StoreOp> ops = List.of(
                new StoreOp.DeleteMessage(1, 600 * KIB),
                new StoreOp.DeleteMessage(2, 600 * KIB),
                new StoreOp.DeleteMessage(3, 600 * KIB));
        assertEquals(List.of(1, 1, 1), parts(new CheckpointParts(1000 * KIB), ops));
        List<StoreOp> unknownSizes = List.of(new StoreOp.DeleteMessage(1), new StoreOp.DeleteMessage(2));
        assertEquals(
                List.of(2),
                parts(new CheckpointParts(1000 * KIB), unknownSizes),
                "a deletion from an older journal counts as a row");
    }

    @Test
    void anXaBranchCountsItsData() {
        List<StoreOp> ops = List.of(
                new StoreOp.SaveBranch(new byte[] {1}, 1, new byte[800 * KIB]),
                new StoreOp.SaveBranch(new byte[] {2}, 1, new byte[800 * KIB]));
        assertEquals(List.of(1, 1), parts(new CheckpointParts(1000 * KIB), ops));
    }
}
