package org.partita.broker.store.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.broker.store.StoreOp;

/** The net effect a checkpoint writes into H2. */
class PendingChangesTest {
    private final PendingChanges pending = new PendingChanges();

    @Test
    void aMessageSentAndAcknowledgedInOneEpochNeverReachesH2() {
        pending.add(new StoreOp.InsertMessage(1, new byte[100]));
        pending.add(new StoreOp.InsertEntry("q", 1));
        pending.add(new StoreOp.UpdateDeliveryCount("q", 1, 1));
        pending.add(new StoreOp.DeleteEntry("q", 1));
        pending.add(new StoreOp.DeleteMessage(1));
        assertTrue(pending.isEmpty());
        assertEquals(List.of(), pending.toBatch().ops());
        assertEquals(0, pending.payloadBytes());
    }

    @Test
    void aLiveMessageIsWrittenOnceWithItsLatestDeliveryCount() {
        byte[] payload = {1, 2, 3};
        pending.add(new StoreOp.InsertMessage(1, payload));
        pending.add(new StoreOp.InsertEntry("q", 1));
        pending.add(new StoreOp.UpdateDeliveryCount("q", 1, 2));
        List<StoreOp> ops = pending.toBatch().ops();
        assertEquals(2, ops.size());
        assertEquals(new StoreOp.InsertEntry("q", 1, 2), ops.get(1));
        assertEquals(payload, pending.payload(1));
        assertEquals(3, pending.payloadBytes());
    }

    @Test
    void changesToRowsAlreadyInH2AreKeptAsUpdatesAndDeletes() {
        pending.add(new StoreOp.UpdateDeliveryCount("q", 7, 3));
        pending.add(new StoreOp.DeleteEntry("r", 8));
        pending.add(new StoreOp.DeleteMessage(8));
        assertEquals(
                List.of(
                        new StoreOp.UpdateDeliveryCount("q", 7, 3),
                        new StoreOp.DeleteEntry("r", 8),
                        new StoreOp.DeleteMessage(8)),
                pending.toBatch().ops());
    }

    @Test
    void aDeletionOfARowInH2KeepsItsPayloadsLengthForTheCheckpoint() {
        pending.add(new StoreOp.DeleteMessage(8, 5000));
        assertEquals(
                List.of(new StoreOp.DeleteMessage(8, 5000)), pending.toBatch().ops());
        assertEquals(PendingChanges.BYTES_PER_ROW, pending.heapEstimate(), "the payload is in H2, not here");
    }

    @Test
    void anOlderEntryDeletedThenInsertedAgainThenDeletedIsDeletedInH2() {
        pending.add(new StoreOp.DeleteEntry("q", 5));
        pending.add(new StoreOp.InsertEntry("q", 5));
        assertEquals(
                List.of(new StoreOp.InsertEntry("q", 5, 0)), pending.toBatch().ops());
        pending.add(new StoreOp.DeleteEntry("q", 5));
        assertEquals(List.of(new StoreOp.DeleteEntry("q", 5)), pending.toBatch().ops());
    }

    @Test
    void deletionsOfOlderRowsCountTowardsTheHeapEstimate() {
        long before = pending.heapEstimate();
        for (long id = 1; id <= 1000; id++) {
            pending.add(new StoreOp.DeleteEntry("q", id));
            pending.add(new StoreOp.DeleteMessage(id));
        }
        assertEquals(before + 2000L * PendingChanges.BYTES_PER_ROW, pending.heapEstimate());
        pending.clear();
        assertEquals(0, pending.heapEstimate());
    }

    @Test
    void anOlderEntryWhoseCountChangedThenDeletedIsDeletedInH2() {
        pending.add(new StoreOp.UpdateDeliveryCount("q", 5, 1));
        pending.add(new StoreOp.DeleteEntry("q", 5));
        assertEquals(List.of(new StoreOp.DeleteEntry("q", 5)), pending.toBatch().ops());
    }

    @Test
    void aBranchPreparedAndCompletedInOneEpochLeavesOnlyItsDeletion() {
        byte[] xid = {1, 2};
        pending.add(new StoreOp.SaveBranch(xid, 1, new byte[50]));
        assertEquals(50, pending.payloadBytes(), "a prepared branch's record counts like a payload");
        StoreOp.SaveBranch saved = (StoreOp.SaveBranch) pending.toBatch().ops().get(0);
        assertEquals(1, saved.state());
        pending.add(new StoreOp.DeleteBranch(new byte[] {1, 2}));
        List<StoreOp> ops = pending.toBatch().ops();
        assertEquals(1, ops.size());
        assertTrue(ops.get(0) instanceof StoreOp.DeleteBranch d && java.util.Arrays.equals(xid, d.xid()));
        assertEquals(0, pending.payloadBytes());
    }

    @Test
    void aBranchDeletedThenSavedAgainIsSaved() {
        pending.add(new StoreOp.DeleteBranch(new byte[] {3}));
        pending.add(new StoreOp.SaveBranch(new byte[] {3}, 2, new byte[0]));
        List<StoreOp> ops = pending.toBatch().ops();
        assertEquals(1, ops.size());
        assertEquals(2, ((StoreOp.SaveBranch) ops.get(0)).state());
    }
}
