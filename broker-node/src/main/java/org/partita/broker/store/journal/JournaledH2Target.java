package org.partita.broker.store.journal;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.partita.broker.config.StorageSettings;
import org.partita.broker.store.StoreBatch;
import org.partita.broker.store.StoreCounters;
import org.partita.broker.store.StoreException;
import org.partita.broker.store.StoreOp;
import org.partita.broker.store.commit.CommitTarget;
import org.partita.broker.store.h2.H2BatchApplier;
import org.partita.broker.store.h2.H2Space;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A write-ahead journal in front of H2. A group of message and entry changes is appended to the
 * journal as one record and made durable with one data-only sync of a preallocated file, the
 * cheapest durable write a disk offers. H2 receives, at each checkpoint, only the net effect of
 * the journal since the previous one: a message sent and acknowledged in between never costs H2
 * a page write. Queue definitions are rare and go to H2 directly, after a checkpoint, so their
 * order with the message changes around them is kept.
 *
 * <p>A checkpoint never stops appends: it closes the current segment and starts the next one
 * ({@link JournalSegments}), and the closed segment's net effect is written to H2, committed and
 * forced on a thread of its own while groups go on being appended and synced in the new segment.
 * Only then is the closed segment marked checkpointed, and only then may its file be reused. H2's
 * connection is used by one thread at a time: the writer touches it (reads, queue definitions, the
 * clean stop) only after waiting for the checkpoint in progress. A crash at any point leaves H2 at
 * an earlier checkpoint plus segments that replay onto it one after the other, oldest first (every
 * change a net effect produces sets a row to its final state).
 */
public final class JournaledH2Target implements CommitTarget {
    private static final Logger LOG = LoggerFactory.getLogger(JournaledH2Target.class);
    /** Longest queue name H2's QUEUE column holds; refused here so a checkpoint can never fail on it. */
    public static final int MAX_QUEUE_NAME = 1024;
    /** A group larger than this is written as several records (of whole batches). */
    private static final int RECORD_TARGET = 8 << 20;

    /**
     * A closed segment whose net effect is going into H2. {@code running} is null once a try
     * failed: the next wait runs it again on the waiting thread.
     */
    private record Closed(JournalFile segment, PendingChanges changes, CompletableFuture<Void> running) {}

    private final H2BatchApplier h2;
    private final JournalSegments segments;
    /** The segment appends go to. */
    private JournalFile journal;

    private long lastEpoch;
    /** Bytes appended to the journal since the store opened, across epochs (for benchmarks and figures). */
    private volatile long appendedBytes;
    /** A segment closes when its records, or its pending net effect's estimated heap, reach this. */
    private final long segmentBytes;
    /** The H2 transactions a checkpoint, and the replay, commit a net effect in. */
    private final CheckpointParts parts;

    private final JournalCodec codec = new JournalCodec();
    private ByteBuffer buffer = ByteBuffer.allocateDirect(256 * 1024);
    /** The current segment's net effect; replaced at each rotation (read by any thread for payloads). */
    private volatile PendingChanges pending = new PendingChanges();
    /** The closed segment's net effect until H2 has committed it, for payload readers; else null. */
    private volatile PendingChanges closingChanges;
    /** Writer thread only: the closed segment being checkpointed, or null. */
    private Closed closed;
    /** Runs closed segments' checkpoints, one at a time: a thread of its own (tests hold them back). */
    private final Executor checkpointThread;
    /** Prepares the files' space ahead of the appends, so the writer does not zero-fill it between groups. */
    private final JournalAllocator allocator;

    private final boolean previousStopWasClean;
    private boolean h2Dirty;
    private volatile StoreCounters counters = new StoreCounters();
    /** Gives H2 file space back after checkpoints; none unless set. */
    private volatile H2Space space;
    /** Runs on the checkpoint thread after each part of a net effect is committed and released (tests pause there). */
    private volatile Runnable afterCheckpointPart = () -> {};

    private boolean journalDirty;
    private final AtomicLong checkpoints = new AtomicLong();
    /** Where the first record appended since the writer last confirmed everything starts; -1 if none. */
    private long mark = -1;
    /** Records appended by the current {@link #apply} call. */
    private int appendsInCall;

    /** With checkpoint transactions of the default size for this heap. */
    public JournaledH2Target(H2BatchApplier h2, JournalSegments segments, long checkpointBytes)
            throws IOException, SQLException {
        this(h2, segments, checkpointBytes, StorageSettings.defaults().checkpointTransactionBytes());
    }

    /**
     * Replays every segment not yet checkpointed onto H2, oldest first, each as a checkpoint of its
     * own, and starts a new epoch in the newest file.
     *
     * @param checkpointBytes  the journal's budget: the bytes of records, and the estimated heap of
     *                         pending net effect, its two segments may hold together; a segment is
     *                         closed, and its net effect moved into H2, at half of it
     * @param transactionBytes payload bytes one H2 transaction of a checkpoint (or of the replay) inserts
     *                         or deletes; a larger payload goes alone
     */
    public JournaledH2Target(H2BatchApplier h2, JournalSegments segments, long checkpointBytes, long transactionBytes)
            throws IOException, SQLException {
        this(h2, segments, checkpointBytes, transactionBytes, Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "partita-store-checkpoint");
            t.setDaemon(true);
            return t;
        }));
    }

    /** @param checkpointThread runs one closed segment's checkpoint after the other */
    public JournaledH2Target(
            H2BatchApplier h2,
            JournalSegments segments,
            long checkpointBytes,
            long transactionBytes,
            Executor checkpointThread)
            throws IOException, SQLException {
        this.checkpointThread = checkpointThread;
        this.h2 = h2;
        this.segments = segments;
        this.segmentBytes = Math.max(1, checkpointBytes / 2);
        this.parts = new CheckpointParts(transactionBytes);
        JournalFile newest = segments.newest();
        boolean stoppedCleanly = newest.closedCleanly(); // read before the replay marks it checkpointed
        int replayed = 0;
        for (JournalFile segment : segments.toReplay()) {
            PendingChanges changes = new PendingChanges();
            JournalCodec decoder = new JournalCodec();
            int[] records = new int[1];
            segment.replay(body -> {
                decoder.decode(body).forEach(changes::add);
                records[0]++;
            });
            if (records[0] > 0) {
                LOG.info(
                        "replaying {} journal records ({} bytes) of {} into H2",
                        records[0],
                        segment.used(),
                        segment.path().getFileName());
                replayed += records[0];
            }
            moveToH2(changes);
            segment.markCheckpointed(); // before a newer segment's changes reach H2: this one must never replay again
        }
        this.previousStopWasClean = stoppedCleanly && replayed == 0;
        this.lastEpoch = segments.lastEpoch();
        this.journal = newest;
        journal.prepare(JournalFile.ALLOCATION_STEP); // at start, where no send waits for it
        journal.startEpoch(++lastEpoch);
        this.allocator = new JournalAllocator(segmentBytes);
        allocator.keepAhead(journal);
        allocator.readyNext(segments.after(journal));
    }

    /**
     * True if the node stopped cleanly last time: the final checkpoint ran and nothing can be left
     * half done (such as a payload whose last entry was deleted but not the payload itself).
     */
    public boolean previousStopWasClean() {
        return previousStopWasClean;
    }

    @Override
    public void apply(List<StoreBatch> batches) throws Exception {
        appendsInCall = 0;
        for (StoreBatch b : batches) {
            check(b);
        }
        if (closed != null && (closed.running() == null || closed.running().isDone())) {
            awaitClosed(); // a checkpoint that failed in the background fails this group: the fault shows at once
        }
        // Only confirmed groups may reach H2: a group whose sync then fails must leave no trace there.
        if (rotationDue() || mark < 0 && wouldOverfill(batches)) {
            rotate();
        }
        int start = 0;
        for (int i = 0; i < batches.size(); i++) {
            if (touchesQueues(batches.get(i))) {
                int end = i + 1;
                while (end < batches.size() && touchesQueues(batches.get(end))) {
                    end++;
                }
                // queue definitions that come together go to H2 together: one checkpoint, one H2 sync
                append(batches.subList(start, i));
                checkpoint();
                h2.apply(batches.subList(i, end));
                h2Dirty = true;
                start = end;
                i = end - 1;
            }
        }
        append(batches.subList(start, batches.size()));
    }

    /**
     * A queue definition goes to H2 after a checkpoint: in a group apart (with other definitions only),
     * so only confirmed records move.
     */
    @Override
    public boolean standsAlone(StoreBatch batch) {
        return touchesQueues(batch);
    }

    /**
     * Not when a segment is due to close, or would be by these batches, or a checkpoint that ended must
     * be looked at (or run again).
     */
    @Override
    public boolean appendsAtOnce(List<StoreBatch> batches) {
        long incoming = 0;
        for (StoreBatch b : batches) {
            if (touchesQueues(b)) {
                return false;
            }
            incoming += b.payloadCost();
        }
        return incoming <= segmentBytes
                && !rotationDue()
                && !wouldOverfill(incoming)
                && (closed == null
                        || closed.running() != null && !closed.running().isDone());
    }

    /** A group is as large as a segment at most ({@link #groupBytes}): the writer commits more as several groups. */
    @Override
    public long groupBytes() {
        return segmentBytes;
    }

    /**
     * The group's payloads would take the current segment's pending changes past their share of the
     * heap: it goes to the next segment (unless it is the segment's first), so a segment holds its
     * share or one group.
     */
    private boolean wouldOverfill(List<StoreBatch> batches) {
        long incoming = 0;
        for (StoreBatch b : batches) {
            incoming += b.payloadCost();
        }
        return wouldOverfill(incoming);
    }

    private boolean wouldOverfill(long incoming) {
        return incoming > 0 && !pending.isEmpty() && pending.heapEstimate() + incoming > segmentBytes;
    }

    /** The segment is full (or its changes fill their share of the heap) and nothing appended waits for its sync. */
    private boolean rotationDue() {
        return mark < 0 && (journal.used() >= segmentBytes || pending.heapEstimate() >= segmentBytes);
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

    /** Waits for a checkpoint in progress (its outcome no longer matters: the reopen replays), then lets go. */
    @Override
    public void release() {
        if (closed != null && closed.running() != null) {
            try {
                closed.running().get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException e) {
                LOG.debug("checkpoint left behind by a fault: {}", e.getCause().toString());
            }
        }
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
     * The writer is idle and everything appended is confirmed: the net effect goes into H2 now (in
     * the background), so a drained backlog's space is freed and given back without waiting for
     * the segment to fill.
     */
    @Override
    public void idle() throws IOException, SQLException {
        if (closed != null && (closed.running() == null || closed.running().isDone())) {
            awaitClosed();
        }
        if (mark < 0 && closed == null && !pending.isEmpty()) {
            rotate();
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
            checkpoint();
            h2.removeOrphanPayloads();
            h2.sync(); // before the header says clean: the next start will not look for orphans again
            journal.rewindAtCleanStop(++lastEpoch);
        } catch (IOException | SQLException | RuntimeException e) {
            LOG.warn("final checkpoint failed; the journal will be replayed at the next start: {}", e.toString());
        } finally {
            closeFile();
        }
    }

    /** Releases the files without a checkpoint, when the store could not finish opening. */
    public void closeFile() {
        if (checkpointThread instanceof ExecutorService own) {
            own.shutdownNow();
        }
        allocator.close();
        try {
            segments.close();
        } catch (IOException e) {
            LOG.debug("journal close: {}", e.toString());
        }
    }

    public long appendedBytes() {
        return appendedBytes;
    }

    /** Where checkpoints are counted (the store's counters). */
    public void counters(StoreCounters f) {
        counters = f;
    }

    /** Compacts H2's file online at checkpoints when it is mostly free. */
    public void space(H2Space s) {
        space = s;
    }

    /** Tests: runs after each part of a checkpoint is committed into H2 and its payloads released. */
    void afterCheckpointPart(Runnable hook) {
        afterCheckpointPart = hook;
    }

    public long checkpoints() {
        return checkpoints.get();
    }

    /**
     * The payload of a message not yet moved to H2, or null; any thread. The current segment's
     * changes are read before the closed one's, and the closed one's are dropped only after H2
     * committed them, so a reader that misses both finds the payload in H2.
     */
    public byte[] pendingPayload(long messageId) {
        byte[] payload = pending.payload(messageId);
        if (payload == null) {
            PendingChanges closing = closingChanges;
            payload = closing == null ? null : closing.payload(messageId);
        }
        return payload;
    }

    /** Everything appended so far is in H2 when this returns, and the writer may use H2's connection. */
    private void checkpoint() throws IOException, SQLException {
        awaitClosed();
        if (journal.used() > 0 || !pending.isEmpty()) {
            rotate();
            awaitClosed();
        }
    }

    /**
     * Closes the current segment and starts the next, whose file the previous checkpoint must have
     * freed: appends go on there at once while the closed segment's net effect moves into H2 on the
     * checkpoint thread. A failure before the new epoch's header is on the disk leaves the appends
     * in the current segment.
     */
    private void rotate() throws IOException, SQLException {
        awaitClosed();
        if (journalDirty) {
            journal.force(); // a later segment's forced records must never survive this one's unforced tail
            journalDirty = false;
        }
        JournalFile next = segments.after(journal);
        counters.writerAllocated(next.startEpoch(++lastEpoch));
        codec.reset();
        JournalFile old = journal;
        PendingChanges changes = pending;
        closingChanges = changes; // before the new pending set: a reader that misses there finds it here
        pending = new PendingChanges();
        journal = next;
        allocator.keepAhead(next);
        allocator.readyNext(old); // already a segment long, unless this rotation came early (idle writer)
        CompletableFuture<Void> running = new CompletableFuture<>();
        closed = new Closed(old, changes, running);
        checkpointThread.execute(() -> {
            try {
                checkpointSegment(old, changes);
                running.complete(null);
            } catch (Throwable t) {
                running.completeExceptionally(t);
            }
        });
    }

    /**
     * Waits for the closed segment's checkpoint. One that failed is run again here on the next call
     * (so a failure is reported once, then retried before anything depends on it).
     */
    private void awaitClosed() throws IOException, SQLException {
        Closed c = closed;
        if (c == null) {
            return;
        }
        if (c.running() == null) {
            checkpointSegment(c.segment(), c.changes());
        } else {
            long started = System.nanoTime();
            try {
                c.running().get();
                counters.waitedForCheckpoint(System.nanoTime() - started);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for a checkpoint");
            } catch (ExecutionException e) {
                closed = new Closed(c.segment(), c.changes(), null);
                Throwable cause = e.getCause();
                if (cause instanceof IOException io) {
                    throw io;
                }
                if (cause instanceof SQLException sql) {
                    throw sql;
                }
                if (cause instanceof RuntimeException re) {
                    throw re;
                }
                if (cause instanceof Error err) {
                    throw err;
                }
                throw new StoreException("checkpoint failed: " + cause, cause);
            }
        }
        closed = null;
    }

    /** Moves a closed segment's net effect into H2, forced, then marks the segment checkpointed. */
    private void checkpointSegment(JournalFile segment, PendingChanges changes) throws IOException, SQLException {
        moveToH2(changes);
        closingChanges = null; // H2 has committed every payload of it
        segment.markCheckpointed();
    }

    /**
     * Writes a segment's net effect into H2, in {@link CheckpointParts}, and forces it there: from now
     * on the segment's records are redundant. A failure leaves the segment unmarked, so the same net
     * effect is applied again (harmless) by the next try or by the replay after a crash. The replay at
     * start comes here too, so a folder opens in the heap that wrote it.
     */
    private void moveToH2(PendingChanges changes) throws SQLException {
        if (changes.isEmpty()) {
            return;
        }
        StoreCounters f = counters;
        f.checkpointBegan();
        try {
            long started = System.nanoTime();
            List<StoreOp> ops = changes.toBatch().ops();
            f.checkpointPendingBytes(changes.payloadBytes());
            int from = 0;
            while (from < ops.size()) {
                int to = parts.end(ops, from);
                StoreBatch part = new StoreBatch();
                ops.subList(from, to).forEach(part::add);
                h2.apply(List.of(part));
                if (to < ops.size()) {
                    h2.writeChunk(); // the last part's pages go out with the sync below
                }
                release(ops, from, to, changes);
                f.checkpointPendingBytes(changes.payloadBytes());
                afterCheckpointPart.run();
                from = to;
            }
            h2.sync();
            checkpoints.incrementAndGet();
            f.checkpointed(System.nanoTime() - started);
            H2Space s = space;
            if (s != null && s.compactIfMostlyFree()) {
                f.compacted();
            }
        } finally {
            f.checkpointPendingBytes(0);
            f.checkpointEnded();
        }
    }

    /**
     * Lets go of a part H2 has committed, so the garbage collector can free its payloads while the
     * rest of the checkpoint runs instead of copying them from one young collection to the next.
     * Only after the commit: a payload reader that no longer finds a message in the closed
     * segment's changes reads it from H2, where it is committed and visible to the reader's own
     * connection. A message created in the closed segment and deleted in the current one is
     * committed in H2 like any other and deleted there by the current segment's checkpoint.
     * Recovery does not change: the segment is marked checkpointed only once every part is
     * committed and forced, and a retry after a failure applies what the changes still hold (the
     * released payloads are committed in H2).
     */
    private static void release(List<StoreOp> ops, int from, int to, PendingChanges changes) {
        for (int i = from; i < to; i++) {
            if (ops.set(i, null) instanceof StoreOp.InsertMessage m) {
                changes.committed(m.messageId());
            }
        }
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
            counters.writerAllocated(journal.append(record));
            allocator.keepAhead(journal);
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
            String queue = op instanceof StoreOp.InsertEntry e
                    ? e.queue()
                    : op instanceof StoreOp.DeleteEntry e
                            ? e.queue()
                            : op instanceof StoreOp.UpdateDeliveryCount u ? u.queue() : null;
            if (queue != null && queue.length() > MAX_QUEUE_NAME) {
                throw new StoreException("queue name longer than " + MAX_QUEUE_NAME + " characters", null);
            }
        }
    }
}
