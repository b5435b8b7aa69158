package org.partita.broker.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * Applies a group of batches in one H2 transaction with JDBC statement batching, then commits and
 * forces the commit to disk. Runs only on the writer thread.
 */
final class H2BatchApplier implements CommitTarget {
    private final Connection c;
    private final Runnable sync;
    private final PreparedStatement insertMessage;
    private final PreparedStatement deleteMessage;
    private final PreparedStatement insertEntry;
    private final PreparedStatement deleteEntry;
    private final PreparedStatement updateCount;
    private final PreparedStatement mergeQueue;
    private final PreparedStatement deleteQueue;
    private final PreparedStatement deleteQueueEntries;

    H2BatchApplier(Connection c, Runnable sync) {
        this.c = c;
        this.sync = sync;
        try {
            // insert-or-replace, so a checkpoint interrupted by a crash can be applied again
            insertMessage = c.prepareStatement("MERGE INTO MESSAGES(ID, PAYLOAD) KEY(ID) VALUES(?, ?)");
            deleteMessage = c.prepareStatement("DELETE FROM MESSAGES WHERE ID = ?");
            insertEntry = c.prepareStatement("MERGE INTO ENTRIES(QUEUE, MESSAGE_ID, DELIVERY_COUNT) KEY(QUEUE, MESSAGE_ID) VALUES(?, ?, ?)");
            deleteEntry = c.prepareStatement("DELETE FROM ENTRIES WHERE QUEUE = ? AND MESSAGE_ID = ?");
            updateCount = c.prepareStatement("UPDATE ENTRIES SET DELIVERY_COUNT = ? WHERE QUEUE = ? AND MESSAGE_ID = ?");
            mergeQueue = c.prepareStatement("MERGE INTO QUEUES(NAME, KIND, OPTIONS) KEY(NAME) VALUES(?, ?, ?)");
            deleteQueue = c.prepareStatement("DELETE FROM QUEUES WHERE NAME = ?");
            deleteQueueEntries = c.prepareStatement("DELETE FROM ENTRIES WHERE QUEUE = ?");
        } catch (SQLException e) {
            throw new StoreException("cannot prepare store statements", e);
        }
    }

    /**
     * Deletes payload rows no entry refers to: left by a crash between a transaction's commit and
     * its cleanup, or held only by queues that keep no entries (non-durable subscriptions), which
     * do not outlive the node. A full scan of the payloads.
     */
    void removeOrphanPayloads() throws SQLException {
        try (java.sql.Statement s = c.createStatement()) {
            s.executeUpdate("DELETE FROM MESSAGES M WHERE NOT EXISTS (SELECT 1 FROM ENTRIES E WHERE E.MESSAGE_ID = M.ID)");
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

    /** Forces the committed group to disk; a failure here is not a batch's fault and is not retried. */
    @Override
    public void sync() {
        sync.run();
    }

    // Order matters: payload rows before the entries that reference them, deletes of entries before
    // the payloads they free.
    private void flushMessageOps() throws SQLException {
        insertMessage.executeBatch();
        insertEntry.executeBatch();
        updateCount.executeBatch();
        deleteEntry.executeBatch();
        deleteMessage.executeBatch();
    }

    private void add(StoreOp op) throws SQLException {
        if (op instanceof StoreOp.InsertMessage m) {
            insertMessage.setLong(1, m.messageId());
            insertMessage.setBytes(2, m.payload());
            insertMessage.addBatch();
        } else if (op instanceof StoreOp.DeleteMessage m) {
            deleteMessage.setLong(1, m.messageId());
            deleteMessage.addBatch();
        } else if (op instanceof StoreOp.InsertEntry e) {
            insertEntry.setString(1, e.queue());
            insertEntry.setLong(2, e.messageId());
            insertEntry.setInt(3, e.deliveryCount());
            insertEntry.addBatch();
        } else if (op instanceof StoreOp.DeleteEntry e) {
            deleteEntry.setString(1, e.queue());
            deleteEntry.setLong(2, e.messageId());
            deleteEntry.addBatch();
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
        }
    }

    private void clearBatches() throws SQLException {
        for (PreparedStatement ps : List.of(insertMessage, deleteMessage, insertEntry, deleteEntry, updateCount,
                mergeQueue, deleteQueue, deleteQueueEntries)) {
            ps.clearBatch();
        }
    }
}
