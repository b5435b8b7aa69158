package org.partita.broker.store.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.store.FaultyDisk;
import org.partita.broker.store.StoreBatch;
import org.partita.broker.store.StoreCounters;
import org.partita.broker.store.StoreException;
import org.partita.broker.store.StoreFigures;
import org.partita.broker.store.StoreOp;
import org.partita.broker.store.StoreUnavailableException;
import org.partita.broker.store.StoredEntry;
import org.partita.broker.store.commit.ParkedWriter;
import org.partita.broker.store.h2.H2BatchApplier;
import org.partita.broker.store.h2.H2MessageStore;
import org.partita.broker.store.h2.PayloadReader;

/**
 * What the write-ahead journal adds to the H2 store: message changes reach H2 only at a
 * checkpoint and only if still alive then, and what the journal confirmed survives a crash that
 * came before any checkpoint.
 */
class JournaledStoreTest {
    @TempDir
    Path tmp;

    private H2MessageStore store;

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    @Test
    void whatTheJournalConfirmedSurvivesACrashBeforeAnyCheckpoint() throws Exception {
        Path dir = tmp.resolve("node");
        Connection c = preparedNode(dir);
        JournalSegments file = JournalSegments.open(dir);
        JournaledH2Target target = new JournaledH2Target(new H2BatchApplier(c, () -> {}), file, 64L << 20);
        for (long id = 1; id <= 50; id++) {
            target.apply(List.of(send("q", id, 1000)));
        }
        for (long id = 1; id <= 10; id++) {
            target.apply(List.of(ack("q", id)));
        }
        target.apply(List.of(StoreBatch.relaxed().add(new StoreOp.UpdateDeliveryCount("q", 11, 3))));
        target.sync();
        assertEquals(0, count(c, "MESSAGES"), "nothing was checkpointed: H2 holds none of it");

        crash(c, file);

        store = H2MessageStore.open(dir, true);
        List<StoredEntry> entries = entries();
        assertEquals(40, entries.size());
        assertEquals(11, entries.get(0).messageId());
        assertEquals(3, entries.get(0).deliveryCount());
        assertArrayEquals(payload(11, 1000), entries.get(0).payload());
        assertEquals(50, entries.get(39).messageId());
    }

    @Test
    void aCheckpointCutShortByACrashIsCompletedByTheReplay() throws Exception {
        Path dir = tmp.resolve("node");
        Connection c = preparedNode(dir);
        H2BatchApplier h2 = new H2BatchApplier(c, () -> {});
        JournalSegments file = JournalSegments.open(dir);
        JournaledH2Target target = new JournaledH2Target(h2, file, 64L << 20);
        PendingChanges sameNetEffect = new PendingChanges();
        List<StoreBatch> batches = new ArrayList<>();
        for (long id = 1; id <= 300; id++) {
            batches.add(send("q", id, 100));
        }
        for (long id = 1; id <= 100; id++) {
            batches.add(ack("q", id));
        }
        batches.add(StoreBatch.relaxed().add(new StoreOp.UpdateDeliveryCount("q", 200, 4)));
        for (StoreBatch b : batches) {
            target.apply(List.of(b));
            b.ops().forEach(sameNetEffect::add);
        }
        target.sync();
        // The checkpoint had committed its first part when the process died.
        List<StoreOp> netEffect = sameNetEffect.toBatch().ops();
        StoreBatch firstPart = new StoreBatch();
        netEffect.subList(0, netEffect.size() / 2).forEach(firstPart::add);
        h2.apply(List.of(firstPart));
        crash(c, file);

        store = H2MessageStore.open(dir, true);
        List<StoredEntry> entries = entries();
        assertEquals(200, entries.size(), "messages 101 to 300, each once");
        assertEquals(101, entries.get(0).messageId());
        assertEquals(
                4,
                entries.stream()
                        .filter(e -> e.messageId() == 200)
                        .findFirst()
                        .orElseThrow()
                        .deliveryCount());
        assertEquals(new StoreFigures(200, 200 * 100, 200), store.figures());
    }

    @Test
    void messageChangesReachH2OnlyAtACheckpoint() throws Exception {
        Path dir = tmp.resolve("node");
        store = H2MessageStore.open(dir, true);
        try (Connection c = jdbc(dir)) {
            List<CompletableFuture<Void>> sent = new ArrayList<>();
            for (long id = 1; id <= 100; id++) {
                sent.add(store.write(send("q", id, 100)));
            }
            await(sent);
            assertEquals(0, count(c, "ENTRIES"), "confirmed by the journal, not yet in H2");
            assertEquals(100, store.figures().entryRows(), "a read checkpoints first");
            assertEquals(100, count(c, "ENTRIES"));
        }
    }

    @Test
    void messagesAcknowledgedBeforeTheCheckpointNeverCostH2AWrite() throws Exception {
        store = H2MessageStore.open(tmp.resolve("node"), true);
        long before = store.checkpointCount();
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (long id = 1; id <= 200; id++) {
            writes.add(store.write(send("q", id, 1000)));
            writes.add(store.write(ack("q", id)));
        }
        await(writes);
        assertEquals(new StoreFigures(0, 0, 0), store.figures());
        assertEquals(before, store.checkpointCount(), "the net effect was empty: nothing was written to H2");
        assertTrue(store.journalBytesAppended() > 200 * 1000, "every payload went through the journal");
    }

    @Test
    void aFullJournalIsCheckpointedAndReusedWhileNothingIsLost() throws Exception {
        Path dir = tmp.resolve("node");
        store = H2MessageStore.open(dir, true, H2MessageStore.Layout.JOURNALED, 64 * 1024);
        for (long id = 1; id <= 800; id++) { // one at a time, like a producer waiting for each confirmation
            await(List.of(store.write(send(id % 2 == 0 ? "even" : "odd", id, 8192))));
            if (id % 2 == 1) {
                await(List.of(store.write(ack("odd", id))));
            }
        }
        assertTrue(store.checkpointCount() >= 5, "checkpoints: " + store.checkpointCount());
        long journalSize = Files.size(dir.resolve(H2MessageStore.JOURNAL_FILE));
        assertTrue(
                journalSize <= 4 << 20,
                "6.5 MiB went through a journal reused in place, now " + journalSize + " bytes");
        store.close();

        store = H2MessageStore.open(dir, true);
        List<StoredEntry> entries = entries();
        assertEquals(400, entries.size());
        for (StoredEntry e : entries) {
            assertEquals("even", e.queue());
            assertArrayEquals(payload(e.messageId(), 8192), e.payload());
        }
    }

    @Test
    void aPayloadACrashLeftWithoutEntriesIsRemovedAtTheNextStart() throws Exception {
        Path dir = tmp.resolve("node");
        Connection c = preparedNode(dir);
        JournalSegments file = JournalSegments.open(dir);
        JournaledH2Target target = new JournaledH2Target(new H2BatchApplier(c, () -> {}), file, 64L << 20);
        target.apply(List.of(send("q", 1, 10), send("q", 2, 10)));
        // the entry's deletion was written, the crash came before the payload's own deletion
        target.apply(List.of(StoreBatch.relaxed().add(new StoreOp.DeleteEntry("q", 1))));
        target.sync();
        crash(c, file);

        store = H2MessageStore.open(dir, true);
        assertEquals(
                new StoreFigures(1, 10, 1), store.figures(), "message 1's payload went with the crash's leftovers");
    }

    @Test
    void manySmallDeletionsAreCheckpointedBeforeTheyFillTheHeap() throws Exception {
        Path dir = tmp.resolve("node");
        store = H2MessageStore.open(dir, true, H2MessageStore.Layout.JOURNALED, 64 * 1024);
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (long id = 1; id <= 2000; id++) {
            writes.add(store.write(send("q", id, 10)));
        }
        await(writes);
        store.figures(); // the 2,000 messages are in H2 now
        long before = store.checkpointCount();
        for (long id = 1; id <= 2000; id++) { // acknowledged one by one, as a consumer drains a backlog
            await(List.of(store.write(ack("q", id))));
        }
        // 4,000 deleted rows take about 500 KB of pending changes, far past the 64 KiB budget,
        // while their journal records take about 40 KB, under it
        assertTrue(
                store.checkpointCount() - before >= 3,
                "checkpoints while draining: " + (store.checkpointCount() - before));
        assertEquals(new StoreFigures(0, 0, 0), store.figures());
    }

    @Test
    void aLargeGroupIsWrittenAsSeveralRecordsOfWholeBatches() throws Exception {
        Path dir = tmp.resolve("node");
        Connection c = preparedNode(dir);
        JournalSegments file = JournalSegments.open(dir);
        JournaledH2Target target = new JournaledH2Target(new H2BatchApplier(c, () -> {}), file, 1L << 30);
        List<StoreBatch> group = new ArrayList<>();
        for (long id = 1; id <= 20; id++) {
            group.add(send("q", id, 1 << 20));
        }
        target.apply(group);
        target.sync();
        crash(c, file);

        int[] records = new int[1];
        try (JournalFile f = JournalFile.open(dir.resolve(H2MessageStore.JOURNAL_FILE))) {
            f.replay(body -> records[0]++);
        }
        assertEquals(3, records[0], "20 MiB in records of at most 8 MiB");
        store = H2MessageStore.open(dir, true);
        List<StoredEntry> entries = entries();
        assertEquals(20, entries.size());
        assertArrayEquals(payload(20, 1 << 20), entries.get(19).payload());
    }

    @Test
    void aCheckpointWhoseH2SyncFailedKeepsTheJournalAndIsRetried() throws Exception {
        java.util.concurrent.atomic.AtomicInteger syncs = new java.util.concurrent.atomic.AtomicInteger();
        Opened o = openTarget(() -> {
            if (syncs.incrementAndGet() == 1) {
                throw new StoreException("disk full", null);
            }
        });
        Connection c = o.connection();
        JournalSegments file = o.file();
        JournaledH2Target target = o.target();
        target.apply(List.of(send("q", 1, 10)));
        target.sync();
        assertThrows(StoreException.class, target::beforeRead);
        assertTrue(
                file.toReplay().stream().anyMatch(f -> f.used() > 0),
                "the closed segment still holds the send and is not marked checkpointed: H2 never confirmed it");
        target.beforeRead();
        assertEquals(2, syncs.get(), "the next checkpoint forces H2 again instead of trusting the failed one");
        assertTrue(file.toReplay().stream().allMatch(f -> f.used() == 0), "every segment with records is checkpointed");
        crash(c, file);
    }

    @Test
    void aMessageAcknowledgedAfterAFailedCheckpointIsDeletedFromH2() throws Exception {
        java.util.concurrent.atomic.AtomicInteger syncs = new java.util.concurrent.atomic.AtomicInteger();
        Opened o = openTarget(() -> {
            if (syncs.incrementAndGet() == 1) {
                throw new StoreException("disk full", null);
            }
        });
        Connection c = o.connection();
        JournalSegments file = o.file();
        JournaledH2Target target = o.target();
        target.apply(List.of(send("q", 1, 10)));
        assertThrows(StoreException.class, target::beforeRead); // H2 now holds message 1, unconfirmed
        target.apply(List.of(ack("q", 1)));
        target.beforeRead();
        assertEquals(0, count(c, "MESSAGES"), "the acknowledgement reached the rows H2 already had");
        assertEquals(0, count(c, "ENTRIES"));
        crash(c, file);
    }

    @Test
    void onlyACleanStopIsRecordedAsClean() throws Exception {
        Path dir = tmp.resolve("node");
        store = H2MessageStore.open(dir, true);
        await(List.of(store.write(send("q", 1, 10))));
        assertFalse(headerSaysClean(dir), "a running node's journal would not be trusted after a crash");
        store.close();
        assertTrue(headerSaysClean(dir));
        store = H2MessageStore.open(dir, true);
        assertFalse(headerSaysClean(dir));
        assertEquals(1, entries().size());
    }

    @Test
    void appendsAndSyncsGoOnWhileH2TakesTheClosedSegment() throws Exception {
        java.util.concurrent.CountDownLatch inH2Sync = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch h2Released = new java.util.concurrent.CountDownLatch(1);
        Opened o = openTarget(() -> {
            inH2Sync.countDown();
            try {
                assertTrue(h2Released.await(30, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        JournaledH2Target target = o.target();
        for (long id = 1; id <= 100; id++) {
            target.apply(List.of(send("q", id, 1000)));
        }
        target.sync();
        target.settled();
        // The writer's side: close the segment (as a full journal or an idle writer does), go on appending.
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            try {
                target.idle();
                for (long id = 101; id <= 200; id++) {
                    target.apply(List.of(send("q", id, 1000)));
                    target.sync();
                    target.settled();
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertTrue(inH2Sync.await(30, TimeUnit.SECONDS), "the closed segment's checkpoint reached H2's sync");
        writer.get(30, TimeUnit.SECONDS); // 100 groups appended and synced while H2's sync is held
        assertEquals(1, h2Released.getCount(), "H2's sync was still held");
        assertTrue(o.file().toReplay().stream().anyMatch(f -> f.used() > 0), "the closed segment is not marked yet");
        h2Released.countDown();
        target.beforeRead();
        assertEquals(200, count(o.connection(), "ENTRIES"));
        crash(o.connection(), o.file());
    }

    @Test
    void theWriterFindsTheSpaceOfBothFilesPreparedAheadOfItsAppends() throws Exception {
        Path dir = tmp.resolve("node");
        Connection c = preparedNode(dir);
        Files.deleteIfExists(
                dir.resolve(JournalSegments.FILE_NAMES.get(1))); // a second file yet to be made, as at a first start
        JournalSegments segments = JournalSegments.open(dir);
        // 5 MiB segments: the first file grows past its first 4 MiB step, the second is made and grows likewise
        long pastAStep = (4L << 20) + (512 << 10);
        JournaledH2Target target = new JournaledH2Target(new H2BatchApplier(c, () -> {}), segments, 10L << 20);
        StoreCounters counters = new StoreCounters();
        target.counters(counters);
        JournalFile second = segments.after(segments.newest());
        long id = 1;
        for (;
                id <= 5_000 && second.used() < pastAStep;
                id++) { // persistent 4 KiB sends, each synced, as producers send
            target.apply(List.of(send("q", id, 4096)));
            target.sync();
            target.settled();
        }
        assertTrue(second.used() >= pastAStep, "the second file took a segment's appends: " + second.used());
        assertTrue(second.fileSize() > JournalFile.ALLOCATION_STEP, "and grew past its first step");
        assertEquals(0, counters.writerAllocatedBytes(), "the writer never zero-filled space itself");
        target.beforeRead();
        assertEquals(id - 1, count(c, "ENTRIES"));
        crash(c, segments);
    }

    @Test
    void aFullSegmentWaitsForThePreviousCheckpointBeforeItsFileIsReused() throws Exception {
        Path dir = tmp.resolve("node");
        Connection c = preparedNode(dir);
        java.util.concurrent.CountDownLatch h2Released = new java.util.concurrent.CountDownLatch(1);
        H2BatchApplier h2 = new H2BatchApplier(c, () -> {
            try {
                assertTrue(h2Released.await(30, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        JournalSegments segments = JournalSegments.open(dir);
        JournaledH2Target target = new JournaledH2Target(h2, segments, 64 * 1024);
        // 1 KiB sends: the first segment closes after about 50, the second fills while H2's sync is held.
        CompletableFuture<Long> writer = CompletableFuture.supplyAsync(() -> {
            try {
                long id = 1;
                for (; id <= 200; id++) {
                    target.apply(List.of(send("q", id, 1024)));
                    target.sync();
                    target.settled();
                }
                return id;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertThrows(
                java.util.concurrent.TimeoutException.class,
                () -> writer.get(2, TimeUnit.SECONDS),
                "the journal does not grow past two segments while H2 lags");
        h2Released.countDown();
        assertEquals(201L, writer.get(30, TimeUnit.SECONDS));
        target.beforeRead();
        assertEquals(200, count(c, "ENTRIES"));
        crash(c, segments);
    }

    @Test
    void aCheckpointThatFailsBesideTheAppendsStopsTheStoreWhichResumesWithEveryConfirmedSend() throws Exception {
        Path dir = tmp.resolve("node");
        FaultyDisk disk = new FaultyDisk(dir);
        store = H2MessageStore.open(dir, 64 * 1024, disk);
        List<Long> confirmed = new ArrayList<>();
        long id = 1;
        for (; id <= 30; id++) {
            store.write(send("q", id, 1024)).get(30, TimeUnit.SECONDS);
            confirmed.add(id);
        }
        disk.fail(FaultyDisk.Fault.WRITES, FaultyDisk::database); // H2 cannot write: the next checkpoint fails
        Throwable refusal = null;
        for (; id <= 400 && refusal == null; id++) { // the segment closes after about 50 sends
            try {
                store.write(send("q", id, 1024)).get(30, TimeUnit.SECONDS);
                confirmed.add(id);
            } catch (java.util.concurrent.ExecutionException e) {
                refusal = e.getCause();
            }
        }
        assertTrue(refusal instanceof StoreUnavailableException, "the failed checkpoint stopped the store: " + refusal);
        disk.heal();
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(30))
                .until(
                        () -> { // the store reopens by itself
                            try {
                                store.write(send("q", 1000, 1024)).get(30, TimeUnit.SECONDS);
                                return true;
                            } catch (java.util.concurrent.ExecutionException stillFaulted) {
                                return false;
                            }
                        });
        confirmed.add(1000L);
        assertEquals(
                confirmed,
                entries().stream().map(StoredEntry::messageId).toList(),
                "every confirmed send once, none that was refused");
        store.close();
        store = H2MessageStore.open(dir, true);
        assertEquals(confirmed, entries().stream().map(StoredEntry::messageId).toList());
    }

    @Test
    void aJournalLeftByTheOneFileVersionIsReplayed() throws Exception {
        Path dir = tmp.resolve("node");
        Connection c = preparedNode(dir);
        JournalSegments segments = JournalSegments.open(dir);
        JournaledH2Target target = new JournaledH2Target(new H2BatchApplier(c, () -> {}), segments, 64L << 20);
        for (long id = 1; id <= 20; id++) {
            target.apply(List.of(send("q", id, 100)));
        }
        target.apply(List.of(ack("q", 1)));
        target.sync();
        crash(c, segments);
        // What a node of the previous version leaves after a crash: one file, header version 1.
        Files.delete(dir.resolve(H2MessageStore.JOURNAL_FILE + ".2"));
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(
                dir.resolve(H2MessageStore.JOURNAL_FILE), java.nio.file.StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.allocate(4).putInt(0, 1), 4);
        }

        store = H2MessageStore.open(dir, true);
        assertEquals(19, entries().size());
        assertEquals(2, entries().get(0).messageId());
        assertTrue(Files.exists(dir.resolve(H2MessageStore.JOURNAL_FILE + ".2")));
    }

    @Test
    void aCheckpointCommitsPayloadsAndTheirDeletionsInTransactionsBoundedByBytes() throws Exception {
        Path dir = tmp.resolve("node");
        Connection c = preparedNode(dir);
        JournalSegments segments = JournalSegments.open(dir);
        JournaledH2Target target =
                new JournaledH2Target(new H2BatchApplier(c, () -> {}), segments, 64L << 20, 1000 * 1024);
        java.util.concurrent.atomic.AtomicInteger parts = new java.util.concurrent.atomic.AtomicInteger();
        target.afterCheckpointPart(parts::incrementAndGet);
        for (long id = 1; id <= 6; id++) {
            target.apply(List.of(send("q", id, 400 * 1024)));
        }
        target.sync();
        target.settled();
        target.beforeRead();
        assertEquals(3, parts.getAndSet(0), "two payloads of 400 KiB to a transaction of 1000 KiB");
        assertEquals(6, count(c, "MESSAGES"));
        for (long id = 1; id <= 6; id++) {
            target.apply(List.of(StoreBatch.relaxed()
                    .add(new StoreOp.DeleteEntry("q", id))
                    .add(new StoreOp.DeleteMessage(id, 400 * 1024))));
        }
        target.sync();
        target.settled();
        target.beforeRead();
        assertEquals(3, parts.get(), "deleting a row loads its payload: deletions count it too");
        assertEquals(0, count(c, "MESSAGES"));
        crash(c, segments);
    }

    @Test
    void aGroupThatWouldTakeTheSegmentPastItsShareGoesToTheNextSegment() throws Exception {
        Path dir = tmp.resolve("node");
        Connection c = preparedNode(dir);
        JournalSegments segments = JournalSegments.open(dir);
        List<Runnable> heldCheckpoints = new ArrayList<>();
        // segments of 1 MiB: the first send fills 600 KiB of one, the second would take it to 1.2 MiB
        JournaledH2Target target = new JournaledH2Target(
                new H2BatchApplier(c, () -> {}), segments, 2L << 20, 1L << 20, heldCheckpoints::add);
        target.apply(List.of(send("q", 1, 600 * 1024)));
        target.sync();
        target.settled();
        assertEquals(0, heldCheckpoints.size());
        target.apply(List.of(send("q", 2, 600 * 1024)));
        assertEquals(1, heldCheckpoints.size(), "the segment closed before the second send, not after it");
        assertArrayEquals(
                payload(1, 600 * 1024), target.pendingPayload(1), "the closed segment's payload, until H2 has it");
        heldCheckpoints.forEach(Runnable::run);
        crash(c, segments);
    }

    @Test
    void batchesWaitingTogetherPastASegmentAreCommittedInGroupsThatEachFitOne() throws Exception {
        store = H2MessageStore.open(tmp.resolve("node"), true, H2MessageStore.Layout.JOURNALED, 2L << 20);
        store.write(send("park", 1, 10)).get(10, TimeUnit.SECONDS);
        java.util.concurrent.CountDownLatch release = ParkedWriter.park(store);
        long before = store.commitCount();
        List<CompletableFuture<Void>> sends = new ArrayList<>();
        try {
            for (long id = 2; id <= 4; id++) {
                sends.add(store.write(send("q", id, 600 * 1024)));
            }
        } finally {
            release.countDown();
        }
        await(sends);
        assertEquals(3, store.commitCount() - before, "three sends of 600 KiB against segments of 1 MiB: a group each");
        assertEquals(4, entries().size());
    }

    /** Where a crash stops the checkpoint of a closed segment while appends went on in the next one. */
    enum RotationCrash {
        /** The segment is closed and the next one holds records, H2 has none of the closed one. */
        BEFORE_THE_CHECKPOINT_RAN,
        /** Half of the closed segment's net effect is committed in H2. */
        HALF_OF_THE_CHECKPOINT_COMMITTED,
        /** All of it is committed, the segment not yet marked checkpointed (its file not freed). */
        COMMITTED_NOT_MARKED,
        /** The checkpoint is complete and the segment marked. */
        MARKED
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(RotationCrash.class)
    void aCrashAtAnyStepOfARotationLosesNothingConfirmedAndBringsBackNothingAcknowledged(RotationCrash at)
            throws Exception {
        Path dir = tmp.resolve("node");
        Connection c = preparedNode(dir);
        java.util.concurrent.atomic.AtomicBoolean syncFails = new java.util.concurrent.atomic.AtomicBoolean();
        H2BatchApplier h2 = new H2BatchApplier(c, () -> {
            if (syncFails.get()) {
                throw new StoreException("the process died here", null);
            }
        });
        JournalSegments segments = JournalSegments.open(dir);
        List<Runnable> heldCheckpoints = new ArrayList<>();
        JournaledH2Target target = new JournaledH2Target(h2, segments, 64L << 20, 64L << 20, heldCheckpoints::add);
        // First segment: 300 sends, 100 acknowledged, one redelivery count.
        PendingChanges firstSegment = new PendingChanges();
        List<StoreBatch> first = new ArrayList<>();
        for (long id = 1; id <= 300; id++) {
            first.add(send("q", id, 100));
        }
        for (long id = 1; id <= 100; id++) {
            first.add(ack("q", id));
        }
        first.add(StoreBatch.relaxed().add(new StoreOp.UpdateDeliveryCount("q", 200, 4)));
        for (StoreBatch b : first) {
            target.apply(List.of(b));
            b.ops().forEach(firstSegment::add);
        }
        target.sync();
        target.settled();
        target.idle(); // closes the segment; its checkpoint waits on the (held) checkpoint thread
        assertEquals(1, heldCheckpoints.size());
        // Second segment, depending on the first: it acknowledges messages the first one sent.
        for (long id = 101; id <= 200; id++) {
            target.apply(List.of(ack("q", id)));
        }
        for (long id = 301; id <= 350; id++) {
            target.apply(List.of(send("q", id, 100)));
        }
        for (long id = 301; id <= 310; id++) {
            target.apply(List.of(ack("q", id)));
        }
        target.apply(List.of(StoreBatch.relaxed().add(new StoreOp.UpdateDeliveryCount("q", 250, 7))));
        target.sync();
        target.settled();
        target.apply(List.of(send("q", 999, 100))); // a group whose sync failed: answered with an error
        target.abandon();

        switch (at) {
            case BEFORE_THE_CHECKPOINT_RAN -> {}
            case HALF_OF_THE_CHECKPOINT_COMMITTED -> {
                List<StoreOp> netEffect = firstSegment.toBatch().ops();
                StoreBatch half = new StoreBatch();
                netEffect.subList(0, netEffect.size() / 2).forEach(half::add);
                h2.apply(List.of(half));
            }
            case COMMITTED_NOT_MARKED -> {
                syncFails.set(true);
                heldCheckpoints.get(0).run();
            }
            case MARKED -> heldCheckpoints.get(0).run();
        }
        crash(c, segments);

        store = H2MessageStore.open(dir, true);
        List<StoredEntry> entries = entries();
        List<Long> ids = entries.stream().map(StoredEntry::messageId).toList();
        List<Long> expected = new ArrayList<>();
        for (long id = 201; id <= 300; id++) {
            expected.add(id);
        }
        for (long id = 311; id <= 350; id++) {
            expected.add(id);
        }
        assertEquals(expected, ids, "each confirmed, unacknowledged message once; nothing acknowledged or refused");
        assertEquals(
                7,
                entries.stream()
                        .filter(e -> e.messageId() == 250)
                        .findFirst()
                        .orElseThrow()
                        .deliveryCount());
        assertArrayEquals(
                payload(320, 100),
                entries.stream()
                        .filter(e -> e.messageId() == 320)
                        .findFirst()
                        .orElseThrow()
                        .payload());
        assertEquals(new StoreFigures(140, 140 * 100, 140), store.figures());
        store.close();
        store = H2MessageStore.open(dir, true);
        assertEquals(
                expected,
                entries().stream().map(StoredEntry::messageId).toList(),
                "replayed segments are marked: a second start applies none of them again");
    }

    @Test
    void aCheckpointInProgressLetsGoOfEachPartsPayloadsOnceH2HasThemAndEveryPayloadStaysReadable() throws Exception {
        Path dir = tmp.resolve("node");
        Connection c = preparedNode(dir);
        JournalSegments segments = JournalSegments.open(dir);
        List<Runnable> heldCheckpoints = new ArrayList<>();
        JournaledH2Target target = new JournaledH2Target(
                new H2BatchApplier(c, () -> {}), segments, 64L << 20, 64L << 20, heldCheckpoints::add);
        StoreCounters counters = new StoreCounters();
        target.counters(counters);
        // The closed segment: 3,000 sends of 1 KiB, a net effect of 6,000 changes, 6 parts; the payloads come first.
        int sends = 3000;
        int size = 1024;
        for (long id = 1; id <= sends; id++) {
            target.apply(List.of(send("q", id, size)));
        }
        target.sync();
        target.settled();
        target.idle(); // closes the segment; its checkpoint waits on the (held) checkpoint thread
        assertEquals(1, heldCheckpoints.size());
        // The current segment deletes 100 messages of the closed one and sends 10 of its own.
        List<Long> readable = new ArrayList<>();
        for (long id = 1; id <= 100; id++) {
            target.apply(List.of(ack("q", id)));
        }
        for (long id = 1; id <= sends; id++) {
            readable.add(id);
        }
        for (long id = 5001; id <= 5010; id++) {
            target.apply(List.of(send("q", id, size)));
            readable.add(id);
        }
        target.sync();
        target.settled();

        java.util.concurrent.Semaphore atBoundary = new java.util.concurrent.Semaphore(0);
        java.util.concurrent.Semaphore goOn = new java.util.concurrent.Semaphore(0);
        target.afterCheckpointPart(() -> {
            atBoundary.release();
            try {
                assertTrue(goOn.tryAcquire(30, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        List<Long> pendingBytes = new ArrayList<>();
        List<Integer> pendingPayloads = new ArrayList<>();
        CompletableFuture<Void> checkpoint = CompletableFuture.runAsync(heldCheckpoints.get(0));
        try (PayloadReader reader = new PayloadReader(jdbc(dir))) {
            for (int part = 1; part <= 6; part++) {
                assertTrue(atBoundary.tryAcquire(30, TimeUnit.SECONDS), "part " + part + " committed");
                assertTrue(counters.checkpointInProgress());
                pendingBytes.add(counters.checkpointPendingBytes());
                int pending = 0;
                for (long id : readable) { // as H2MessageStore.readPayload reads: pending changes, else H2
                    byte[] held = target.pendingPayload(id);
                    pending += held != null && id <= sends ? 1 : 0;
                    assertArrayEquals(payload(id, size), held != null ? held : reader.read(id), "message " + id);
                }
                pendingPayloads.add(pending);
                goOn.release();
            }
            checkpoint.get(30, TimeUnit.SECONDS);
        }
        long kib = size;
        assertEquals(
                List.of(2000 * kib, 1000 * kib, 0L, 0L, 0L, 0L),
                pendingBytes,
                "the closed segment's payloads held by the checkpoint, after each part");
        assertEquals(
                List.of(2000, 1000, 0, 0, 0, 0), pendingPayloads, "payloads still answered from the closed segment");
        assertEquals(0, counters.checkpointPendingBytes());
        assertFalse(counters.checkpointInProgress());
        assertEquals(sends, count(c, "MESSAGES"), "H2 has the closed segment's messages; the current one's wait");
        crash(c, segments);
    }

    // ---------------------------------------------------------------- helpers

    private record Opened(Connection connection, JournalSegments file, JournaledH2Target target) {}

    /** A journaled target over a node folder, driven directly, with {@code h2Sync} as H2's disk sync. */
    private Opened openTarget(Runnable h2Sync) throws Exception {
        Path dir = tmp.resolve("node");
        Connection c = preparedNode(dir);
        JournalSegments file = JournalSegments.open(dir);
        return new Opened(c, file, new JournaledH2Target(new H2BatchApplier(c, h2Sync), file, 64L << 20));
    }

    /**
     * A node folder as after a first start (schema and journal made, the store closed), and a
     * connection to its H2 with auto-commit off, for a journaled target driven directly.
     */
    private static Connection preparedNode(Path dir) throws Exception {
        H2MessageStore.open(dir, true).close();
        Connection c = jdbc(dir);
        c.setAutoCommit(false);
        return c;
    }

    /** Whether the journal's newest segment says the node stopped cleanly. */
    private static boolean headerSaysClean(Path dir) throws Exception {
        try (JournalSegments segments = JournalSegments.open(dir)) {
            return segments.newest().closedCleanly();
        }
    }

    /** The process dies: H2 closes without cleanup, the journal is left as it is. */
    private static void crash(Connection c, JournalSegments file) throws Exception {
        try (Statement s = c.createStatement()) {
            s.execute("SHUTDOWN IMMEDIATELY");
        } catch (SQLException expectedAsTheDatabaseGoesAway) {
            // the connection may report its own closing
        }
        file.close();
    }

    private static StoreBatch send(String queue, long id, int size) {
        return new StoreBatch()
                .add(new StoreOp.InsertMessage(id, payload(id, size)))
                .add(new StoreOp.InsertEntry(queue, id));
    }

    private static StoreBatch ack(String queue, long id) {
        return StoreBatch.relaxed().add(new StoreOp.DeleteEntry(queue, id)).add(new StoreOp.DeleteMessage(id));
    }

    private static byte[] payload(long id, int size) {
        byte[] b = new byte[size];
        Arrays.fill(b, (byte) id);
        return b;
    }

    private List<StoredEntry> entries() {
        List<StoredEntry> out = new ArrayList<>();
        store.loadEntries(out::add);
        return out;
    }

    private static void await(List<CompletableFuture<Void>> fs) throws Exception {
        for (CompletableFuture<Void> f : fs) {
            f.get(30, TimeUnit.SECONDS);
        }
    }

    private static Connection jdbc(Path dir) throws SQLException {
        return DriverManager.getConnection(
                "jdbc:h2:file:" + dir.toAbsolutePath().resolve("partita") + ";DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0",
                "partita",
                "");
    }

    private static long count(Connection c, String table) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
