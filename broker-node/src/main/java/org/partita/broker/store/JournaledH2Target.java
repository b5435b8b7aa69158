package org.partita.broker.store;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.sql.SQLException;
import java.util.List;

/**
 * A write-ahead journal in front of H2. A group of message and entry changes is appended to the
 * journal as one record and made durable with one data-only sync of a preallocated file, the
 * cheapest durable write a disk offers. H2 receives, at each checkpoint, only the net effect of
 * the journal since the previous one: a message sent and acknowledged in between never costs H2
 * a page write. Queue definitions are rare and go to H2 directly, after a checkpoint, so their
 * order with the message changes around them is kept.
 *
 * <p>A checkpoint writes the net effect to H2, commits, forces H2 to the disk, and only then
 * starts a new journal epoch. A crash at any point leaves H2 at an earlier checkpoint plus a
 * journal that replays onto it (every change the journal produces is idempotent).
 */
final class JournaledH2Target implements CommitTarget {
    private static final Logger LOG = LoggerFactory.getLogger(JournaledH2Target.class);
    /** Longest queue name H2's QUEUE column holds; refused here so a checkpoint can never fail on it. */
    static final int MAX_QUEUE_NAME = 1024;
    /** A group larger than this is written as several records (of whole batches). */
    private static final int RECORD_TARGET = 8 << 20;
    /**
     * A checkpoint commits its net effect in parts: one huge H2 transaction keeps every deleted
     * payload in H2's undo log and writes it out mid-way. Parts are safe: the journal is rewound
     * only once every part is committed and forced, and applying a part again is harmless.
     */
    private static final int OPS_PER_CHECKPOINT_TRANSACTION = 1000;

    private final H2BatchApplier h2;
    private final JournalFile journal;
    /** Bytes appended to the journal since the store opened, across epochs (for benchmarks and figures). */
    private volatile long appendedBytes;
    private final long checkpointBytes;
    private final JournalCodec codec = new JournalCodec();
    private final PendingChanges pending = new PendingChanges();
    private ByteBuffer buffer = ByteBuffer.allocateDirect(256 * 1024);
    private final boolean previousStopWasClean;
    private boolean h2Dirty;
    /** A checkpoint moved everything to H2 but could not start the new epoch: retry before appending. */
    private boolean rewindNeeded;
    /** A checkpoint committed some of its parts, then failed: it must complete before anything is appended. */
    private boolean checkpointIncomplete;
    private StoreFigures figures = new StoreFigures();
    /** Gives H2 file space back after checkpoints; none unless set. */
    private H2Space space;
    private boolean journalDirty;
    private long checkpoints;
    /** Where the first record appended since the writer last confirmed everything starts; -1 if none. */
    private long mark = -1;
    /** Records appended by the current {@link #apply} call. */
    private int appendsInCall;

    /**
     * Replays what the journal holds onto H2 and starts a new epoch.
     *
     * @param checkpointBytes journal bytes, or estimated heap of the pending net effect, after which
     *                        the net effect is moved into H2
     */
    JournaledH2Target(H2BatchApplier h2, JournalFile journal, long checkpointBytes) throws IOException, SQLException {
        this.h2 = h2;
        this.journal = journal;
        this.checkpointBytes = checkpointBytes;
        int[] records = new int[1];
        journal.replay(body -> {
            codec.decode(body).forEach(pending::add);
            records[0]++;
        });
        if (records[0] > 0) {
            LOG.info("replaying {} journal records ({} bytes) into H2", records[0], journal.used());
        }
        this.previousStopWasClean = journal.closedCleanly() && records[0] == 0;
        moveToH2();
        startEpoch();
    }

    /**
     * True if the node stopped cleanly last time: the final checkpoint ran and nothing can be left
     * half done (such as a payload whose last entry was deleted but not the payload itself).
     */
    boolean previousStopWasClean() {
        return previousStopWasClean;
    }

    @Override
    public void apply(List<StoreBatch> batches) throws Exception {
        appendsInCall = 0;
        for (StoreBatch b : batches) {
            check(b);
        }
        // Only confirmed groups may reach H2: a group whose sync then fails must leave no trace there.
        if (mark < 0 && (journal.used() >= checkpointBytes || pending.heapEstimate() >= checkpointBytes)) {
            checkpoint();
        }
        if (checkpointIncomplete) {
            checkpoint(); // nothing is added on top of a half-applied net effect
        }
        if (rewindNeeded) {
            startEpoch();
        }
        int start = 0;
        for (int i = 0; i < batches.size(); i++) {
            if (touchesQueues(batches.get(i))) {
                append(batches.subList(start, i));
                checkpoint();
                h2.apply(List.of(batches.get(i)));
                h2Dirty = true;
                start = i + 1;
            }
        }
        append(batches.subList(start, batches.size()));
    }

    /** A queue definition goes to H2 after a checkpoint: in a group of its own, so only confirmed records move. */
    @Override
    public boolean standsAlone(StoreBatch batch) {
        return touchesQueues(batch);
    }

    @Override
    public boolean cleanFailure() {
        return appendsInCall == 0;
    }

    @Override
    public void settled() {
        mark = -1;
    }

    /** Zeroes the head of the first unconfirmed record, so no replay reaches it or what follows. */
    @Override
    public void abandon() throws IOException {
        if (mark >= 0) {
            journal.invalidateFrom(mark);
            mark = -1;
        }
    }

    @Override
    public void release() {
        closeFile();
    }

    @Override
    public void sync() {
        try {
            if (journalDirty) {
                journal.force();
                journalDirty = false;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("journal sync failed", e);
        }
        if (h2Dirty) {
            h2.sync();
            h2Dirty = false;
        }
    }

    /**
     * The writer is idle and everything appended is confirmed: the net effect goes into H2 now, so a
     * drained backlog's space is freed (and given back) without waiting for the journal to fill.
     */
    @Override
    public void idle() throws IOException, SQLException {
        if (mark < 0 && !pending.isEmpty()) {
            checkpoint();
        }
    }

    /** H2 reads must see everything committed, so the journal's net effect goes there first. */
    @Override
    public void beforeRead() {
        try {
            checkpoint();
        } catch (IOException | SQLException e) {
            throw new StoreException("checkpoint before a read failed: " + e.getMessage(), e);
        }
    }

    /**
     * A clean stop leaves an empty journal marked clean: the next start reads H2 alone and skips the
     * scan for payloads without entries, which runs here instead (payloads held only by queues that
     * keep no entries, such as non-durable subscriptions, end with the node).
     */
    @Override
    public void close() {
        try {
            moveToH2();
            h2.removeOrphanPayloads();
            h2.sync(); // before the header says clean: the next start will not look for orphans again
            journal.rewindAtCleanStop();
        } catch (IOException | SQLException e) {
            LOG.warn("final checkpoint failed; the journal will be replayed at the next start: {}", e.toString());
        } finally {
            closeFile();
        }
    }

    /** Releases the file without a checkpoint, when the store could not finish opening. */
    void closeFile() {
        try {
            journal.close();
        } catch (IOException e) {
            LOG.debug("journal close: {}", e.toString());
        }
    }

    long appendedBytes() {
        return appendedBytes;
    }

    /** Where checkpoints are counted (the store's figures). */
    void figures(StoreFigures f) {
        figures = f;
    }

    /** Compacts H2's file online at checkpoints when it is mostly free. */
    void space(H2Space s) {
        space = s;
    }

    long checkpoints() {
        return checkpoints;
    }

    /**
     * The payload of a message not yet moved to H2, or null; any thread. A checkpoint commits
     * to H2 before it forgets the pending payloads, so a reader that misses here finds it in H2.
     */
    byte[] pendingPayload(long messageId) {
        return pending.payload(messageId);
    }

    private void checkpoint() throws IOException, SQLException {
        moveToH2();
        if (journal.used() > 0) {
            startEpoch();
        }
    }

    /**
     * Writes the net effect into H2 and forces it there: from now on the journal's records are
     * redundant. The pending changes are forgotten only after the sync, so a failed sync leaves
     * them for the next checkpoint (applying them again is harmless) and the journal unrewound.
     */
    private void moveToH2() throws SQLException {
        if (!pending.isEmpty()) {
            long started = System.nanoTime();
            // Until this checkpoint completes, H2 may hold rows the pending changes think it lacks
            // (a message created and deleted in this epoch cancels out only while H2 has none of it).
            checkpointIncomplete = true;
            List<StoreOp> ops = pending.toBatch().ops();
            for (int from = 0; from < ops.size(); from += OPS_PER_CHECKPOINT_TRANSACTION) {
                StoreBatch part = new StoreBatch();
                ops.subList(from, Math.min(ops.size(), from + OPS_PER_CHECKPOINT_TRANSACTION)).forEach(part::add);
                h2.apply(List.of(part));
            }
            h2.sync();
            pending.clear();
            checkpointIncomplete = false;
            checkpoints++;
            figures.checkpointed(System.nanoTime() - started);
            if (space != null && space.compactIfMostlyFree()) {
                figures.compacted();
            }
        }
    }

    /**
     * A new epoch at the start of the file. Until one succeeds nothing is appended: records written
     * after the old epoch's, under a header that never changed, would be lost to a replay.
     */
    private void startEpoch() throws IOException {
        rewindNeeded = true;
        journal.rewind();
        codec.reset();
        rewindNeeded = false;
    }

    /**
     * Appends the batches as few records as possible: one per group, unless the group is larger
     * than {@link #RECORD_TARGET}; a record always holds whole batches, so each stays atomic.
     */
    private void append(List<StoreBatch> batches) throws IOException {
        int from = 0;
        while (from < batches.size()) {
            long size = JournalFile.RECORD_OVERHEAD;
            int to = from;
            while (to < batches.size()) {
                long next = encodedBound(batches.get(to));
                if (to > from && size + next > RECORD_TARGET) {
                    break;
                }
                size += next;
                to++;
            }
            appendRecord(batches.subList(from, to), Math.toIntExact(size));
            from = to;
        }
    }

    private void appendRecord(List<StoreBatch> batches, int bound) throws IOException {
        ByteBuffer record = bound <= buffer.capacity() ? buffer : ByteBuffer.allocateDirect(bound);
        if (record != buffer && bound <= RECORD_TARGET) {
            buffer = record; // keep the larger buffer for next time, up to the target size
        }
        record.clear().position(JournalFile.RECORD_OVERHEAD);
        for (StoreBatch b : batches) {
            for (StoreOp op : b.ops()) {
                codec.encode(op, record);
            }
        }
        int recordBytes = record.position();
        if (mark < 0) {
            mark = journal.position();
        }
        try {
            journal.append(record);
        } catch (IOException e) {
            codec.reset(); // names defined in the lost record are defined again in the next one
            throw e;
        }
        journalDirty = true;
        appendsInCall++;
        appendedBytes += recordBytes;
        for (StoreBatch b : batches) {
            b.ops().forEach(pending::add);
        }
    }

    private static long encodedBound(StoreBatch b) {
        long size = 0;
        for (StoreOp op : b.ops()) {
            size += JournalCodec.maxSize(op);
        }
        return size;
    }

    private static boolean touchesQueues(StoreBatch b) {
        for (StoreOp op : b.ops()) {
            if (!JournalCodec.journaled(op)) {
                return true;
            }
        }
        return false;
    }

    /** Refuses what H2 would refuse at the checkpoint, while the batch can still fail on its own. */
    private static void check(StoreBatch b) {
        for (StoreOp op : b.ops()) {
            String queue = op instanceof StoreOp.InsertEntry e ? e.queue()
                    : op instanceof StoreOp.DeleteEntry e ? e.queue()
                    : op instanceof StoreOp.UpdateDeliveryCount u ? u.queue() : null;
            if (queue != null && queue.length() > MAX_QUEUE_NAME) {
                throw new StoreException("queue name longer than " + MAX_QUEUE_NAME + " characters", null);
            }
        }
    }
}
