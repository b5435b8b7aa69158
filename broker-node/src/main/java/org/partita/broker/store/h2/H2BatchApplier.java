package org.partita.broker.store.h2;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.partita.broker.store.MessageHeads;
import org.partita.broker.store.StoreBatch;
import org.partita.broker.store.StoreException;
import org.partita.broker.store.StoreOp;
import org.partita.broker.store.commit.CommitTarget;
import org.partita.broker.store.journal.JournaledH2Target;

/**
 * Applies a group of batches in one H2 transaction with JDBC statement batching, then commits and
 * forces the commit to disk. Runs on one thread at a time: the writer, or the journal's checkpoint
 * thread while the writer leaves H2 alone ({@link JournaledH2Target}).
 */
public final class H2BatchApplier implements CommitTarget {
    private final Connection c;
    private final Runnable sync;
    private final Runnable writeChunk;
    private final PreparedStatement insertMessage;
    private final PreparedStatement insertHead;
    private final PreparedStatement deleteMessage;
    private final PreparedStatement deleteHead;
    private final PreparedStatement deleteMessageRange;
    private final PreparedStatement deleteHeadRange;
    private final PreparedStatement deleteEntryRange;
    /** Deletions are collected and issued as ranges where ids run on (see {@link DeletionRuns}). */
    private final DeletionRuns deletedEntries = new DeletionRuns();

    private final DeletionRuns deletedMessages = new DeletionRuns();
    private final MessageHeads heads;
    private final PreparedStatement insertEntry;
    private final PreparedStatement deleteEntry;
    private final PreparedStatement updateCount;
    private final PreparedStatement mergeQueue;
    private final PreparedStatement deleteQueue;
    private final PreparedStatement deleteQueueEntries;
    private final PreparedStatement mergeBranch;
    private final PreparedStatement deleteBranch;

    public H2BatchApplier(Connection c, Runnable sync) {
        this(c, sync, () -> {}, MessageHeads.NONE);
    }

    /**
     * @param sync       forces what H2 committed to the disk
     * @param writeChunk writes what H2 changed since its last chunk as a chunk now, without forcing it
     */
    public H2BatchApplier(Connection c, Runnable sync, Runnable writeChunk, MessageHeads heads) {
        this.c = c;
        this.sync = sync;
        this.writeChunk = writeChunk;
        this.heads = heads;
        try {
            // insert-or-replace, so a checkpoint interrupted by a crash can be applied again
            insertMessage = c.prepareStatement("MERGE INTO MESSAGES(ID, PAYLOAD) KEY(ID) VALUES(?, ?)");
            deleteMessage = c.prepareStatement("DELETE FROM MESSAGES WHERE ID = ?");
            insertHead = c.prepareStatement("MERGE INTO MESSAGE_HEADS(ID, HEAD) KEY(ID) VALUES(?, ?)");
            deleteHead = c.prepareStatement("DELETE FROM MESSAGE_HEADS WHERE ID = ?");
            deleteMessageRange = c.prepareStatement("DELETE FROM MESSAGES WHERE ID BETWEEN ? AND ?");
            deleteHeadRange = c.prepareStatement("DELETE FROM MESSAGE_HEADS WHERE ID BETWEEN ? AND ?");
            deleteEntryRange = c.prepareStatement("DELETE FROM ENTRIES WHERE QUEUE = ? AND MESSAGE_ID BETWEEN ? AND ?");
            insertEntry = c.prepareStatement(
                    "MERGE INTO ENTRIES(QUEUE, MESSAGE_ID, DELIVERY_COUNT) KEY(QUEUE, MESSAGE_ID) VALUES(?, ?, ?)");
            deleteEntry = c.prepareStatement("DELETE FROM ENTRIES WHERE QUEUE = ? AND MESSAGE_ID = ?");
            updateCount =
                    c.prepareStatement("UPDATE ENTRIES SET DELIVERY_COUNT = ? WHERE QUEUE = ? AND MESSAGE_ID = ?");
            mergeQueue = c.prepareStatement("MERGE INTO QUEUES(NAME, KIND, OPTIONS) KEY(NAME) VALUES(?, ?, ?)");
            deleteQueue = c.prepareStatement("DELETE FROM QUEUES WHERE NAME = ?");
            deleteQueueEntries = c.prepareStatement("DELETE FROM ENTRIES WHERE QUEUE = ?");
            mergeBranch = c.prepareStatement("MERGE INTO XA_BRANCHES(XID, STATE, DATA) KEY(XID) VALUES(?, ?, ?)");
            deleteBranch = c.prepareStatement("DELETE FROM XA_BRANCHES WHERE XID = ?");
        } catch (SQLException e) {
            throw new StoreException("cannot prepare store statements", e);
        }
    }

    /**
     * Deletes payload rows no entry refers to: left by a crash between a transaction's commit and
     * its cleanup, or held only by queues that keep no entries (non-durable subscriptions), which
     * do not outlive the node. A full scan of the payloads.
     */
    private static final int ORPHAN_SCAN_CHUNK = 10_000;
    /**
     * H2's page cache during the scan, in KiB. With the default (16 MiB) each payload page read
     * stayed cached long enough to survive young collections, so the scan promoted the whole table,
     * a page at a time, into the old generation: at a clean stop, beside a node holding a million
     * queued messages, that filled a 512 MiB heap and ended in full collections.
     */
    private static final int ORPHAN_SCAN_CACHE_KIB = 1024;

    public void removeOrphanPayloads() throws SQLException {
        long cacheKib = cacheKib();
        setCacheKib(ORPHAN_SCAN_CACHE_KIB);
        try {
            removeInChunks(
                    "MESSAGES",
                    "DELETE FROM MESSAGES M WHERE M.ID BETWEEN ? AND ?"
                            + " AND NOT EXISTS (SELECT 1 FROM ENTRIES E WHERE E.MESSAGE_ID = M.ID)");
            removeInChunks(
                    "MESSAGE_HEADS",
                    "DELETE FROM MESSAGE_HEADS H WHERE H.ID BETWEEN ? AND ?"
                            + " AND NOT EXISTS (SELECT 1 FROM MESSAGES M WHERE M.ID = H.ID)");
        } finally {
            setCacheKib(cacheKib);
        }
    }

    /** Runs {@code work} with H2's page cache bounded to {@code kib} (then set back). */
    public void withCacheKib(long kib, CacheWork work) throws SQLException, java.io.IOException {
        long before = cacheKib();
        setCacheKib(kib);
        try {
            work.run();
        } finally {
            setCacheKib(before);
        }
    }

    @FunctionalInterface
    public interface CacheWork {
        void run() throws SQLException, java.io.IOException;
    }

    /** The page cache's bound (H2 reports it in MiB). */
    private long cacheKib() throws SQLException {
        try (Statement s = c.createStatement();
                java.sql.ResultSet rs = s.executeQuery("SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS"
                        + " WHERE SETTING_NAME = 'info.CACHE_MAX_SIZE'")) {
            return rs.next() ? Long.parseLong(rs.getString(1)) * 1024 : 16 * 1024;
        }
    }

    /** Commits the open transaction, as H2's SET commands do; the scan commits each chunk anyway. */
    private void setCacheKib(long kib) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SET CACHE_SIZE " + kib);
        }
    }

    /**
     * One bounded transaction per {@link #ORPHAN_SCAN_CHUNK} ids: a single statement over a million
     * stored messages made a clean stop take a 512 MiB heap to its limit.
     */
    private void removeInChunks(String table, String delete) throws SQLException {
        try (PreparedStatement nextChunk = c.prepareStatement("SELECT MAX(ID) FROM (SELECT ID FROM " + table
                        + " WHERE ID >= ? ORDER BY ID LIMIT " + ORPHAN_SCAN_CHUNK + ")");
                PreparedStatement deleteChunk = c.prepareStatement(delete)) {
            long from = Long.MIN_VALUE;
            while (true) {
                nextChunk.setLong(1, from);
                long to;
                try (java.sql.ResultSet rs = nextChunk.executeQuery()) {
                    rs.next();
                    to = rs.getLong(1);
                    if (rs.wasNull()) {
                        break;
                    }
                }
                deleteChunk.setLong(1, from);
                deleteChunk.setLong(2, to);
                deleteChunk.executeUpdate();
                c.commit();
                if (to == Long.MAX_VALUE) {
                    break;
                }
                from = to + 1;
            }
        }
        c.commit();
    }

    /**
     * Applies and commits; on failure rolls back and rethrows so the caller can isolate the culprit.
     * Message and entry operations are batched per statement; a queue definition change is a
     * barrier, so "delete queue, recreate it, send to it" in one group keeps its submission order.
     */
    @Override
    public void apply(List<StoreBatch> batches) throws SQLException {
        try {
            for (StoreBatch b : batches) {
                for (StoreOp op : b.ops()) {
                    if (op instanceof StoreOp.SaveQueue || op instanceof StoreOp.DeleteQueue) {
                        flushMessageOps();
                        add(op);
                        deleteQueueEntries.executeBatch();
                        deleteQueue.executeBatch();
                        mergeQueue.executeBatch();
                    } else {
                        add(op);
                    }
                }
            }
            flushMessageOps();
            c.commit();
        } catch (SQLException e) {
            clearBatches();
            c.rollback();
            throw e;
        }
    }

    /**
     * Writes the pages changed since H2's last chunk as a chunk of their own, not forced: between the
     * parts of a checkpoint, so that H2 never writes the pages of two large parts in one chunk.
     */
    public void writeChunk() {
        writeChunk.run();
    }

    /** Forces the committed group to disk; a failure here is not a batch's fault and is not retried. */
    @Override
    public void sync() {
        sync.run();
    }

    // Order matters: payload rows before the entries that reference them, deletes of entries before
    // the payloads they free.
    private void flushMessageOps() throws SQLException {
        insertMessage.executeBatch();
        insertMessage.clearParameters(); // else the statement keeps the last payload until the next checkpoint
        insertHead.executeBatch();
        insertEntry.executeBatch();
        updateCount.executeBatch();
        deletedEntries.forEachRun((queue, from, to) -> {
            if (from == to) {
                deleteEntry.setString(1, queue);
                deleteEntry.setLong(2, from);
                deleteEntry.addBatch();
            } else {
                deleteEntryRange.setString(1, queue);
                deleteEntryRange.setLong(2, from);
                deleteEntryRange.setLong(3, to);
                deleteEntryRange.addBatch();
            }
        });
        deletedEntries.clear();
        deleteEntry.executeBatch();
        deleteEntryRange.executeBatch();
        deletedMessages.forEachRun((unused, from, to) -> {
            deleteById(deleteHead, deleteHeadRange, from, to);
            deleteById(deleteMessage, deleteMessageRange, from, to);
        });
        deletedMessages.clear();
        deleteHead.executeBatch();
        deleteHeadRange.executeBatch();
        deleteMessage.executeBatch();
        deleteMessageRange.executeBatch();
        mergeBranch.executeBatch();
        mergeBranch.clearParameters();
        deleteBranch.executeBatch();
    }

    private static void deleteById(PreparedStatement one, PreparedStatement range, long from, long to)
            throws SQLException {
        if (from == to) {
            one.setLong(1, from);
            one.addBatch();
        } else {
            range.setLong(1, from);
            range.setLong(2, to);
            range.addBatch();
        }
    }

    private void add(StoreOp op) throws SQLException {
        if (op instanceof StoreOp.InsertMessage m) {
            insertMessage.setLong(1, m.messageId());
            insertMessage.setBytes(2, m.payload());
            insertMessage.addBatch();
            byte[] head = heads.of(m.payload());
            if (head != null) {
                insertHead.setLong(1, m.messageId());
                insertHead.setBytes(2, head);
                insertHead.addBatch();
            }
        } else if (op instanceof StoreOp.DeleteMessage m) {
            deletedMessages.add("", m.messageId());
        } else if (op instanceof StoreOp.InsertEntry e) {
            insertEntry.setString(1, e.queue());
            insertEntry.setLong(2, e.messageId());
            insertEntry.setInt(3, e.deliveryCount());
            insertEntry.addBatch();
        } else if (op instanceof StoreOp.DeleteEntry e) {
            deletedEntries.add(e.queue(), e.messageId());
        } else if (op instanceof StoreOp.UpdateDeliveryCount u) {
            updateCount.setInt(1, u.deliveryCount());
            updateCount.setString(2, u.queue());
            updateCount.setLong(3, u.messageId());
            updateCount.addBatch();
        } else if (op instanceof StoreOp.SaveQueue q) {
            mergeQueue.setString(1, q.queue());
            mergeQueue.setString(2, q.kind());
            mergeQueue.setString(3, q.options());
            mergeQueue.addBatch();
        } else if (op instanceof StoreOp.DeleteQueue q) {
            deleteQueueEntries.setString(1, q.queue());
            deleteQueueEntries.addBatch();
            deleteQueue.setString(1, q.queue());
            deleteQueue.addBatch();
        } else if (op instanceof StoreOp.SaveBranch b) {
            mergeBranch.setBytes(1, b.xid());
            mergeBranch.setInt(2, b.state());
            mergeBranch.setBytes(3, b.data());
            mergeBranch.addBatch();
        } else if (op instanceof StoreOp.DeleteBranch b) {
            deleteBranch.setBytes(1, b.xid());
            deleteBranch.addBatch();
        }
    }

    private void clearBatches() throws SQLException {
        deletedEntries.clear();
        deletedMessages.clear();
        for (PreparedStatement ps : List.of(
                insertMessage,
                insertHead,
                deleteMessage,
                deleteHead,
                insertEntry,
                deleteEntry,
                updateCount,
                mergeQueue,
                deleteQueue,
                deleteQueueEntries,
                deleteMessageRange,
                deleteHeadRange,
                deleteEntryRange,
                mergeBranch,
                deleteBranch)) {
            ps.clearBatch();
        }
    }
}
