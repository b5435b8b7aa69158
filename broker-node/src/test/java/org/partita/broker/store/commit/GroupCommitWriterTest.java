package org.partita.broker.store.commit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.partita.broker.store.StoreBatch;
import org.partita.broker.store.StoreCounters;
import org.partita.broker.store.StoreException;
import org.partita.broker.store.StoreOp;
import org.partita.broker.store.StoreUnavailableException;
import org.partita.broker.store.ThreadTurns;

/**
 * The store's single writer on its own, over a {@link CommitTarget} that records what it is asked to
 * do and fails when told: no H2, no journal, no disk. What the store and the network threads rely on:
 * waiting batches share one commit and one sync, a write is confirmed only after its sync and in the
 * order it came, a refused batch fails alone, a fault fails every waiter and stops writing until the
 * store reopens, and a stopped writer commits what it had and refuses the rest.
 */
class GroupCommitWriterTest {
    private static final long WAIT_SECONDS = 10;

    private final RecordingTarget target = new RecordingTarget();
    private final StoreCounters counters = new StoreCounters();
    private GroupCommitWriter writer;

    @AfterEach
    void stop() {
        if (writer != null) {
            writer.stop();
        }
    }

    private GroupCommitWriter start(CommitTarget t, boolean syncOnCommit, GroupCommitWriter.Reopener reopener) {
        writer = new GroupCommitWriter(t, syncOnCommit, counters, reopener, new GroupCommitWriter.Retry(1, 5));
        writer.start();
        return writer;
    }

    private GroupCommitWriter start() {
        return start(target, true, null);
    }

    // ---- grouping ------------------------------------------------------------------------------

    @Test
    void batchesThatWaitWhileTheWriterIsBusyAreCommittedAsOneGroupWithOneSync() throws Exception {
        start();
        List<Long> confirmed = Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        CountDownLatch release = park();
        for (long id = 1; id <= 5; id++) {
            long n = id;
            CompletableFuture<Void> f = writer.submit(batch(id));
            f.thenRun(() -> confirmed.add(n));
            writes.add(f);
        }
        assertTrue(writes.stream().noneMatch(CompletableFuture::isDone), "nothing commits while the writer is busy");
        release.countDown();
        all(writes);
        // the callbacks run on the writer after the futures complete, so possibly after all() returned
        await().atMost(Duration.ofSeconds(WAIT_SECONDS)).until(() -> confirmed.size() == 5);

        assertEquals(List.of(List.of(1L, 2L, 3L, 4L, 5L)), target.applied, "one transaction for the five");
        assertEquals(1, target.syncs.get(), "one disk sync for the five");
        assertEquals(1, writer.commitCount());
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), confirmed, "confirmed in the order they were submitted");
    }

    @Test
    void aWriteIsConfirmedOnlyOnceItsSyncReturned() throws Exception {
        start();
        target.syncGate = new CountDownLatch(1);
        CompletableFuture<Void> write = writer.submit(batch(1));
        await().atMost(Duration.ofSeconds(WAIT_SECONDS)).until(() -> target.events.contains("sync"));
        assertFalse(write.isDone(), "applied but not yet on the disk: not confirmed");
        target.syncGate.countDown();
        write.get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void relaxedBatchesAloneAreNotSyncedButOneForcedBatchSyncsItsWholeGroup() throws Exception {
        start();
        writer.submit(relaxed(1)).get(WAIT_SECONDS, TimeUnit.SECONDS);
        writer.submit(relaxed(2)).get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertEquals(0, target.syncs.get(), "a relaxed batch reaches the disk with the next forced one");

        CountDownLatch release = park();
        List<CompletableFuture<Void>> writes = List.of(writer.submit(relaxed(3)), writer.submit(batch(4)));
        release.countDown();
        all(writes);
        assertEquals(1, target.syncs.get());
        assertEquals(List.of(List.of(1L), List.of(2L), List.of(3L, 4L)), target.applied);
    }

    @Test
    void withoutSyncOnCommitNothingIsSynced() throws Exception {
        start(target, false, null);
        writer.submit(batch(1)).get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertEquals(List.of(List.of(1L)), target.applied);
        assertEquals(0, target.syncs.get());
    }

    @Test
    void aBatchTheTargetWantsAloneGetsAGroupOfItsOwnBetweenItsNeighbours() throws Exception {
        target.alone.add(3L);
        start();
        CountDownLatch release = park();
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (long id = 1; id <= 4; id++) {
            writes.add(writer.submit(batch(id)));
        }
        release.countDown();
        all(writes);
        assertEquals(List.of(List.of(1L, 2L), List.of(3L), List.of(4L)), target.applied);
    }

    /** Queues defined by the thousand (S10: 10,000 consumers attached at once) cost a sync per group, not one each. */
    @Test
    void batchesWantedApartThatComeTogetherShareTheirGroupUpToItsBound() throws Exception {
        int apart = GroupCommitWriter.MOST_APART_IN_A_GROUP + 2;
        for (long id = 2; id < 2 + apart; id++) {
            target.alone.add(id);
        }
        start();
        CountDownLatch release = park();
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (long id = 1; id <= apart + 2; id++) {
            writes.add(writer.submit(batch(id)));
        }
        release.countDown();
        all(writes);
        assertEquals(4, target.applied.size(), target.applied.toString());
        assertEquals(List.of(1L), target.applied.get(0), "the batch before them, apart");
        assertEquals(
                GroupCommitWriter.MOST_APART_IN_A_GROUP, target.applied.get(1).size());
        assertEquals(List.of((long) apart, (long) apart + 1), target.applied.get(2), "the rest of them");
        assertEquals(List.of((long) apart + 2), target.applied.get(3), "the batch after them, apart");
        assertEquals(4, target.syncs.get());
    }

    @Test
    void aGroupEndsBeforeTheBatchThatWouldTakeItPastTheTargetsBytes() throws Exception {
        long cost = payload(1).payloadCost();
        assertTrue(cost > 0);
        target.groupBytes = 2 * cost;
        start();
        CountDownLatch release = park();
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (long id = 1; id <= 5; id++) {
            writes.add(writer.submit(payload(id)));
        }
        release.countDown();
        all(writes);
        assertEquals(List.of(List.of(1L, 2L), List.of(3L, 4L), List.of(5L)), target.applied);
    }

    @Test
    void anEmptyBatchIsConfirmedAtOnceWithoutTheWriter() {
        start();
        assertTrue(writer.submit(new StoreBatch()).isDone());
        assertTrue(target.applied.isEmpty());
    }

    // ---- reads -----------------------------------------------------------------------------------

    @Test
    void aReadRunsOnTheWriterAfterTheWritesSubmittedBeforeIt() {
        start();
        CompletableFuture<Void> first = writer.submit(batch(1));
        CompletableFuture<Void> second = writer.submit(batch(2));
        List<Object> seen = writer.callOnWriter(() -> List.of(
                writer.isWriterThread(),
                first.isDone() && second.isDone(),
                target.applied.stream().flatMap(List::stream).toList(),
                target.events.get(target.events.size() - 1)));
        assertEquals(List.of(true, true, List.of(1L, 2L), "beforeRead"), seen, "on the writer, after both writes");
        assertFalse(writer.isWriterThread());
    }

    @Test
    void aReadRefusedForItsContentFailsAloneAndTheStoreGoesOn() throws Exception {
        start();
        StoreException e = assertThrows(
                StoreException.class,
                () -> writer.callOnWriter(() -> {
                    throw new SQLException("duplicate key", "23505");
                }));
        assertFalse(e instanceof StoreUnavailableException, "a refusal is no fault of the store");
        writer.submit(batch(1)).get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    // ---- failures ------------------------------------------------------------------------------

    @Test
    void aRefusedBatchFailsAloneAndItsNeighboursInTheGroupCommit() throws Exception {
        target.refused.add(3L);
        start();
        CountDownLatch release = park();
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (long id = 1; id <= 4; id++) {
            writes.add(writer.submit(batch(id)));
        }
        release.countDown();
        Throwable refusal = failure(writes.get(2));
        assertInstanceOf(StoreException.class, refusal);
        assertFalse(refusal instanceof StoreUnavailableException);
        assertTrue(refusal.getMessage().contains("batch 3 refused"), refusal.getMessage());
        all(List.of(writes.get(0), writes.get(1), writes.get(3)));
        assertEquals(List.of(List.of(1L), List.of(2L), List.of(4L)), target.applied, "retried one by one");

        writer.submit(batch(5)).get(WAIT_SECONDS, TimeUnit.SECONDS); // the store goes on writing
    }

    @Test
    void aFaultWhileWritingFailsEveryWaiterAndEveryLaterRequestUntilTheStoreReopens() throws Exception {
        target.applyFault = new IOException("No space left on device");
        start();
        CountDownLatch release = park();
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (long id = 1; id <= 3; id++) {
            writes.add(writer.submit(batch(id)));
        }
        release.countDown();
        for (CompletableFuture<Void> w : writes) {
            Throwable t = failure(w);
            assertInstanceOf(StoreUnavailableException.class, t);
            assertTrue(t.getMessage().contains("No space left on device"), t.getMessage());
        }
        assertTrue(target.applied.isEmpty());
        // voided right after the waiters were failed
        await().atMost(Duration.ofSeconds(WAIT_SECONDS))
                .until(() -> target.events.containsAll(List.of("abandon", "release")));
        assertFalse(target.events.contains("settled"));

        CompletableFuture<Void> later = writer.submit(batch(4));
        assertTrue(later.isCompletedExceptionally(), "refused at once, not queued");
        assertInstanceOf(StoreUnavailableException.class, failure(later));
        assertThrows(StoreUnavailableException.class, () -> writer.callOnWriter(() -> "x"));
        assertEquals(1, counters.faults());
    }

    @Test
    void aFaultedStoreResumesWritingOnceItReopens() throws Exception {
        target.applyFault = new IOException("disk gone");
        RecordingTarget reopened = new RecordingTarget();
        AtomicInteger tries = new AtomicInteger();
        start(target, true, () -> {
            if (tries.incrementAndGet() < 3) {
                throw new IOException("still gone");
            }
            return reopened;
        });
        assertInstanceOf(StoreUnavailableException.class, failure(writer.submit(batch(1))));

        await().atMost(Duration.ofSeconds(WAIT_SECONDS)).until(() -> writer.fault() == null);
        assertEquals(3, tries.get(), "tried again until the reopen worked");
        writer.submit(batch(2)).get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertEquals(List.of(List.of(2L)), reopened.applied, "written to the reopened target");
        assertTrue(target.applied.isEmpty());
        assertEquals(1, counters.recoveries());
    }

    @Test
    void aFailedSyncConfirmsNoneOfItsGroupAndFailsThemAll() throws Exception {
        target.syncFault = new IOException("fsync failed");
        start();
        CountDownLatch release = park();
        List<CompletableFuture<Void>> writes = List.of(writer.submit(batch(1)), writer.submit(batch(2)));
        release.countDown();
        for (CompletableFuture<Void> w : writes) {
            assertInstanceOf(StoreUnavailableException.class, failure(w));
        }
        await("what was applied but not synced is voided")
                .atMost(Duration.ofSeconds(WAIT_SECONDS))
                .until(() -> target.events.contains("abandon"));
        assertFalse(target.events.contains("settled"));
    }

    // ---- stopping ------------------------------------------------------------------------------

    @Test
    void stopCommitsWhatWasSubmittedBeforeThenClosesTheTargetAndRefusesTheRest() throws Exception {
        start();
        List<CompletableFuture<Void>> writes = List.of(writer.submit(batch(1)), writer.submit(batch(2)));
        writer.stop();
        assertTrue(writes.stream().allMatch(w -> w.isDone() && !w.isCompletedExceptionally()));
        assertEquals("close", target.events.get(target.events.size() - 1), "closed after the last group");
        assertEquals(1, Collections.frequency(target.events, "close"));

        Throwable refused = failure(writer.submit(batch(3)));
        assertInstanceOf(StoreException.class, refused);
        assertTrue(refused.getMessage().contains("closed"));
        assertThrows(StoreException.class, () -> writer.callOnWriter(() -> "x"));
        writer = null;
    }

    @Test
    void aFaultedStoreStopsWithoutClosingItsBrokenTarget() throws Exception {
        target.applyFault = new IOException("disk gone");
        start();
        failure(writer.submit(batch(1)));
        writer.stop();
        writer = null;
        assertFalse(target.events.contains("close"), "a close would checkpoint a broken store: " + target.events);
    }

    // ---- network threads' turns ------------------------------------------------------------------

    @Test
    void whatAThreadWritesDuringATurnIsCommittedAsOneGroupOnThatThreadWhenTheTurnEnds() throws Exception {
        start();
        TestTurns turns = new TestTurns();
        writer.useTurns(turns);
        List<String> confirmedOn = Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (long id = 1; id <= 3; id++) {
            CompletableFuture<Void> f = writer.submit(relaxed(id));
            f.thenRun(() -> confirmedOn.add(Thread.currentThread().getName()));
            writes.add(f);
        }
        assertEquals(1, turns.ends.size(), "one end-of-turn task for the whole turn");
        assertTrue(writes.stream().noneMatch(CompletableFuture::isDone), "held until the turn ends");
        assertTrue(target.applied.isEmpty());

        turns.endTurn();
        assertTrue(writes.stream().allMatch(CompletableFuture::isDone), "committed by the ending turn itself");
        String me = Thread.currentThread().getName();
        assertEquals(List.of(me, me, me), confirmedOn);
        assertEquals(List.of(List.of(1L, 2L, 3L)), target.applied);
        assertEquals(1, counters.groupsByCaller());
    }

    @Test
    void aTurnThatFindsTheWriterBusyGoesToTheWriterBehindWhatWaitsThere() throws Exception {
        start();
        List<Long> confirmed = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch release = park();
        CompletableFuture<Void> before = writer.submit(relaxed(1)); // no turns yet: queued for the writer
        before.thenRun(() -> confirmed.add(1L));
        TestTurns turns = new TestTurns();
        writer.useTurns(turns);
        CompletableFuture<Void> inTurn = writer.submit(relaxed(2));
        inTurn.thenRun(() -> confirmed.add(2L));
        turns.endTurn();
        assertFalse(inTurn.isDone(), "must not commit ahead of the write that waits for the writer");
        release.countDown();
        all(List.of(before, inTurn));
        await().atMost(Duration.ofSeconds(WAIT_SECONDS)).until(() -> confirmed.size() == 2);
        assertEquals(List.of(1L, 2L), confirmed);
        assertEquals(0, counters.groupsByCaller(), "the writer committed it");
    }

    // ---- helpers -------------------------------------------------------------------------------

    /** Holds the writer thread inside a read until the returned latch is released. */
    private CountDownLatch park() throws InterruptedException {
        CountDownLatch parked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread t = new Thread(
                () -> writer.callOnWriter(() -> {
                    parked.countDown();
                    try {
                        release.await(WAIT_SECONDS, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return null;
                }),
                "park-writer");
        t.setDaemon(true);
        t.start();
        assertTrue(parked.await(WAIT_SECONDS, TimeUnit.SECONDS), "the writer did not run the parking read");
        return release;
    }

    private static void all(List<CompletableFuture<Void>> writes) throws Exception {
        CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    private static Throwable failure(CompletableFuture<Void> f) throws Exception {
        try {
            f.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        }
        throw new AssertionError("the write succeeded");
    }

    private static StoreBatch batch(long id) {
        return new StoreBatch().add(new StoreOp.DeleteEntry("q", id));
    }

    private static StoreBatch relaxed(long id) {
        return StoreBatch.relaxed().add(new StoreOp.DeleteEntry("q", id));
    }

    private static StoreBatch payload(long id) {
        return new StoreBatch().add(new StoreOp.InsertMessage(id, new byte[1000]));
    }

    private static long id(StoreBatch b) {
        StoreOp op = b.ops().get(0);
        if (op instanceof StoreOp.DeleteEntry d) {
            return d.messageId();
        }
        return ((StoreOp.InsertMessage) op).messageId();
    }

    /** Runs the end-of-turn tasks when the test says the turn is over; every thread works in turns. */
    private static final class TestTurns implements ThreadTurns {
        final List<Runnable> ends = new ArrayList<>();

        @Override
        public boolean atEndOfTurn(Runnable work) {
            ends.add(work);
            return true;
        }

        void endTurn() {
            List<Runnable> due = List.copyOf(ends);
            ends.clear();
            due.forEach(Runnable::run);
        }
    }

    /** Records what the writer asks of it, by batch id; refuses, faults or holds a sync when told. */
    private static final class RecordingTarget implements CommitTarget {
        final List<List<Long>> applied = Collections.synchronizedList(new ArrayList<>());
        final List<String> events = Collections.synchronizedList(new ArrayList<>());
        final AtomicInteger syncs = new AtomicInteger();
        final Set<Long> refused = new CopyOnWriteArraySet<>();
        final Set<Long> alone = new CopyOnWriteArraySet<>();
        volatile long groupBytes = Long.MAX_VALUE;
        volatile Exception applyFault;
        volatile IOException syncFault;
        volatile CountDownLatch syncGate;

        @Override
        public void apply(List<StoreBatch> batches) throws Exception {
            List<Long> ids = batches.stream().map(GroupCommitWriterTest::id).toList();
            if (applyFault != null) {
                events.add("failed apply " + ids);
                throw applyFault;
            }
            for (long id : ids) {
                if (refused.contains(id)) {
                    events.add("refused apply " + ids);
                    throw new StoreException("batch " + id + " refused", null);
                }
            }
            events.add("apply " + ids);
            applied.add(ids);
        }

        @Override
        public void sync() {
            events.add("sync");
            CountDownLatch gate = syncGate;
            if (gate != null) {
                try {
                    gate.await(WAIT_SECONDS, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (syncFault != null) {
                throw new java.io.UncheckedIOException(syncFault);
            }
            syncs.incrementAndGet();
        }

        @Override
        public long groupBytes() {
            return groupBytes;
        }

        @Override
        public boolean standsAlone(StoreBatch batch) {
            return alone.contains(id(batch));
        }

        @Override
        public void settled() {
            events.add("settled");
        }

        @Override
        public void abandon() {
            events.add("abandon");
        }

        @Override
        public void release() {
            events.add("release");
        }

        @Override
        public void beforeRead() {
            events.add("beforeRead");
        }

        @Override
        public void close() {
            events.add("close");
        }
    }
}
