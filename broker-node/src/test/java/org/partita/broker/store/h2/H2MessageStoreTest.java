package org.partita.broker.store.h2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.store.StoreBatch;
import org.partita.broker.store.StoreException;
import org.partita.broker.store.StoreFigures;
import org.partita.broker.store.StoreOp;
import org.partita.broker.store.StoredBranch;
import org.partita.broker.store.StoredEntry;
import org.partita.broker.store.StoredQueue;
import org.partita.broker.store.commit.ParkedWriter;
import org.partita.broker.store.journal.JournaledH2Target;

/**
 * The H2 store against a real database file in a temporary folder, with every commit forced to
 * disk as a node does by default: journaled here, committing into H2 directly in
 * {@link DirectH2MessageStoreTest}. Both must behave the same to their users.
 */
class H2MessageStoreTest {
    private static final String PARK_QUEUE = "park";
    private static final long PARK_ID = 1_000_000L;
    private static final String TOO_LONG = "q".repeat(JournaledH2Target.MAX_QUEUE_NAME + 1);

    @TempDir
    Path tmp;

    private Path dataDir;
    private H2MessageStore store;

    @BeforeEach
    void open() {
        dataDir = tmp.resolve("node");
        store = openStore(dataDir);
    }

    /** The layout under test. */
    H2MessageStore openStore(Path dir) {
        return H2MessageStore.open(dir, true);
    }

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    // ---------------------------------------------------------------- schema

    /**
     * Work a write's callback defers on the writer thread runs once the callbacks of its group have
     * all run: a queue's dispatch of a just-stored message waits until the sender's answer is out.
     */
    @Test
    void workDeferredOnTheWriterRunsAfterTheGroupsCallbacks() throws Exception {
        int onWriter = 0;
        for (int i = 1; i <= 50 && onWriter < 5; i++) {
            List<String> order = java.util.Collections.synchronizedList(new ArrayList<>());
            boolean[] onWriterThread = new boolean[2];
            CompletableFuture<Void> written =
                    store.write(new StoreBatch().add(new StoreOp.InsertMessage(i, bytes("m" + i))));
            CompletableFuture<Void> dispatched = written.thenRun(() -> {
                onWriterThread[0] = store.onWriterThread();
                order.add("stored");
                store.afterConfirmations(() -> order.add("deferred"));
            });
            dispatched
                    .thenRun(() -> {
                        onWriterThread[1] = store.onWriterThread();
                        order.add("answered");
                    })
                    .get(5, TimeUnit.SECONDS);
            if (!onWriterThread[0] || !onWriterThread[1]) {
                // the write completed before a callback attached, which then ran on this thread, after
                // the writer had moved on: not the writer's own sequence, which is what is checked here
                continue;
            }
            onWriter++;
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> order.size() == 3);
            assertEquals(List.of("stored", "answered", "deferred"), order);
        }
        assertTrue(onWriter > 0, "no write completed on the writer thread");
    }

    @Test
    void xaBranchesSurviveAReopenUntilDeleted() throws Exception {
        byte[] xid = {0, 0, 0, 1, 2, 9, 9, 0};
        byte[] data = bytes("what the branch commits");
        await(store.write(new StoreBatch().add(new StoreOp.SaveBranch(xid, 1, data))));
        await(store.write(new StoreBatch().add(new StoreOp.SaveBranch(new byte[] {5}, 1, data))));
        await(store.write(new StoreBatch().add(new StoreOp.DeleteBranch(new byte[] {5}))));
        store.close();
        store = openStore(dataDir);
        List<StoredBranch> branches = store.loadBranches();
        assertEquals(1, branches.size());
        assertTrue(java.util.Arrays.equals(xid, branches.get(0).xid()));
        assertEquals(1, branches.get(0).state());
        assertTrue(java.util.Arrays.equals(data, branches.get(0).data()));
        await(store.write(new StoreBatch().add(new StoreOp.DeleteBranch(xid))));
        store.close();
        store = openStore(dataDir);
        assertEquals(List.of(), store.loadBranches());
    }

    @Test
    void aVersion2FolderIsUpgradedWithABranchTable() throws Exception {
        await(store.write(new StoreBatch()
                .add(new StoreOp.InsertMessage(1, bytes("kept")))
                .add(new StoreOp.InsertEntry("q", 1))));
        store.close();
        store = null;
        try (Connection c = jdbc();
                Statement s = c.createStatement()) {
            s.execute("DROP TABLE XA_BRANCHES");
        }
        setSchemaVersion(2);
        store = openStore(dataDir);
        assertEquals(List.of(), store.loadBranches());
        assertEquals(1, entries().size(), "the queued message is still there");
        await(store.write(new StoreBatch().add(new StoreOp.SaveBranch(new byte[] {1}, 1, new byte[] {2}))));
        assertEquals(1, store.loadBranches().size());
        store.close();
        store = null;
        try (Connection c = jdbc();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT VERSION FROM PARTITA_SCHEMA")) {
            rs.next();
            assertEquals(3, rs.getInt(1));
        }
    }

    @Test
    void schemaIsCreatedOnFirstOpenWithItsVersion() throws SQLException {
        store.close();
        store = null;
        try (Connection c = jdbc();
                Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT VERSION FROM PARTITA_SCHEMA")) {
                assertTrue(rs.next());
                assertEquals(H2Schema.VERSION, rs.getInt(1));
                assertFalse(rs.next(), "exactly one version row");
            }
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES"
                    + " WHERE TABLE_SCHEMA = 'PUBLIC' ORDER BY TABLE_NAME")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            assertEquals(
                    List.of("ENTRIES", "MESSAGES", "MESSAGE_HEADS", "PARTITA_SCHEMA", "QUEUES", "XA_BRANCHES"), tables);
        }
        // A second open finds the schema and accepts it.
        store = openStore(dataDir);
        assertEquals(new StoreFigures(0, 0, 0), store.figures());
    }

    @Test
    void storeWithAnotherSchemaVersionIsRefusedWithAClearMessage() throws SQLException {
        store.close();
        store = null;
        setSchemaVersion(H2Schema.VERSION + 1);

        StoreException e = assertThrows(StoreException.class, () -> openStore(dataDir));
        String m = e.getMessage();
        assertTrue(m.contains(dataDir.toAbsolutePath().toString()), m);
        assertTrue(m.contains("schema version " + (H2Schema.VERSION + 1)), m);
        assertTrue(m.contains("understands version " + H2Schema.VERSION), m);
    }

    /** A refused open must not keep the database open (and its file locked) behind the caller's back. */
    @Test
    void refusedOpenLeavesTheDatabaseClosed() throws SQLException {
        store.close();
        store = null;
        setSchemaVersion(H2Schema.VERSION + 1);
        assertThrows(StoreException.class, () -> openStore(dataDir));

        try (Connection c = jdbc();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS")) {
            rs.next();
            assertEquals(1, rs.getInt(1), "sessions open on the refused database besides this one");
        }
    }

    // ---------------------------------------------------------------- write and read back

    @Test
    void queuesAndEntriesAreReadBackOrderedByQueueThenId() throws Exception {
        await(store.write(new StoreBatch()
                .add(new StoreOp.SaveQueue("b", "queue", "priority=1"))
                .add(new StoreOp.SaveQueue("a", "queue", null))));
        await(store.write(send("b", 5, "b5")));
        await(store.write(send("a", 9, "a9")));
        await(store.write(send("a", 3, "a3")));
        await(store.write(send("b", 1, "b1")));
        // One payload held by two queues (fan-out): stored once, two entries.
        await(store.write(new StoreBatch()
                .add(new StoreOp.InsertMessage(7, bytes("both")))
                .add(new StoreOp.InsertEntry("b", 7))
                .add(new StoreOp.InsertEntry("a", 7))));

        assertEquals(
                List.of(new StoredQueue("a", "queue", null), new StoredQueue("b", "queue", "priority=1")),
                store.loadQueues());

        List<StoredEntry> entries = entries();
        assertEquals(List.of("a:3", "a:7", "a:9", "b:1", "b:5", "b:7"), keys(entries));
        assertEquals("a3", text(entries.get(0)));
        assertEquals("both", text(entries.get(1)));
        assertEquals("both", text(entries.get(5)));
        entries.forEach(e -> assertEquals(0, e.deliveryCount()));

        assertEquals(9, store.maxMessageId());
        assertEquals(new StoreFigures(5, 2 + 2 + 2 + 2 + 4, 6), store.figures());
    }

    @Test
    void savingAQueueAgainReplacesItsDefinition() throws Exception {
        await(store.write(new StoreBatch().add(new StoreOp.SaveQueue("q", "queue", "priority=1"))));
        await(store.write(new StoreBatch().add(new StoreOp.SaveQueue("q", "queue", "priority=2"))));
        assertEquals(List.of(new StoredQueue("q", "queue", "priority=2")), store.loadQueues());
    }

    @Test
    void emptyStoreHasNoMaxIdAndNoRows() {
        assertEquals(0, store.maxMessageId());
        assertEquals(new StoreFigures(0, 0, 0), store.figures());
        assertEquals(List.of(), store.loadQueues());
        assertEquals(List.of(), entries());
    }

    @Test
    void deliveryCountIsUpdated() throws Exception {
        await(store.write(send("q", 1, "x")));
        await(store.write(new StoreBatch().add(new StoreOp.UpdateDeliveryCount("q", 1, 3))));
        assertEquals(3, entries().get(0).deliveryCount());
    }

    @Test
    void entriesAndMessagesAreDeleted() throws Exception {
        await(store.write(new StoreBatch()
                .add(new StoreOp.InsertMessage(1, bytes("one")))
                .add(new StoreOp.InsertEntry("a", 1))
                .add(new StoreOp.InsertEntry("b", 1))));
        await(store.write(send("a", 2, "two")));
        assertEquals(new StoreFigures(2, 6, 3), store.figures());

        // Acknowledged on one queue: its entry goes, the payload stays for the other.
        await(store.write(new StoreBatch().add(new StoreOp.DeleteEntry("a", 1))));
        assertEquals(List.of("a:2", "b:1"), keys(entries()));
        assertEquals(new StoreFigures(2, 6, 2), store.figures());

        // Acknowledged on the last queue: entry and payload go together.
        await(store.write(new StoreBatch().add(new StoreOp.DeleteEntry("b", 1)).add(new StoreOp.DeleteMessage(1))));
        assertEquals(List.of("a:2"), keys(entries()));
        assertEquals(new StoreFigures(1, 3, 1), store.figures());
        assertEquals(2, store.maxMessageId());
    }

    @Test
    void deletingAQueueRemovesItsDefinitionAndEntriesOnly() throws Exception {
        await(store.write(new StoreBatch()
                .add(new StoreOp.SaveQueue("a", "queue", null))
                .add(new StoreOp.SaveQueue("b", "queue", null))));
        await(store.write(send("a", 1, "a1")));
        await(store.write(send("b", 2, "b2")));

        await(store.write(new StoreBatch().add(new StoreOp.DeleteQueue("a"))));

        assertEquals(List.of(new StoredQueue("b", "queue", null)), store.loadQueues());
        assertEquals(List.of("b:2"), keys(entries()));
        // Payloads are freed by the caller (DeleteMessage), not by DeleteQueue.
        assertEquals(new StoreFigures(2, 4, 1), store.figures());
    }

    @Test
    void everythingSurvivesCloseAndReopen() throws Exception {
        await(store.write(new StoreBatch().add(new StoreOp.SaveQueue("orders", "queue", "partitions=4"))));
        for (long id = 1; id <= 50; id++) {
            await(store.write(send("orders", id, "order-" + id)));
        }
        await(store.write(new StoreBatch().add(new StoreOp.UpdateDeliveryCount("orders", 7, 2))));
        await(store.write(
                new StoreBatch().add(new StoreOp.DeleteEntry("orders", 1)).add(new StoreOp.DeleteMessage(1))));
        store.close();

        store = openStore(dataDir);
        assertEquals(List.of(new StoredQueue("orders", "queue", "partitions=4")), store.loadQueues());
        List<StoredEntry> entries = entries();
        assertEquals(49, entries.size());
        assertEquals(2, entries.get(0).messageId());
        assertEquals("order-2", text(entries.get(0)));
        assertEquals(2, entries.get(5).deliveryCount(), "delivery count of message 7");
        assertEquals(50, store.maxMessageId());

        // And the reopened store takes writes again.
        await(store.write(send("orders", 51, "order-51")));
        assertEquals(50, store.figures().entryRows());
    }

    // ---------------------------------------------------------------- group commit

    @Test
    void emptyBatchCompletesAtOnce() {
        CompletableFuture<Void> f = store.write(new StoreBatch());
        assertTrue(f.isDone());
        assertFalse(f.isCompletedExceptionally());
    }

    @Test
    void writeReturnsAtOnceWhileTheWriterIsBusy() throws Exception {
        CountDownLatch release = parkWriter();
        try {
            long commitsBefore = store.commitCount();
            CompletableFuture<Void> f =
                    assertTimeoutPreemptively(Duration.ofSeconds(2), () -> store.write(send("q", 1, "x")));
            // The writer is provably parked (it is inside the parking read until released), so the
            // batch can only be committed after the release below: no waiting needed to show it.
            assertFalse(f.isDone(), "the batch cannot be committed while the writer is parked");
            assertEquals(commitsBefore, store.commitCount(), "nothing was committed while the writer was parked");
            release.countDown();
            await(f);
            assertEquals(commitsBefore + 1, store.commitCount(), "the release let the batch commit");
        } finally {
            release.countDown();
        }
        assertEquals(List.of("park:" + PARK_ID, "q:1"), keys(entries()));
    }

    @Test
    void batchesWaitingTogetherShareOneCommit() throws Exception {
        CountDownLatch release = parkWriter();
        long before = store.commitCount();
        List<CompletableFuture<Void>> fs = new ArrayList<>();
        for (long id = 1; id <= 100; id++) {
            fs.add(store.write(send("q", id, "m" + id)));
        }
        release.countDown();
        for (CompletableFuture<Void> f : fs) {
            await(f);
        }
        assertEquals(1, store.commitCount() - before, "100 batches queued behind a busy writer commit once");
        assertEquals(101, store.figures().entryRows());
    }

    @Test
    void failingBatchFailsOnlyItsOwnFuture() throws Exception {
        CountDownLatch release = parkWriter();
        CompletableFuture<Void> a = store.write(send("q", 10, "a"));
        // A queue name the store cannot hold, in the middle of the group.
        CompletableFuture<Void> b = store.write(new StoreBatch()
                .add(new StoreOp.InsertMessage(11, bytes("b")))
                .add(new StoreOp.InsertEntry("q", 11))
                .add(new StoreOp.InsertEntry(TOO_LONG, 11)));
        CompletableFuture<Void> c = store.write(send("q", 12, "c"));
        release.countDown();

        await(a);
        await(c);
        ExecutionException e = assertThrows(ExecutionException.class, () -> b.get(30, TimeUnit.SECONDS));
        assertInstanceOf(StoreException.class, e.getCause());
        assertTrue(
                e.getCause().getMessage().startsWith("store write failed"),
                e.getCause().getMessage());

        // The failed batch left nothing behind, its neighbours are stored.
        assertEquals(List.of("park:" + PARK_ID, "q:10", "q:12"), keys(entries()));
        assertEquals(new StoreFigures(3, "park".length() + 2, 3), store.figures());

        // And the writer carries on.
        await(store.write(send("q", 13, "d")));
        assertEquals(4, store.figures().entryRows());
    }

    @Test
    void aBatchIsAtomic() throws Exception {
        await(store.write(send("q", 1, "x")));
        CompletableFuture<Void> f = store.write(new StoreBatch()
                .add(new StoreOp.InsertMessage(2, bytes("y")))
                .add(new StoreOp.InsertEntry("r", 2))
                .add(new StoreOp.DeleteEntry("q", 1))
                .add(new StoreOp.InsertEntry(TOO_LONG, 1)));
        assertThrows(ExecutionException.class, () -> f.get(30, TimeUnit.SECONDS));
        assertEquals(List.of("q:1"), keys(entries()));
        assertEquals(new StoreFigures(1, 1, 1), store.figures());
    }

    @Test
    void manyConcurrentWritersAllCompleteWithFarFewerCommits() throws Exception {
        int threads = 8;
        int perThread = 200;
        long before = store.commitCount();
        List<List<CompletableFuture<Void>>> futures = new ArrayList<>();
        List<Thread> writers = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        for (int t = 0; t < threads; t++) {
            List<CompletableFuture<Void>> mine = java.util.Collections.synchronizedList(new ArrayList<>());
            futures.add(mine);
            int thread = t;
            Thread w = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < perThread; i++) {
                    long id = thread * 10_000L + i + 1;
                    mine.add(store.write(send("q" + thread, id, "p" + id)));
                }
            });
            writers.add(w);
            w.start();
        }
        start.countDown();
        for (Thread w : writers) {
            w.join(30_000);
        }
        for (List<CompletableFuture<Void>> mine : futures) {
            assertEquals(perThread, mine.size());
            CompletableFuture.allOf(mine.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        }

        long batches = (long) threads * perThread;
        long commits = store.commitCount() - before;
        assertTrue(
                commits >= 1 && commits <= batches / 10,
                "expected far fewer group commits than " + batches + " batches, got " + commits);

        assertEquals(new StoreFigures(batches, sumOfPayloadLengths(threads, perThread), batches), store.figures());
        List<StoredEntry> entries = entries();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            List<Long> ids = entries.stream()
                    .filter(e -> e.queue().equals("q" + thread))
                    .map(StoredEntry::messageId)
                    .toList();
            assertEquals(perThread, ids.size());
            for (int i = 0; i < perThread; i++) {
                assertEquals(thread * 10_000L + i + 1, ids.get(i));
            }
        }
    }

    @Test
    void producersThatWaitForEachConfirmationStillShareCommits() throws Exception {
        int threads = 8;
        int perThread = 50;
        long before = store.commitCount();
        List<Thread> writers = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread w = new Thread(() -> {
                try {
                    for (int i = 0; i < perThread; i++) {
                        long id = thread * 10_000L + i + 1;
                        store.write(send("q" + thread, id, "p" + id)).get(30, TimeUnit.SECONDS);
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            writers.add(w);
            w.start();
        }
        for (Thread w : writers) {
            w.join(60_000);
        }
        assertEquals(List.of(), failures);
        long batches = (long) threads * perThread;
        long commits = store.commitCount() - before;
        assertEquals(batches, store.figures().entryRows());
        assertTrue(
                commits < batches,
                "synchronous producers should share some commits: " + commits + " commits for " + batches + " batches");
    }

    // ---------------------------------------------------------------- order inside a group

    /** A queue created and deleted by one batch is gone: the ops of a batch apply in their order. */
    @Test
    void queueSavedThenDeletedInOneBatchStaysDeleted() throws Exception {
        await(store.write(new StoreBatch()
                .add(new StoreOp.SaveQueue("short-lived", "queue", null))
                .add(new StoreOp.DeleteQueue("short-lived"))));
        assertEquals(List.of(), store.loadQueues());
    }

    /**
     * A queue deleted and created again (then sent to) while the writer was busy: the later send
     * must survive the earlier delete even though both land in one group commit.
     */
    @Test
    void sendToARecreatedQueueSurvivesTheDeleteInTheSameGroup() throws Exception {
        await(store.write(new StoreBatch().add(new StoreOp.SaveQueue("q", "queue", "old"))));
        await(store.write(send("q", 1, "old")));
        CountDownLatch release = parkWriter();
        CompletableFuture<Void> delete =
                store.write(new StoreBatch().add(new StoreOp.DeleteQueue("q")).add(new StoreOp.DeleteMessage(1)));
        CompletableFuture<Void> recreate =
                store.write(new StoreBatch().add(new StoreOp.SaveQueue("q", "queue", "new")));
        CompletableFuture<Void> sent = store.write(send("q", 2, "new"));
        release.countDown();
        await(delete);
        await(recreate);
        await(sent);

        assertEquals(List.of(new StoredQueue("q", "queue", "new")), store.loadQueues());
        assertEquals(List.of("park:" + PARK_ID, "q:2"), keys(entries()), "the confirmed send to the new queue");
    }

    // ---------------------------------------------------------------- closed store

    @Test
    void writeAfterCloseFailsAtOnce() {
        store.close();
        CompletableFuture<Void> f = store.write(send("q", 1, "x"));
        assertTrue(f.isCompletedExceptionally());
        ExecutionException e = assertThrows(ExecutionException.class, f::get);
        assertInstanceOf(StoreException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains("closed"), e.getCause().getMessage());
    }

    @Test
    void readAfterCloseFailsInsteadOfHanging() {
        store.close();
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertThrows(StoreException.class, store::figures));
    }

    // ---------------------------------------------------------------- helpers

    /**
     * Holds the writer thread inside a read until the returned latch is released, so that the
     * batches written meanwhile wait together and form one group. Stores one entry in queue
     * {@value #PARK_QUEUE} (message {@value #PARK_ID}) for the read to stop on.
     */
    private CountDownLatch parkWriter() throws Exception {
        await(store.write(send(PARK_QUEUE, PARK_ID, PARK_QUEUE)));
        return ParkedWriter.park(store);
    }

    private static StoreBatch send(String queue, long id, String payload) {
        return new StoreBatch()
                .add(new StoreOp.InsertMessage(id, bytes(payload)))
                .add(new StoreOp.InsertEntry(queue, id));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(StoredEntry e) {
        return new String(e.payload(), StandardCharsets.UTF_8);
    }

    private static List<String> keys(List<StoredEntry> entries) {
        return entries.stream().map(e -> e.queue() + ":" + e.messageId()).toList();
    }

    private List<StoredEntry> entries() {
        List<StoredEntry> out = new ArrayList<>();
        store.loadEntries(out::add);
        return out;
    }

    private static long sumOfPayloadLengths(int threads, int perThread) {
        long sum = 0;
        for (int t = 0; t < threads; t++) {
            for (int i = 0; i < perThread; i++) {
                sum += ("p" + (t * 10_000L + i + 1)).length();
            }
        }
        return sum;
    }

    private static void await(CompletableFuture<Void> f) throws Exception {
        f.get(30, TimeUnit.SECONDS);
    }

    private Connection jdbc() throws SQLException {
        return DriverManager.getConnection(
                "jdbc:h2:file:" + dataDir.toAbsolutePath().resolve("partita"), "partita", "");
    }

    private void setSchemaVersion(int version) throws SQLException {
        try (Connection c = jdbc();
                Statement s = c.createStatement()) {
            assertEquals(1, s.executeUpdate("UPDATE PARTITA_SCHEMA SET VERSION = " + version));
        }
    }
}
