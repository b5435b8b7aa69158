package org.partita.broker.store.replica;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.ratis.proto.RaftProtos;
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
import org.apache.ratis.util.LifeCycle;
import org.partita.broker.store.MessageStore;
import org.partita.broker.store.StoreBatch;
import org.partita.broker.store.StoreOp;
import org.partita.broker.store.journal.BatchRecord;
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
 *
 * <p>Ratis drops the log before a mark (all but the last entries the retention keeps). A follower
 * that needs entries no longer in the leader's log is sent a copy of the leader's store instead
 * ({@link StoreCopy}, made when first asked for: {@link StoreSnapshot}); Ratis ships the file into
 * the follower's state machine folder, and {@link #reinitialize} replaces the follower's store by it.
 */
final class ReplicaStateMachine extends BaseStateMachine {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaStateMachine.class);

    private final String setName;
    private final MessageStore store;
    private final AppliedMark mark;
    private final Leadership leadership;
    private final RecentSends recent;
    private final ApplyBacklog backlog;
    private volatile SnapshotInfo durable;
    /** Ratis's state machine folder of the set on this node: where copies of the store are made and arrive. */
    private volatile Path copies;
    /** The last entry's write into the store: entries are written in order, each after the one before. */
    private volatile CompletableFuture<Void> lastWrite = CompletableFuture.completedFuture(null);

    /** Where leadership changes of the set go (the set's {@link ReplicatedStore}). */
    interface Leadership {
        void ready();

        void lost(String leader);
    }

    ReplicaStateMachine(
            String setName,
            MessageStore store,
            AppliedMark mark,
            Leadership leadership,
            RecentSends recent,
            ApplyBacklog backlog) {
        this.setName = setName;
        this.store = store;
        this.mark = mark;
        this.leadership = leadership;
        this.recent = recent;
        this.backlog = backlog;
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId group, RaftStorage storage) throws IOException {
        super.initialize(server, group, storage);
        copies = storage.getStorageDir().getStateMachineDir().toPath();
        getLifeCycle().transition(LifeCycle.State.STARTING);
        reinitialize();
        getLifeCycle().transition(LifeCycle.State.RUNNING);
    }

    /**
     * Before Ratis writes a chunk of a copy of the leader's store into the state machine folder. The
     * life cycle only serves Ratis's check that a copy is loaded into a paused machine; since the
     * first chunk of a next copy may come while {@link #reinitialize} loads this one, the machine
     * stays marked paused once it was (Ratis applies entries and loads copies on one thread, so
     * nothing is applied meanwhile).
     */
    @Override
    public void pause() {
        if (getLifeCycleState() == LifeCycle.State.RUNNING) {
            getLifeCycle().transition(LifeCycle.State.PAUSING);
            getLifeCycle().transition(LifeCycle.State.PAUSED);
        }
    }

    /**
     * At start, and once Ratis installed a copy of the leader's store: a copy beyond the mark
     * replaces the store (also at a start after a crash in the middle of that), then the mark moves
     * to it; copies are removed once used or outdated.
     */
    @Override
    public void reinitialize() throws IOException {
        TermIndex held = mark.read();
        Installed copy = takeNewestCopy(held);
        if (copy != null) {
            TermIndex at = copy.at();
            LOG.info("replica set {}: replacing this node's store by the leader's copy up to entry {}", setName, at);
            long started = System.nanoTime();
            long now = System.nanoTime();
            // a send made again after a change of leader is kept once: the copy's messages count as stored lately
            long records = StoreCopy.load(store, copy.file(), stored -> recent.add(stored, now));
            // and so are those the leader stored lately and which were consumed before its copy
            Path sentLately = copy.file().resolveSibling(recentName(at));
            if (Files.exists(sentLately)) {
                try {
                    RecentSendsCopy.read(sentLately, stored -> recent.add(stored, now));
                } catch (IOException e) {
                    // the list only serves sends made again: the copy stands without it
                    LOG.warn("replica set {}: the leader's recent sends beside its copy cannot be read", setName, e);
                }
            }
            mark.write(at);
            held = at;
            Files.deleteIfExists(copy.file());
            Files.deleteIfExists(sentLately);
            LOG.info(
                    "replica set {}: store replaced by the leader's copy up to entry {} ({} records, {} ms)",
                    setName,
                    at,
                    records,
                    java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        }
        // a newer copy may have arrived meanwhile: Ratis loads it next
        long upTo = held == null ? -1 : held.getIndex();
        removeCopies(copies, upTo);
        removeCopies(mark.folder(), upTo);
        lastWrite = CompletableFuture.completedFuture(null);
        if (held != null) {
            durable = snapshotAt(held);
            setLastAppliedTermIndex(held);
        }
    }

    /** A copy of a store, and the entry it was made for. */
    private record Installed(Path file, TermIndex at) {}

    private static final String COPY_PREFIX = "store-copy-";
    /** The leader's recent sends beside a copy ({@link RecentSendsCopy}): {@code recent-sends-<term>_<index>}. */
    private static final String RECENT_PREFIX = "recent-sends-";

    private static String recentName(TermIndex at) {
        return RECENT_PREFIX + at.getTerm() + "_" + at.getIndex();
    }

    /**
     * The newest copy beyond {@code held}, moved out of Ratis's state machine folder into the store's
     * own folder first (or found there, left by a crash while it was loaded): Ratis swaps its folder
     * as a whole when the next copy arrives, which may happen while this one is loaded. Null if there
     * is none.
     */
    private Installed takeNewestCopy(TermIndex held) throws IOException {
        Path own = mark.folder();
        for (int attempt = 0; ; attempt++) {
            try {
                Installed arrived = newestCopy(copies);
                Installed left = newestCopy(own);
                Installed newest = arrived == null
                                || (left != null
                                        && left.at().getIndex() >= arrived.at().getIndex())
                        ? left
                        : arrived;
                if (newest == null || (held != null && newest.at().getIndex() <= held.getIndex())) {
                    return null;
                }
                if (newest == left) {
                    // taken before a crash: its recent sends may not have followed it out of Ratis's folder
                    moveRecentSends(copies, own, left.at());
                    return left;
                }
                Path taken = own.resolve(newest.file().getFileName());
                Files.move(newest.file(), taken, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                moveRecentSends(newest.file().getParent(), own, newest.at());
                return new Installed(taken, newest.at());
            } catch (java.nio.file.NoSuchFileException e) {
                if (attempt >= 10) {
                    throw e;
                }
                // Ratis replaced its folder by a newer copy's while it was looked at: look again
            }
        }
    }

    /** Moves the leader's recent sends for the copy of entry {@code at} from {@code from} to {@code to}, if there. */
    private static void moveRecentSends(Path from, Path to, TermIndex at) throws IOException {
        if (from == null) {
            return;
        }
        try {
            Files.move(
                    from.resolve(recentName(at)),
                    to.resolve(recentName(at)),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (java.nio.file.NoSuchFileException e) {
            // a copy from a node of an earlier version, moved already, or Ratis swapped its folder: the copy alone
        }
    }

    /**
     * The copy for the latest entry in {@code dir}, if there is one; {@link java.nio.file.NoSuchFileException}
     * if the folder is swapped while it is listed.
     */
    private static Installed newestCopy(Path dir) throws IOException {
        if (dir == null || !Files.isDirectory(dir)) {
            return null;
        }
        Installed latest = null;
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                TermIndex at = copyEntry(f.getFileName().toString());
                if (at != null && (latest == null || at.getIndex() > latest.at().getIndex())) {
                    latest = new Installed(f, at);
                }
            }
        }
        return latest;
    }

    /** The entry a copy's file name gives ({@code store-copy-<term>_<index>}), or null for another file. */
    private static TermIndex copyEntry(String name) {
        if (!name.startsWith(COPY_PREFIX)) {
            return null;
        }
        String[] parts = name.substring(COPY_PREFIX.length()).split("_");
        try {
            return parts.length == 2 ? TermIndex.valueOf(Long.parseLong(parts[0]), Long.parseLong(parts[1])) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Removes the copies in {@code dir} (with Ratis's digests of them) up to entry {@code upTo}. */
    private static void removeCopies(Path dir, long upTo) throws IOException {
        if (dir == null || !Files.isDirectory(dir)) {
            return;
        }
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String name = f.getFileName().toString();
                // with Ratis's digest (.md5) or being written (.partial): that of the copy it goes with
                String copyName =
                        name.replaceFirst("\\.(md5|partial)$", "").replaceFirst("^" + RECENT_PREFIX, COPY_PREFIX);
                TermIndex at = copyEntry(copyName);
                if ((name.startsWith(COPY_PREFIX) || name.startsWith(RECENT_PREFIX))
                        && (at == null || at.getIndex() <= upTo)) {
                    Files.deleteIfExists(f);
                }
            }
        } catch (java.nio.file.NoSuchFileException e) {
            // Ratis's folder, swapped meanwhile: what it held is gone with it
        }
    }

    /** The mark {@code at}, with a copy of the store made if a follower needs it. */
    private StoreSnapshot snapshotAt(TermIndex at) {
        return new StoreSnapshot(at, this::copyFor);
    }

    /**
     * Copies this node's store for a follower behind the log's start: on the store's writer thread,
     * at a moment when it holds every entry up to {@code at} (a copy is only asked for a mark, and a
     * mark is written once the store holds its entries) and maybe some after it, which the follower
     * applies again harmlessly.
     */
    private synchronized List<Path> copyFor(TermIndex at) throws IOException {
        Path dir = copies;
        Files.createDirectories(dir);
        Path file = dir.resolve(COPY_PREFIX + at.getTerm() + "_" + at.getIndex());
        Path sentLately = dir.resolve(recentName(at));
        if (!Files.exists(file)) {
            removeCopies(dir, at.getIndex() - 1); // an older mark's: the followers are sent the newest
            long started = System.nanoTime();
            long entries = StoreCopy.write(store, file);
            LOG.info(
                    "replica set {}: copied this node's store up to entry {} for a follower behind the log ({} entries,"
                            + " {} bytes, {} ms)",
                    setName,
                    at,
                    entries,
                    Files.size(file),
                    java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        }
        if (!Files.exists(sentLately)) {
            // after the store's copy: every send the copy holds was remembered before it was read
            RecentSendsCopy.write(recent.copies(System.nanoTime()), sentLately);
        }
        return List.of(file, sentLately);
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
        durable = snapshotAt(applied);
        // a copy made for an older mark is not sent any more (one being sent is read on from its open
        // file); not while one is made (copyFor holds the lock)
        synchronized (this) {
            removeCopies(copies, applied.getIndex() - 1);
        }
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

    /** An entry appended here that this replica did not write: its context holds it without its data when large. */
    @Override
    public TransactionContext startTransaction(LogEntryProto entry, RaftProtos.RaftPeerRole role) {
        RaftServer.Division division;
        try {
            division = getServer().join().getDivision(getGroupId());
        } catch (IOException | RuntimeException e) {
            division = null; // closing: the context is made all the same
        }
        return LightEntries.context(this, entry, role, division);
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
        LogEntryProto entry;
        try {
            entry = LightEntries.whole(trx, getServer().join(), getGroupId());
        } catch (IOException e) {
            LOG.error("replica set {}: entry {} could not be read back from the log", setName, trx.getLogEntry(), e);
            return CompletableFuture.failedFuture(e);
        }
        TermIndex at = TermIndex.valueOf(entry);
        long bytes = entry.getStateMachineLogEntry().getLogData().size();
        List<StoreOp> ops =
                BatchRecord.decode(entry.getStateMachineLogEntry().getLogData().asReadOnlyByteBuffer());
        // relaxed: the entry is already durable in the Raft log of a majority, so the store need not
        // force it before the write counts; a power failure loses at most the store's tail after the
        // mark, and a restart applies those entries again from the log
        StoreBatch batch = StoreBatch.relaxed();
        long now = System.nanoTime();
        for (StoreOp op : ops) {
            batch.add(op);
        }
        for (String copy : SentCopies.of(ops)) {
            recent.add(copy, now);
        }
        backlog.take(bytes);
        CompletableFuture<Void> written;
        try {
            written = store.write(batch);
        } catch (RuntimeException e) {
            backlog.give(bytes); // nothing of it waits in the store
            throw e;
        }
        written.whenComplete((ok, failure) -> backlog.give(bytes));
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
