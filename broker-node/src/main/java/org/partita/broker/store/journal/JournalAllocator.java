package org.partita.broker.store.journal;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prepares the journal's space ahead of the writer, on a thread of its own: the zeros a segment's
 * next records will overwrite are written and forced before the writer gets there, so a group
 * commit never waits for a zero-fill and its sync (it used to, at the first fill of each file and
 * at every growth of a segment). The writer only asks, and only when the space ahead of it falls
 * below one {@link JournalFile#ALLOCATION_STEP}; if it still outruns the allocator (a group larger
 * than the space ahead), it allocates what it needs itself, as before, and the store counts it.
 *
 * <p>Crash safety does not change: zeros are written only past the file's allocated end, where
 * no record is, and the writer uses new space only once it is forced ({@link JournalFile#prepare}).
 */
final class JournalAllocator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JournalAllocator.class);
    private static final long STEP = JournalFile.ALLOCATION_STEP;

    /** The group that ends a segment may go past it by this much and still find its space prepared. */
    private static final long LAST_GROUP = 1 << 20;

    /** A file holds one segment at a time: its header, its records and the last group's overrun. */
    private final long fileNeeds;
    /** The thread ends when idle, so a store left open by a test (a simulated crash) leaves none behind. */
    private final ThreadPoolExecutor thread =
            new ThreadPoolExecutor(0, 1, 5, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
                Thread t = new Thread(r, "partita-store-allocator");
                t.setDaemon(true);
                return t;
            });
    /** Files with a request queued or running: one at a time each, so a full disk is not asked again and again. */
    private final Set<JournalFile> busy = ConcurrentHashMap.newKeySet();

    /** @param segmentBytes the records a segment holds before it is closed */
    JournalAllocator(long segmentBytes) {
        this.fileNeeds = JournalFile.HEADER_SIZE + segmentBytes + LAST_GROUP;
    }

    /**
     * Writer thread, after each append: keeps a step of space ahead of {@code current}'s records
     * (up to what a segment needs), adding a whole step when less is left.
     */
    void keepAhead(JournalFile current) {
        ask(current, current.position());
    }

    /** Writer thread: readies the first step of the file a coming rotation will write to. */
    void readyNext(JournalFile next) {
        ask(next, JournalFile.HEADER_SIZE);
    }

    private void ask(JournalFile file, long from) {
        long size = file.fileSize();
        if (size >= Math.min(from + STEP, fileNeeds) || !busy.add(file)) {
            return;
        }
        long target = size + STEP;
        try {
            thread.execute(() -> prepare(file, target));
        } catch (RuntimeException rejectedAfterClose) {
            busy.remove(file);
        }
    }

    private void prepare(JournalFile file, long target) {
        try {
            file.prepare(target);
        } catch (IOException | RuntimeException e) {
            // the writer allocates for itself when it gets there, and reports the failure if it persists
            LOG.debug("journal space not prepared ahead in {}: {}", file.path().getFileName(), e.toString());
        } finally {
            busy.remove(file);
        }
    }

    /**
     * Stops taking requests. One being written is cut when the files close: the zeros already
     * written lie past every record, and the next open simply finds a longer file.
     */
    @Override
    public void close() {
        thread.shutdown();
    }
}
