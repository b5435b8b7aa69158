package org.partita.broker.store.commit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.network.flow.EventLoopTurns;
import org.partita.broker.store.FaultyDisk;
import org.partita.broker.store.StoreBatch;
import org.partita.broker.store.StoreCounters;
import org.partita.broker.store.StoreOp;
import org.partita.broker.store.h2.H2MessageStore;

/**
 * What a network thread writes during one turn over its connections is committed when the turn ends,
 * as one group, by that thread itself while the writer is idle and syncs are short; otherwise the
 * whole turn goes to the writer thread (issue 17, docs/performance.md step 18). A real Netty I/O
 * event loop writes to a real journaled store on the disk.
 */
class TurnCommitsTest {
    private static final String WRITER = "partita-store-writer";

    @TempDir
    Path tmp;

    private FaultyDisk disk;
    private H2MessageStore store;
    private StoreCounters counters;
    private EventLoopGroup loops;
    private EventLoop loop;

    @BeforeEach
    void open() {
        disk = new FaultyDisk(tmp.resolve("node"));
        store = H2MessageStore.open(tmp.resolve("node"), H2MessageStore.DEFAULT_CHECKPOINT_BYTES, disk);
        store.commitAtEndOfTurns(EventLoopTurns.INSTANCE);
        counters = store.counters().orElseThrow();
        loops = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        loop = loops.next();
    }

    @AfterEach
    void close() {
        loops.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
        store.close();
    }

    /**
     * One turn's writes, made on the event loop: whether any was done before the turn ended, and the
     * threads their completions ran on ({@code recorded}: once those are in).
     */
    private record Turn(
            List<CompletableFuture<Void>> writes,
            List<CompletableFuture<Void>> recorded,
            boolean doneDuringTurn,
            List<String> completedOn) {}

    private Turn turn(StoreBatch... batches) throws Exception {
        List<String> completedOn = java.util.Collections.synchronizedList(new ArrayList<>());
        return loop.submit(() -> {
                    List<CompletableFuture<Void>> writes = new ArrayList<>();
                    List<CompletableFuture<Void>> recorded = new ArrayList<>();
                    for (StoreBatch b : batches) {
                        CompletableFuture<Void> f = store.write(b);
                        recorded.add(f.thenRun(
                                () -> completedOn.add(Thread.currentThread().getName())));
                        writes.add(f);
                    }
                    boolean done = writes.stream().anyMatch(CompletableFuture::isDone);
                    return new Turn(writes, recorded, done, completedOn);
                })
                .get(10, TimeUnit.SECONDS);
    }

    private static void awaitAll(Turn t) throws Exception {
        CompletableFuture.allOf(t.recorded().toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
    }

    /**
     * Deletions and relaxed inserts need no sync, so a network thread commits them itself whatever
     * the disk's speed (for sends, that depends on it: {@link CallerCommitsTest}).
     */
    @Test
    void aTurnsWritesAreCommittedAsOneGroupByTheNetworkThreadWhenTheTurnEnds() throws Exception {
        awaitAll(turn(send("q", 1), send("q", 2), send("q", 3)));
        long[] id = {3};
        boolean byCaller = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        // A turn that finds the writer busy (the store's start-up, the turn before) goes to it instead.
        while (!byCaller && System.nanoTime() < deadline) {
            long callers = counters.groupsByCaller();
            long n = ++id[0];
            Turn t = turn(
                    StoreBatch.relaxed().add(new StoreOp.InsertMessage(n, bytes("r" + n))),
                    StoreBatch.relaxed().add(new StoreOp.UpdateDeliveryCount("q", 1, (int) n)),
                    StoreBatch.relaxed().add(new StoreOp.DeleteMessage(n)));
            assertFalse(t.doneDuringTurn(), "a write made during a turn is committed when the turn ends, not before");
            awaitAll(t);
            if (counters.groupsByCaller() == callers) {
                continue;
            }
            byCaller = true;
            assertEquals(1, counters.groupsByCaller() - callers, "the turn's three writes, one group");
            String loopThread =
                    loop.submit(() -> Thread.currentThread().getName()).get(5, TimeUnit.SECONDS);
            assertEquals(
                    List.of(loopThread, loopThread, loopThread),
                    t.completedOn(),
                    "the writes complete on the network thread that made them");
        }
        assertTrue(byCaller, "no turn was committed by the network thread in 10 s");
        assertEquals(3, store.figures().entryRows());
    }

    @Test
    void aTurnWhileTheWriterIsBusyGoesToTheWriterBehindWhatWaitsThere() throws Exception {
        List<String> completions = java.util.Collections.synchronizedList(new ArrayList<>());
        CountDownLatch release = parkWriter();
        CompletableFuture<Void> first;
        long callers = counters.groupsByCaller();
        Turn t;
        try {
            first = store.write(send("q", 1)); // from this thread: queued behind the parked read
            first.thenRun(() -> completions.add("written before the turn"));
            t = turn(send("q", 2), send("q", 3));
            t.writes().get(1).thenRun(() -> completions.add("the turn's"));
            // the turn's end has run by now or runs soon: it must hand the writes over, not commit them ahead of
            // "first"
            await().during(Duration.ofMillis(200))
                    .atMost(Duration.ofSeconds(5))
                    .until(() -> !t.writes().get(0).isDone());
            assertFalse(first.isDone());
        } finally {
            release.countDown();
        }
        first.get(30, TimeUnit.SECONDS);
        awaitAll(t);
        assertEquals(callers, counters.groupsByCaller(), "the writer committed them");
        assertEquals(List.of(WRITER, WRITER), t.completedOn());
        assertEquals(List.of("written before the turn", "the turn's"), completions);
        assertEquals(4, store.figures().entryRows());
    }

    /** On a slow disk the network thread does not hold its connections for a sync: the writer syncs. */
    @Test
    void onASlowDiskTheWriterCommitsTheTurns() throws Exception {
        disk.fail(FaultyDisk.Fault.SLOW_SYNC, FaultyDisk::journal);
        long id = 0;
        // a few commits teach the store how long a sync takes
        for (int i = 0; i < 40; i++) {
            awaitAll(turn(send("q", ++id)));
        }
        long callers = counters.groupsByCaller();
        List<String> threads = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            Turn t = turn(send("q", ++id));
            awaitAll(t);
            threads.addAll(t.completedOn());
        }
        assertEquals(
                callers,
                counters.groupsByCaller(),
                "no forced commit on the network thread with " + FaultyDisk.SLOW_SYNC_MILLIS + " ms syncs");
        assertEquals(java.util.Collections.nCopies(10, WRITER), threads);
        // what needs no sync still commits there
        Turn relaxed = turn(StoreBatch.relaxed().add(new StoreOp.DeleteEntry("q", 1)));
        awaitAll(relaxed);
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            Turn again = turn(StoreBatch.relaxed().add(new StoreOp.DeleteEntry("q", 2)));
            awaitAll(again);
            return counters.groupsByCaller() > callers;
        });
    }

    /**
     * The writer's housekeeping (an idle checkpoint that frees a drained backlog's space) still comes
     * once commits pause, when network threads made the commits and the writer thread saw none.
     */
    @Test
    void theWriterKeepsHouseAfterCommitsNetworkThreadsMade() throws Exception {
        long checkpoints = counters.checkpoints();
        long[] id = {0};
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            long callers = counters.groupsByCaller();
            long n = ++id[0];
            awaitAll(turn(StoreBatch.relaxed().add(new StoreOp.InsertMessage(n, bytes("r" + n)))));
            return counters.groupsByCaller() > callers;
        });
        await().atMost(Duration.ofSeconds(15)).until(() -> counters.checkpoints() > checkpoints);
    }

    /**
     * A sync that stalls holds the thread that makes it (a network thread, on a fast disk) for as long
     * as it stalls; after one, the writer thread makes the syncs for a while, so a disk that stalls
     * again does not hold the network threads again ({@link CallerCommitsTest} for the rule).
     */
    @Test
    void afterASyncThatStalledTheWriterMakesTheSyncs() throws Exception {
        long[] id = {0};
        awaitAll(turn(send("q", ++id[0])));
        disk.fail(FaultyDisk.Fault.STALL, FaultyDisk::journal);
        Turn stalled;
        try {
            stalled = turn(send("q", ++id[0]));
            await().during(Duration.ofMillis(2 * CallerCommits.STALLED_SYNC_NANOS / 1_000_000))
                    .atMost(Duration.ofSeconds(5))
                    .until(() -> !stalled.writes().get(0).isDone());
        } finally {
            disk.heal();
        }
        awaitAll(stalled);
        long callers = counters.groupsByCaller();
        List<String> threads = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Turn t = turn(send("q", ++id[0]));
            awaitAll(t);
            threads.addAll(t.completedOn());
        }
        assertEquals(callers, counters.groupsByCaller(), "no sync on the network thread after the stall");
        assertEquals(java.util.Collections.nCopies(5, WRITER), threads);
    }

    /** Holds the writer thread inside a read until released. */
    private CountDownLatch parkWriter() throws Exception {
        store.write(send("park", 1_000_000)).get(30, TimeUnit.SECONDS);
        return ParkedWriter.park(store);
    }

    private static StoreBatch send(String queue, long id) {
        return new StoreBatch()
                .add(new StoreOp.InsertMessage(id, bytes("m" + id)))
                .add(new StoreOp.InsertEntry(queue, id));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
