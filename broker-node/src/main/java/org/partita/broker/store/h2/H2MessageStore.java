package org.partita.broker.store.h2;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.partita.broker.config.HeapBudgets;
import org.partita.broker.config.StorageSettings;
import org.partita.broker.files.PrivateFiles;
import org.partita.broker.store.MessageHeads;
import org.partita.broker.store.MessageStore;
import org.partita.broker.store.StorageDevice;
import org.partita.broker.store.StoreBatch;
import org.partita.broker.store.StoreCounters;
import org.partita.broker.store.StoreException;
import org.partita.broker.store.StoreFigures;
import org.partita.broker.store.StoredBranch;
import org.partita.broker.store.StoredEntry;
import org.partita.broker.store.StoredQueue;
import org.partita.broker.store.ThreadTurns;
import org.partita.broker.store.commit.CommitTarget;
import org.partita.broker.store.commit.GroupCommitWriter;
import org.partita.broker.store.journal.JournalSegments;
import org.partita.broker.store.journal.JournaledH2Target;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's H2 database. All writes go through one {@link GroupCommitWriter} thread, which owns
 * the write connection and every read.
 *
 * <p>By default ({@link Layout#JOURNALED}) message changes reach H2 through a write-ahead journal
 * in the same folder ({@value #JOURNAL_FILE} and {@value #JOURNAL_FILE}.2, used in turn); see
 * {@link JournaledH2Target}. {@link Layout#DIRECT}
 * commits every group into H2 itself.
 */
public final class H2MessageStore implements MessageStore {
    private static final Logger LOG = LoggerFactory.getLogger(H2MessageStore.class);
    /** The journal's first file; the journal takes {@link #JOURNAL_FILES} in turn. */
    public static final String JOURNAL_FILE = "partita.journal";
    /** Every file of the journal (its segments), in the data folder. */
    public static final List<String> JOURNAL_FILES = JournalSegments.FILE_NAMES;
    /**
     * The journal's budget: bytes of records, and estimated heap of pending net effect, that its two
     * segments hold at most together; a segment is checkpointed into H2 at half of it. A share of the
     * heap ({@link StorageSettings#journalBytes}).
     */
    public static final long DEFAULT_CHECKPOINT_BYTES =
            StorageSettings.defaults().journalBytes();

    /** How message changes reach H2. */
    public enum Layout {
        /** Through the write-ahead journal, checkpointed into H2 (the default). */
        JOURNALED,
        /** Every group committed and forced in H2 itself. */
        DIRECT
    }

    /** What one opening of the files gives: replaced as a whole when the store reopens after a fault. */
    private record Opened(Connection connection, CommitTarget target, PayloadReader reader, boolean crashed) {
        /** After a fault: the connections go, without a checkpoint (the target was released already). */
        void closeQuietly() {
            reader.close();
            try {
                connection.close();
            } catch (SQLException e) {
                LOG.debug("H2 close after a fault: {}", e.toString());
            }
        }
    }

    /** How to open the files again: the same as at start. */
    private record Files(
            Path dataDir,
            StorageDevice device,
            Layout layout,
            long checkpointBytes,
            long checkpointTransactionBytes,
            MessageHeads heads,
            int compactFillPercent,
            int compactMaxMillis) {
        /** H2's page cache of the store, in KiB as H2 counts it: a share of the heap. */
        long cacheKib() {
            return HeapBudgets.current().storeCacheBytes() >> 10;
        }
    }

    private volatile Opened opened;
    private final Files files;
    private final GroupCommitWriter writer;
    private final StoreCounters counters = new StoreCounters();
    private final boolean recoveredFromCrash;

    private H2MessageStore(Files files, Opened opened, boolean syncOnCommit, GroupCommitWriter.Retry retry) {
        this.files = files;
        this.recoveredFromCrash = opened.crashed();
        this.opened = opened;
        wireCounters(opened);
        this.writer = new GroupCommitWriter(
                opened.target(),
                syncOnCommit,
                counters,
                new GroupCommitWriter.Reopener() {
                    @Override
                    public CommitTarget reopen() throws Exception {
                        return H2MessageStore.this.reopen();
                    }

                    @Override
                    public String advice(String reason) {
                        return ResumeSpace.advice(reason, files.dataDir(), counters.checkpointPendingBytes());
                    }
                },
                retry);
        counters.fileBytes(this::fileBytes);
    }

    private void wireCounters(Opened o) {
        if (o.target() instanceof JournaledH2Target j) {
            j.counters(counters);
        }
    }

    /** On the writer thread, after the failed target was released: the same opening as at start. */
    private CommitTarget reopen() throws SQLException, java.io.IOException {
        opened.closeQuietly();
        Opened o = openFiles(files, false);
        wireCounters(o);
        opened = o;
        return o.target();
    }

    /** Bytes the database and journal files take on the disk. */
    private long fileBytes() {
        long total = 0;
        List<String> names = new ArrayList<>(JOURNAL_FILES);
        names.add("partita.mv.db");
        for (String name : names) {
            try {
                total += java.nio.file.Files.size(files.dataDir().resolve(name));
            } catch (java.io.IOException missing) {
                // not created (yet)
            }
        }
        return total;
    }

    @Override
    public java.util.Optional<StoreCounters> counters() {
        return java.util.Optional.of(counters);
    }

    /**
     * Opens (or creates) the database in {@code dataDir}, journaled. With {@code syncOnCommit}
     * false, commits are not forced to disk: faster, but a power loss may lose confirmed messages.
     * The node logs that choice loudly at start.
     */
    public static H2MessageStore open(Path dataDir, boolean syncOnCommit) {
        return open(dataDir, syncOnCommit, Layout.JOURNALED, DEFAULT_CHECKPOINT_BYTES, MessageHeads.NONE);
    }

    public static H2MessageStore open(Path dataDir, boolean syncOnCommit, Layout layout) {
        return open(dataDir, syncOnCommit, layout, DEFAULT_CHECKPOINT_BYTES, MessageHeads.NONE);
    }

    /** Journaled, keeping the head {@code heads} derives from each payload beside it. */
    public static H2MessageStore open(Path dataDir, boolean syncOnCommit, MessageHeads heads) {
        return open(dataDir, syncOnCommit, Layout.JOURNALED, DEFAULT_CHECKPOINT_BYTES, heads);
    }

    /**
     * The node's store: journaled, on {@code device}, reopening itself after an I/O fault with the
     * delays of {@code settings}, within its journal's budgets.
     */
    public static H2MessageStore open(
            Path dataDir, boolean syncOnCommit, MessageHeads heads, StorageSettings settings, StorageDevice device) {
        return open(
                new Files(
                        dataDir,
                        device,
                        Layout.JOURNALED,
                        settings.journalBytes(),
                        settings.checkpointTransactionBytes(),
                        heads,
                        settings.compactFillPercent(),
                        settings.compactMaxMillis()),
                syncOnCommit,
                new GroupCommitWriter.Retry(settings.retryFirstMillis(), settings.retryMaxMillis()));
    }

    public static H2MessageStore open(Path dataDir, boolean syncOnCommit, Layout layout, long checkpointBytes) {
        return open(dataDir, syncOnCommit, layout, checkpointBytes, MessageHeads.NONE);
    }

    public static H2MessageStore open(
            Path dataDir, boolean syncOnCommit, Layout layout, long checkpointBytes, MessageHeads heads) {
        StorageSettings defaults = StorageSettings.defaults();
        return open(
                new Files(
                        dataDir,
                        StorageDevice.DISK,
                        layout,
                        checkpointBytes,
                        defaults.checkpointTransactionBytes(),
                        heads,
                        defaults.compactFillPercent(),
                        defaults.compactMaxMillis()),
                syncOnCommit,
                GroupCommitWriter.Retry.DEFAULT);
    }

    /** Journaled on {@code device}, with checkpoints every {@code checkpointBytes}; for tests. */
    public static H2MessageStore open(Path dataDir, long checkpointBytes, StorageDevice device) {
        StorageSettings defaults = StorageSettings.defaults();
        return open(
                new Files(
                        dataDir,
                        device,
                        Layout.JOURNALED,
                        checkpointBytes,
                        defaults.checkpointTransactionBytes(),
                        MessageHeads.NONE,
                        defaults.compactFillPercent(),
                        defaults.compactMaxMillis()),
                true,
                GroupCommitWriter.Retry.DEFAULT);
    }

    private static H2MessageStore open(Files files, boolean syncOnCommit, GroupCommitWriter.Retry retry) {
        try {
            PrivateFiles.folder(files.dataDir());
            Opened o = openFiles(files, true);
            H2MessageStore store = new H2MessageStore(files, o, syncOnCommit, retry);
            store.writer.start();
            return store;
        } catch (SQLException | java.io.IOException e) {
            throw new StoreException(
                    "cannot open the H2 store in " + files.dataDir().toAbsolutePath() + ": " + e.getMessage(), e);
        }
    }

    /** Opens H2 and the journal, replaying what the journal holds into H2: at start, and to recover from a fault. */
    private static Opened openFiles(Files files, boolean atStart) throws SQLException, java.io.IOException {
        Path dataDir = files.dataDir();
        String url = "jdbc:h2:" + files.device().h2Prefix()
                + dataDir.toAbsolutePath().resolve("partita") + ";DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0"
                // no partita.trace.db, which H2 would create with the umask's permissions beside the data: its
                // errors reach the node as exceptions, which the node logs. Not H2's SLF4J adapter either: it
                // formats what it traces, a whole payload among it, and ran a 128 MiB heap out of memory
                + ";TRACE_LEVEL_FILE=0"
                + ";CACHE_SIZE=" + files.cacheKib();
        Connection c = DriverManager.getConnection(url, "partita", "");
        CommitTarget target = null;
        try {
            c.setAutoCommit(false);
            H2Schema.createOrCheck(c);
            H2BatchApplier h2 = new H2BatchApplier(c, syncer(c), chunkWriter(c), files.heads());
            target = files.layout() == Layout.DIRECT
                    ? h2
                    : journaled(
                            h2, dataDir, files.checkpointBytes(), files.checkpointTransactionBytes(), files.device());
            if (target instanceof JournaledH2Target j) {
                j.space(H2Space.of(
                        c, files.compactFillPercent(), files.compactMaxMillis(), files.checkpointTransactionBytes()));
            }
            // only the journal records a clean stop; without it, assume the worst
            boolean crashed = !(target instanceof JournaledH2Target j && j.previousStopWasClean());
            // Not when reopening after a fault: payloads of non-durable subscriptions have no entry and are still held.
            if (crashed && atStart) {
                h2.removeOrphanPayloads(); // a full scan of the payloads: after a crash (a clean stop ran it)
            }
            PayloadReader reader = new PayloadReader(DriverManager.getConnection(url, "partita", ""));
            PrivateFiles.tree(dataDir); // what H2 created, and what an older version left with the umask's modes
            return new Opened(c, target, reader, crashed);
        } catch (SQLException | java.io.IOException | RuntimeException e) {
            if (target instanceof JournaledH2Target j) {
                j.closeFile();
            }
            try {
                c.close();
            } catch (SQLException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    /** H2's page cache while the journal is replayed at start (see {@link #journaled}). */
    private static final long REPLAY_CACHE_KIB = 1024;

    /**
     * Opens the journal and replays what a crash left in it onto H2, before anything else reads H2.
     * The replay deletes and inserts payloads that nothing reads again: with H2's page cache at its
     * usual size, the pages of the payloads deleted stayed cached, and a store whose small and large
     * rows alternate needed half as much heap again as it was written in to open.
     */
    private static JournaledH2Target journaled(
            H2BatchApplier h2, Path dataDir, long checkpointBytes, long transactionBytes, StorageDevice device)
            throws java.io.IOException, SQLException {
        JournalSegments segments = JournalSegments.open(dataDir, device);
        try {
            JournaledH2Target[] opened = new JournaledH2Target[1];
            h2.withCacheKib(
                    REPLAY_CACHE_KIB,
                    () -> opened[0] = new JournaledH2Target(h2, segments, checkpointBytes, transactionBytes));
            return opened[0];
        } catch (java.io.IOException | SQLException | RuntimeException e) {
            segments.close();
            throw e;
        }
    }

    /** Forces committed data to the disk through H2's own sync (FileChannel.force). */
    private static Runnable syncer(Connection c) {
        try {
            SessionLocal session = (SessionLocal) c.unwrap(JdbcConnection.class).getSession();
            org.h2.engine.Database db = session.getDatabase();
            return db::sync;
        } catch (SQLException | ClassCastException e) {
            LOG.warn("H2 internals not reachable ({}); falling back to CHECKPOINT SYNC after each batch", e.toString());
            return () -> {
                try (Statement s = c.createStatement()) {
                    s.execute("CHECKPOINT SYNC");
                } catch (SQLException ex) {
                    throw new StoreException("disk sync failed", ex);
                }
            };
        }
    }

    /**
     * Writes what H2 changed as a chunk of its file now, without forcing it: after each part of a
     * checkpoint, so a chunk holds the pages of one part. Left to itself H2 writes a chunk when its
     * unsaved pages pass a threshold, and then a large payload's page, rewritten when its transaction
     * commits, goes out in one chunk with the next part's: for two pages of 15 MiB, H2 held its write
     * buffer of 22 MiB and the 35 MiB one it grew it into at once.
     */
    private static Runnable chunkWriter(Connection c) {
        try {
            SessionLocal session = (SessionLocal) c.unwrap(JdbcConnection.class).getSession();
            org.h2.mvstore.db.Store store = session.getDatabase().getStore();
            return store::flush;
        } catch (SQLException | ClassCastException e) {
            LOG.warn("H2 internals not reachable ({}); checkpoints leave chunk writes to H2", e.toString());
            return () -> {};
        }
    }

    @Override
    public boolean onWriterThread() {
        return writer.isWriterThread();
    }

    @Override
    public void afterConfirmations(Runnable work) {
        writer.afterConfirmations(work);
    }

    @Override
    public void commitAtEndOfTurns(ThreadTurns turns) {
        writer.useTurns(turns);
    }

    @Override
    public CompletableFuture<Void> write(StoreBatch batch) {
        return writer.submit(batch);
    }

    @Override
    public void forceWritten() {
        // the writer runs this after every batch submitted before it, relaxed ones committed without a sync
        writer.callOnWriter(() -> {
            opened.target().sync();
            return null;
        });
    }

    @Override
    public boolean recoveredFromCrash() {
        return recoveredFromCrash;
    }

    @Override
    public long maxMessageId() {
        return writer.callOnWriter(() -> {
            try (Statement s = opened.connection().createStatement();
                    ResultSet rs = s.executeQuery("SELECT MAX(ID) FROM MESSAGES")) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

    @Override
    public List<StoredQueue> loadQueues() {
        return writer.callOnWriter(() -> {
            List<StoredQueue> queues = new ArrayList<>();
            try (Statement s = opened.connection().createStatement();
                    ResultSet rs = s.executeQuery("SELECT NAME, KIND, OPTIONS FROM QUEUES ORDER BY NAME")) {
                while (rs.next()) {
                    queues.add(new StoredQueue(rs.getString(1), rs.getString(2), rs.getString(3)));
                }
            }
            return queues;
        });
    }

    @Override
    public List<StoredBranch> loadBranches() {
        return writer.callOnWriter(() -> {
            List<StoredBranch> branches = new ArrayList<>();
            try (Statement s = opened.connection().createStatement();
                    ResultSet rs = s.executeQuery("SELECT XID, STATE, DATA FROM XA_BRANCHES")) {
                while (rs.next()) {
                    branches.add(new StoredBranch(rs.getBytes(1), rs.getInt(2), rs.getBytes(3)));
                }
            }
            return branches;
        });
    }

    @Override
    public void loadEntries(Consumer<StoredEntry> sink) {
        writer.callOnWriter(() -> {
            // Lazy: rows stream as the index yields them. Otherwise H2 first copies the whole
            // result, payloads and all, into a temporary file once it passes its in-memory row limit.
            try (Statement lazy = opened.connection().createStatement()) {
                lazy.execute("SET LAZY_QUERY_EXECUTION TRUE");
            }
            // Heads only: the pages that hold payloads are read just for messages stored without one.
            try (PreparedStatement ps = opened.connection()
                    .prepareStatement("SELECT E.QUEUE, E.MESSAGE_ID, E.DELIVERY_COUNT, H.HEAD FROM ENTRIES E"
                            + " LEFT JOIN MESSAGE_HEADS H ON H.ID = E.MESSAGE_ID ORDER BY E.QUEUE, E.MESSAGE_ID")) {
                ps.setFetchSize(1000);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        long id = rs.getLong(2);
                        byte[] head = rs.getBytes(4);
                        byte[] payload = head == null ? opened.reader().read(id) : null;
                        if (head == null && payload == null) {
                            continue; // an entry whose payload a crash took: nothing to deliver
                        }
                        sink.accept(new StoredEntry(rs.getString(1), id, rs.getInt(3), payload, head));
                    }
                }
            } finally {
                try (Statement eager = opened.connection().createStatement()) {
                    eager.execute("SET LAZY_QUERY_EXECUTION FALSE");
                }
            }
            return null;
        });
    }

    @Override
    public byte[] readPayload(long messageId) {
        if (opened.target() instanceof JournaledH2Target j) {
            byte[] pending = j.pendingPayload(messageId);
            if (pending != null) {
                return pending;
            }
        }
        return opened.reader().read(messageId);
    }

    @Override
    public StoreFigures figures() {
        return writer.callOnWriter(() -> {
            try (Statement s = opened.connection().createStatement();
                    ResultSet m =
                            s.executeQuery("SELECT COUNT(*), COALESCE(SUM(OCTET_LENGTH(PAYLOAD)), 0) FROM MESSAGES")) {
                m.next();
                long rows = m.getLong(1);
                long bytes = m.getLong(2);
                try (ResultSet e = s.executeQuery("SELECT COUNT(*) FROM ENTRIES")) {
                    e.next();
                    return new StoreFigures(rows, bytes, e.getLong(1));
                }
            }
        });
    }

    /**
     * How many H2 transactions the writer has committed so far. A group of batches committed
     * together counts once, so this stays well below the number of batches under concurrency.
     */
    public long commitCount() {
        return writer.commitCount();
    }

    /** Bytes appended to the journal since the store opened (0 with {@link Layout#DIRECT}). */
    public long journalBytesAppended() {
        return opened.target() instanceof JournaledH2Target j ? j.appendedBytes() : 0;
    }

    /** Checkpoints that moved a non-empty net effect into H2; for tests. */
    public long checkpointCount() {
        return writer.callOnWriter(() -> opened.target() instanceof JournaledH2Target j ? j.checkpoints() : 0L);
    }

    @Override
    public void close() {
        writer.stop();
        Opened o = opened;
        o.reader().close();
        try (Statement s = o.connection().createStatement()) {
            s.execute("SHUTDOWN");
        } catch (SQLException e) {
            LOG.debug("H2 shutdown: {}", e.toString());
        }
        try {
            o.connection().close();
        } catch (SQLException e) {
            LOG.debug("H2 close: {}", e.toString());
        }
    }
}
