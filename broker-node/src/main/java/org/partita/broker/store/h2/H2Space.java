package org.partita.broker.store.h2;

import java.sql.Connection;
import java.sql.SQLException;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.RandomAccessStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives the H2 file's free space back to the disk while the node runs. H2 reuses the space of
 * deleted rows but never shrinks its file, except with {@code SHUTDOWN COMPACT}, which needs the
 * node stopped: after a deep backlog drains, the file keeps the backlog's size for good. Here, at
 * a checkpoint (H2 just forced, the writer idle otherwise), when the live data fill less than a set
 * share of a file of some size, H2's own online compaction moves the live chunks to the front and
 * truncates the file, bounded in time, and in memory: it rewrites and moves a few MiB at a time
 * ({@code writeBytes}). {@code MVStore.compactFile} does the same 16 MiB at a time, and the chunk it
 * wrote (16 MiB and the large payload's page that crossed the mark) ran a 128 MiB heap out of memory.
 */
public final class H2Space {
    private static final Logger LOG = LoggerFactory.getLogger(H2Space.class);
    /** Files below this are left alone: compacting them would gain little. */
    static final long MIN_FILE_BYTES = 16L << 20;
    /**
     * A file that did not shrink is compacted again only after this interval or once it grew by
     * {@link #MIN_FILE_BYTES}, so it is not rewritten at every checkpoint.
     */
    private static final long MIN_INTERVAL_NANOS = 30_000_000_000L;
    /** Chunks filled less than this are rewritten, as {@code compactFile} does (H2's auto-compact fill rate). */
    private static final int CHUNK_FILL_PERCENT = 90;
    /** What {@code compactFile} rewrites and moves at a time: the most a step takes here too. */
    private static final int COMPACT_FILE_WRITE_BYTES = 16 << 20;

    private final MVStore store;
    private final int fillPercent;
    private final int maxMillis;
    private final int writeBytes;
    private long lastNanos;
    private boolean tried;
    private long sizeAfterLast;

    /**
     * @param fillPercent compact when the live data fill less than this share of the file; 0 never
     * @param writeBytes  what one step rewrites or moves, at most 16 MiB: H2 holds about this much (and a page
     *                    past it) meanwhile
     */
    private H2Space(MVStore store, int fillPercent, int maxMillis, long writeBytes) {
        this.store = store;
        this.fillPercent = fillPercent;
        this.maxMillis = maxMillis;
        this.writeBytes = (int) Math.min(COMPACT_FILE_WRITE_BYTES, writeBytes);
    }

    /** The space of the database {@code c} is connected to; never compacts if H2's internals are not reachable. */
    static H2Space of(Connection c, int fillPercent, int maxMillis, long writeBytes) {
        try {
            SessionLocal session = (SessionLocal) c.unwrap(JdbcConnection.class).getSession();
            MVStore store = session.getDatabase().getStore().getMvStore();
            if (!(store.getFileStore() instanceof RandomAccessStore)) {
                throw new ClassCastException("not a file H2 moves chunks in: " + store.getFileStore());
            }
            return new H2Space(store, fillPercent, maxMillis, writeBytes);
        } catch (SQLException | ClassCastException | NullPointerException e) {
            LOG.warn(
                    "H2 internals not reachable ({}); the database file will not shrink while the node runs",
                    e.toString());
            return new H2Space(null, 0, maxMillis, writeBytes);
        }
    }

    /**
     * Live data as a share of the file's chunks, in percent (100 if unknown). Not the share of the
     * file in use: H2 keeps dead chunks for its retention time (45 s), so right after a drain the
     * file still looks full although nearly nothing in it is alive.
     */
    int liveShare() {
        return store == null ? 100 : store.getFileStore().getChunksFillRate();
    }

    /**
     * Compacts if the file is mostly free; returns whether it ran. Call on the thread that holds H2's
     * connection (the writer, or the journal's checkpoint thread) right after H2 was forced, when no transaction of the node is open.
     */
    public boolean compactIfMostlyFree() {
        if (store == null || fillPercent == 0 || store.getFileStore().size() < MIN_FILE_BYTES) {
            return false;
        }
        int fill = liveShare();
        long size = store.getFileStore().size();
        boolean grewSince = size > sizeAfterLast + MIN_FILE_BYTES;
        if (fill >= fillPercent || (tried && !grewSince && System.nanoTime() - lastNanos < MIN_INTERVAL_NANOS)) {
            return false;
        }
        tried = true;
        lastNanos = System.nanoTime();
        long started = System.nanoTime();
        int retention = store.getRetentionTime();
        store.setRetentionTime(0); // chunks emptied by the rewrite may be freed and moved into at once
        try {
            compact(started + maxMillis * 1_000_000L);
        } finally {
            store.setRetentionTime(retention);
        }
        sizeAfterLast = store.getFileStore().size();
        LOG.info(
                "compacted the H2 file online: {}% live, {} MiB to {} MiB in {} ms",
                fill, size >> 20, sizeAfterLast >> 20, (System.nanoTime() - started) / 1_000_000);
        return true;
    }

    /**
     * What {@code MVStore.compactFile} does, {@link #writeBytes} at a time: rewrites the live pages of
     * partly filled chunks into new chunks, forces them, and moves chunks towards the file's start
     * (which truncates it), until nothing is left to rewrite or the deadline passed.
     */
    private void compact(long deadlineNanos) {
        RandomAccessStore file = (RandomAccessStore) store.getFileStore();
        while (store.compact(CHUNK_FILL_PERCENT, writeBytes)) {
            store.sync();
            file.compactMoveChunks(CHUNK_FILL_PERCENT, writeBytes, store);
            if (System.nanoTime() - deadlineNanos > 0) {
                return;
            }
        }
    }
}
