package org.partita.broker.store.replica;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.SnapshotInfo;
import org.apache.ratis.statemachine.SnapshotRetentionPolicy;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.FileListSnapshotInfo;
import org.partita.broker.store.MessageStore;
import org.partita.broker.store.StoreBatch;
import org.partita.broker.store.StoreOp;
import org.partita.broker.store.journal.BatchRecord;
import org.partita.protocol.MessageCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a replica does with its set's log: each committed entry is one {@link StoreBatch}, written
 * into the replica's own store in log order, on every replica alike, so every replica's store holds
 * the same messages once it has applied the same entries.
 *
 * <p>The store is the snapshot: {@link AppliedMark} says up to which entry it holds the log durably,
 * and a restart replays the log from the entry after it. Entries between the mark and what the store
 * really holds are applied twice then, which is harmless: each operation sets a row to a value or
 * removes it (the store merges inserts), so applying a run of entries again in order leaves the same
 * rows.
 */
final class ReplicaStateMachine extends BaseStateMachine {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaStateMachine.class);

    private final String setName;
    private final MessageStore store;
    private final AppliedMark mark;
    private final Leadership leadership;
    private final RecentSends recent;
    private volatile SnapshotInfo durable;
    /** The last entry's write into the store: entries are written in order, each after the one before. */
    private volatile CompletableFuture<Void> lastWrite = CompletableFuture.completedFuture(null);

    /** Where leadership changes of the set go (the set's {@link ReplicatedStore}). */
    interface Leadership {
        void ready();

        void lost(String leader);
    }

    ReplicaStateMachine(
            String setName, MessageStore store, AppliedMark mark, Leadership leadership, RecentSends recent) {
        this.setName = setName;
        this.store = store;
        this.mark = mark;
        this.leadership = leadership;
        this.recent = recent;
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId group, RaftStorage storage) throws IOException {
        super.initialize(server, group, storage);
        reinitialize();
    }

    @Override
    public void reinitialize() throws IOException {
        TermIndex held = mark.read();
        if (held != null) {
            durable = new FileListSnapshotInfo(List.of(), held);
            setLastAppliedTermIndex(held);
        }
    }

    @Override
    public StateMachineStorage getStateMachineStorage() {
        return new StateMachineStorage() {
            @Override
            public void init(RaftStorage raftStorage) {}

            @Override
            public SnapshotInfo getLatestSnapshot() {
                return durable;
            }

            @Override
            public void format() {}

            @Override
            public void cleanupOldSnapshots(SnapshotRetentionPolicy policy) {}
        };
    }

    @Override
    public SnapshotInfo getLatestSnapshot() {
        return durable;
    }

    /**
     * Marks what the store holds: every entry up to the last applied one, once its write completed
     * and the store forced it to disk. Ratis may then drop the log up to it.
     */
    @Override
    public long takeSnapshot() throws IOException {
        TermIndex applied = getLastAppliedTermIndex();
        if (applied == null) {
            return -1;
        }
        try {
            lastWrite.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the store of replica set " + setName + " was written", e);
        } catch (ExecutionException e) {
            throw new IOException("the store of replica set " + setName + " failed a write", e.getCause());
        }
        try {
            store.forceWritten(); // the entries were applied relaxed: on the disk before the mark names them
        } catch (RuntimeException e) {
            throw new IOException("the store of replica set " + setName + " could not be forced to disk", e);
        }
        mark.write(applied);
        durable = new FileListSnapshotInfo(List.of(), applied);
        return applied.getIndex();
    }

    /**
     * A read asks nothing of the store: it is how the leader has a majority confirm that it still
     * leads ({@link ReplicatedStore#confirmLeading}), the reads being linearizable.
     */
    @Override
    public CompletableFuture<Message> query(Message request) {
        return CompletableFuture.completedFuture(Message.EMPTY);
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
        LogEntryProto entry = trx.getLogEntry();
        TermIndex at = TermIndex.valueOf(entry);
        List<StoreOp> ops =
                BatchRecord.decode(entry.getStateMachineLogEntry().getLogData().asReadOnlyByteBuffer());
        // relaxed: the entry is already durable in the Raft log of a majority, so the store need not
        // force it before the write counts; a power failure loses at most the store's tail after the
        // mark, and a restart applies those entries again from the log
        StoreBatch batch = StoreBatch.relaxed();
        long now = System.nanoTime();
        for (StoreOp op : ops) {
            batch.add(op);
            if (op instanceof StoreOp.InsertMessage m) {
                String id = MessageCodec.peekMessageId(m.payload());
                if (id != null) {
                    recent.add(id, now);
                }
            }
        }
        CompletableFuture<Void> written = store.write(batch);
        lastWrite = written;
        // the applied index moves on here, in log order, not when the write completes: Ratis reads it
        // synchronously for its own entries, and waits for every apply future before a snapshot
        updateLastAppliedTermIndex(at);
        return written.handle((ok, failure) -> {
            if (failure != null) {
                // the replica's store could not take what the set agreed: it must not serve the set
                // with a gap, so the failure is the apply's and Ratis stops this replica's group
                LOG.error("replica set {}: entry {} could not be written to this node's store", setName, at, failure);
                throw new java.util.concurrent.CompletionException(failure);
            }
            return Message.EMPTY;
        });
    }

    /** Every entry before this term's first one is applied: the store may serve the set now. */
    @Override
    public void notifyLeaderReady() {
        lastWrite.whenComplete((ok, failure) -> {
            if (failure == null) {
                leadership.ready();
            }
        });
    }

    @Override
    public void notifyNotLeader(Collection<TransactionContext> pendingEntries) {
        leadership.lost(null);
    }

    @Override
    public void notifyLeaderChanged(RaftGroupMemberId member, RaftPeerId newLeader) {
        if (newLeader == null || !newLeader.equals(member.getPeerId())) {
            leadership.lost(newLeader == null ? null : newLeader.toString());
        }
    }
}
