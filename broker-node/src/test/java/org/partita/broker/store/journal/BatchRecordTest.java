package org.partita.broker.store.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.broker.store.StoreException;
import org.partita.broker.store.StoreOp;

class BatchRecordTest {
    @Test
    void everyOperationComesBackFromItsOwnRecordWithoutTheOnesBefore() {
        List<StoreOp> first = List.of(
                new StoreOp.InsertMessage(7, "hello".getBytes(StandardCharsets.UTF_8)),
                new StoreOp.InsertEntry("orders#p1", 7));
        List<StoreOp> second = List.of(
                new StoreOp.UpdateDeliveryCount("orders#p1", 7, 2),
                new StoreOp.DeleteEntry("orders#p1", 7),
                new StoreOp.DeleteMessage(7, 5),
                new StoreOp.SaveBranch(new byte[] {1, 2}, 1, new byte[] {3}),
                new StoreOp.DeleteBranch(new byte[] {1, 2}));
        byte[] one = BatchRecord.encode(first);
        byte[] two = BatchRecord.encode(second);
        // the second record names its queue again: it is read alone, on another node, maybe years later
        List<StoreOp> back = BatchRecord.decode(ByteBuffer.wrap(two));
        assertEquals(5, back.size());
        assertEquals(second.get(0), back.get(0));
        assertEquals(second.get(1), back.get(1));
        assertEquals(second.get(2), back.get(2));
        assertArrayEquals(((StoreOp.SaveBranch) second.get(3)).xid(), ((StoreOp.SaveBranch) back.get(3)).xid());
        List<StoreOp> firstBack = BatchRecord.decode(ByteBuffer.wrap(one));
        assertArrayEquals(
                "hello".getBytes(StandardCharsets.UTF_8), ((StoreOp.InsertMessage) firstBack.get(0)).payload());
        assertEquals(first.get(1), firstBack.get(1));
    }

    @Test
    void queueDefinitionsDoNotTravelInRecords() {
        List<StoreOp> ops = List.of(new StoreOp.SaveQueue("orders", "queue", ""));
        assertFalse(BatchRecord.carries(ops));
        assertTrue(BatchRecord.carries(List.of(new StoreOp.InsertEntry("q", 1))));
        assertThrows(IllegalArgumentException.class, () -> BatchRecord.encode(ops));
    }

    @Test
    void aDamagedRecordIsAStoreErrorNotHalfAnOperation() {
        byte[] record = BatchRecord.encode(List.of(new StoreOp.InsertMessage(1, new byte[100])));
        byte[] cut = java.util.Arrays.copyOf(record, 20);
        assertInstanceOf(
                StoreException.class,
                assertThrows(StoreException.class, () -> BatchRecord.decode(ByteBuffer.wrap(cut))));
    }
}
