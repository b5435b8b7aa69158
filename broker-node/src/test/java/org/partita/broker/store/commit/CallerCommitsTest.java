package org.partita.broker.store.commit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** When a network thread may commit its turn's writes itself (docs/performance.md step 18). */
class CallerCommitsTest {
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final CallerCommits commits = new CallerCommits(now::get);

    private void syncs(int count, long micros) {
        for (int i = 0; i < count; i++) {
            commits.synced(TimeUnit.MICROSECONDS.toNanos(micros));
        }
    }

    @Test
    void shortSyncsLetNetworkThreadsCommit() {
        assertTrue(commits.mayCommit(true), "before any sync");
        syncs(16, 120);
        assertTrue(commits.mayCommit(true));
    }

    @Test
    void aSlowDiskLeavesSyncsToTheWriterButNotWritesThatNeedNone() {
        syncs(16, 120);
        syncs(9, 3_000); // 9 of the last 16: the median
        assertFalse(commits.mayCommit(true));
        assertTrue(commits.mayCommit(false), "a deletion needs no sync");
        syncs(9, 120); // the disk is fast again
        assertTrue(commits.mayCommit(true));
    }

    @Test
    void aRareLongSyncDoesNotCount() {
        syncs(16, 120);
        syncs(7, 20_000); // under half of the last 16, and short of a stall
        assertTrue(commits.mayCommit(true));
    }

    @Test
    void afterAStallTheWriterSyncsForAMinute() {
        syncs(16, 120);
        commits.synced(CallerCommits.STALLED_SYNC_NANOS);
        syncs(16, 120);
        assertFalse(commits.mayCommit(true), "a stall was just seen");
        assertTrue(commits.mayCommit(false));
        now.addAndGet(CallerCommits.STALL_COOL_OFF_NANOS - 1);
        assertFalse(commits.mayCommit(true), "still within the minute");
        now.addAndGet(2);
        assertTrue(commits.mayCommit(true), "a minute after the stall");
    }
}
