package org.partita.broker.store.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.broker.store.StoreException;
import org.partita.broker.store.StoreOp;

/** Journal record bodies: every operation round-trips, queue names cost bytes once per epoch. */
class JournalCodecTest {

    @Test
    void everyJournaledOperationRoundTrips() {
        byte[] payload = {9, 8, 7};
        List<StoreOp> ops = List.of(
                new StoreOp.InsertMessage(Long.MAX_VALUE, payload),
                new StoreOp.InsertEntry("orders", Long.MAX_VALUE, 0),
                new StoreOp.InsertEntry("ünïcødé/queue", 300, 2),
                new StoreOp.UpdateDeliveryCount("orders", 1, 200),
                new StoreOp.DeleteEntry("orders", 0),
                new StoreOp.DeleteMessage(128, 70_000));
        JournalCodec writer = new JournalCodec();
        ByteBuffer body = encode(writer, ops);
        List<StoreOp> back = new JournalCodec().decode(body);
        assertEquals(ops.size(), back.size());
        assertArrayEquals(payload, ((StoreOp.InsertMessage) back.get(0)).payload());
        assertEquals(ops.subList(1, ops.size()), back.subList(1, back.size()));
    }

    @Test
    void xaBranchOperationsRoundTrip() {
        byte[] xid = {0, 0, 0, 7, 1, 42, 0};
        byte[] data = new byte[300];
        data[299] = 5;
        List<StoreOp> back = new JournalCodec()
                .decode(encode(
                        new JournalCodec(),
                        List.of(new StoreOp.SaveBranch(xid, 3, data), new StoreOp.DeleteBranch(xid))));
        StoreOp.SaveBranch saved = (StoreOp.SaveBranch) back.get(0);
        assertArrayEquals(xid, saved.xid());
        assertEquals(3, saved.state());
        assertArrayEquals(data, saved.data());
        assertArrayEquals(xid, ((StoreOp.DeleteBranch) back.get(1)).xid());
        assertEquals(2, back.size());
    }

    /** A heuristic decision is stored with no branch data: an empty array round-trips as one. */
    @Test
    void aBranchWithEmptyDataRoundTrips() {
        byte[] xid = {9, 8, 7};
        StoreOp.SaveBranch saved = (StoreOp.SaveBranch) new JournalCodec()
                .decode(encode(new JournalCodec(), List.of(new StoreOp.SaveBranch(xid, 5, new byte[0]))))
                .get(0);
        assertArrayEquals(xid, saved.xid());
        assertEquals(5, saved.state());
        assertArrayEquals(new byte[0], saved.data());
    }

    @Test
    void aQueueNameIsWrittenOnlyTheFirstTimeInAnEpoch() {
        JournalCodec writer = new JournalCodec();
        String queue = "a-rather-long-subscription-queue-name";
        int first = encode(writer, List.of(new StoreOp.InsertEntry(queue, 1))).remaining();
        int second = encode(writer, List.of(new StoreOp.InsertEntry(queue, 2))).remaining();
        assertTrue(first > queue.length(), "first use carries the name");
        assertTrue(second <= 5, "later uses are a few bytes: " + second);
        writer.reset();
        assertEquals(
                first,
                encode(writer, List.of(new StoreOp.InsertEntry(queue, 1))).remaining(),
                "a new epoch defines it again");
    }

    @Test
    void aNameDefinedAgainAfterAFailedAppendIsAccepted() {
        JournalCodec writer = new JournalCodec();
        ByteBuffer lost = encode(writer, List.of(new StoreOp.InsertEntry("x", 1)));
        writer.reset(); // the record above never reached the disk
        ByteBuffer kept = encode(writer, List.of(new StoreOp.InsertEntry("y", 2)));
        JournalCodec reader = new JournalCodec();
        reader.decode(lost);
        assertEquals(List.of(new StoreOp.InsertEntry("y", 2)), reader.decode(kept));
    }

    @Test
    void aDamagedBodyIsReportedAsCorrupt() {
        ByteBuffer body = encode(new JournalCodec(), List.of(new StoreOp.InsertEntry("q", 1)));
        body.put(body.limit() - 4, (byte) 99); // the operation type now names nothing known
        StoreException e = assertThrows(StoreException.class, () -> new JournalCodec().decode(body));
        assertTrue(e.getMessage().startsWith("corrupt journal record"), e.getMessage());
    }

    @Test
    void aDeletionWithoutItsPayloadsLengthFromAnOlderJournalIsRead() {
        ByteBuffer older = ByteBuffer.wrap(new byte[] {3, (byte) 0x80, 1}); // DELETE_MESSAGE, id 128 as a varint
        assertEquals(List.of(new StoreOp.DeleteMessage(128, 0)), new JournalCodec().decode(older));
    }

    @Test
    void queueDefinitionsAreNotJournaled() {
        assertTrue(!JournalCodec.journaled(new StoreOp.SaveQueue("q", "queue", "")));
        assertTrue(!JournalCodec.journaled(new StoreOp.DeleteQueue("q")));
        assertTrue(JournalCodec.journaled(new StoreOp.DeleteMessage(1)));
    }

    private static ByteBuffer encode(JournalCodec codec, List<StoreOp> ops) {
        int size = (int) ops.stream().mapToLong(JournalCodec::maxSize).sum();
        ByteBuffer out = ByteBuffer.allocate(size);
        ops.forEach(op -> codec.encode(op, out));
        return out.flip();
    }
}
