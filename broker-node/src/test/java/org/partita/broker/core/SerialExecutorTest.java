package org.partita.broker.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A queue's executor: one task at a time, in order, on a shared pool; a failing task stops nothing. */
class SerialExecutorTest {
    private final ExecutorService pool = Executors.newFixedThreadPool(4);

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    @Test
    void tasksRunOneAtATimeInSubmissionOrder() throws Exception {
        SerialExecutor serial = new SerialExecutor(pool);
        List<Integer> order = new ArrayList<>(); // unsynchronized on purpose: one task at a time
        AtomicInteger running = new AtomicInteger();
        AtomicBoolean overlapped = new AtomicBoolean();
        int n = 5_000;
        CountDownLatch done = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            int k = i;
            serial.execute(() -> {
                if (running.incrementAndGet() > 1) {
                    overlapped.set(true);
                }
                order.add(k);
                running.decrementAndGet();
                done.countDown();
            });
        }
        assertTrue(done.await(10, TimeUnit.SECONDS));
        assertFalse(overlapped.get(), "two tasks ran at once");
        for (int i = 0; i < n; i++) {
            assertEquals(i, order.get(i));
        }
    }

    @Test
    void aFailingTaskDoesNotStopTheNext() throws Exception {
        SerialExecutor serial = new SerialExecutor(pool);
        CompletableFuture<Boolean> next = new CompletableFuture<>();
        serial.execute(() -> {
            throw new IllegalStateException("boom (expected in this test)");
        });
        serial.execute(() -> next.complete(true));
        assertTrue(next.get(5, TimeUnit.SECONDS));
    }

    @Test
    void inExecutorIsTrueOnlyInItsOwnTasks() throws Exception {
        SerialExecutor serial = new SerialExecutor(pool);
        SerialExecutor other = new SerialExecutor(pool);
        CompletableFuture<Boolean> inside = new CompletableFuture<>();
        CompletableFuture<Boolean> inOther = new CompletableFuture<>();
        serial.execute(() -> inside.complete(serial.inExecutor()));
        other.execute(() -> inOther.complete(serial.inExecutor()));
        assertTrue(inside.get(5, TimeUnit.SECONDS));
        assertFalse(inOther.get(5, TimeUnit.SECONDS));
        assertFalse(serial.inExecutor());
    }

    @Test
    void anIdleExecutorRunsTheTaskOnTheCallersThread() {
        SerialExecutor serial = new SerialExecutor(pool);
        Thread[] ranOn = new Thread[1];
        serial.executeHereIfIdle(() -> ranOn[0] = Thread.currentThread());
        assertEquals(
                Thread.currentThread(), ranOn[0], "no other task ran: the caller's thread did the work, no hand-off");
    }

    @Test
    void aBusyExecutorQueuesTheTaskBehindTheRunningOneAndKeepsTheOrder() throws Exception {
        SerialExecutor serial = new SerialExecutor(pool);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> order = java.util.Collections.synchronizedList(new ArrayList<>());
        serial.execute(() -> {
            running.countDown();
            try {
                release.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            order.add("first");
        });
        assertTrue(running.await(5, TimeUnit.SECONDS));
        CompletableFuture<Thread> second = new CompletableFuture<>();
        serial.executeHereIfIdle(() -> {
            order.add("second");
            second.complete(Thread.currentThread());
        });
        assertFalse(second.isDone(), "it waits for the running task instead of running beside it");
        release.countDown();
        Thread ranOn = second.get(5, TimeUnit.SECONDS);
        assertFalse(ranOn == Thread.currentThread(), "the pool thread ran it, not the caller");
        assertEquals(List.of("first", "second"), order);
    }

    @Test
    void aClaimedTaskKeepsItsPlaceAndRunsWhenTheClaimantIsReady() throws Exception {
        SerialExecutor serial = new SerialExecutor(pool);
        List<String> order = java.util.Collections.synchronizedList(new ArrayList<>());
        assertTrue(serial.queueAndClaimIfIdle(() -> order.add("claimed")));
        CountDownLatch later = new CountDownLatch(1);
        pool.execute(() -> serial.execute(() -> {
            order.add("later");
            later.countDown();
        }));
        assertFalse(later.await(300, TimeUnit.MILLISECONDS), "a task queued after the claimed one waits for it");
        assertFalse(serial.queueAndClaimIfIdle(() -> order.add("third")), "already claimed: queued behind");
        serial.runClaimed();
        assertTrue(later.await(5, TimeUnit.SECONDS));
        assertEquals(List.of("claimed", "later", "third"), order);
    }

    @Test
    void aCallerFreeNowTakesOverTasksStillWaitingForAPoolThread() throws Exception {
        // a pool whose only thread is busy elsewhere, as on two saturated cores
        ExecutorService busyPool = Executors.newSingleThreadExecutor();
        CountDownLatch poolFree = new CountDownLatch(1);
        try {
            busyPool.execute(() -> {
                try {
                    poolFree.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            SerialExecutor serial = new SerialExecutor(busyPool);
            Thread caller = Thread.currentThread();
            List<String> order = java.util.Collections.synchronizedList(new ArrayList<>());
            List<Thread> ranOn = java.util.Collections.synchronizedList(new ArrayList<>());
            serial.execute(() -> {
                order.add("queued for the pool");
                ranOn.add(Thread.currentThread());
            });
            assertFalse(serial.isIdle(), "a task waits for the pool");
            serial.executeHereIfIdle(() -> {
                order.add("offered here");
                ranOn.add(Thread.currentThread());
            });
            assertEquals(
                    List.of("queued for the pool", "offered here"),
                    order,
                    "the caller ran both at once, in order, instead of waiting with them for the pool");
            assertEquals(List.of(caller, caller), ranOn);
            assertTrue(serial.isIdle());

            poolFree.countDown(); // the drain left on the pool finds nothing to do
            CompletableFuture<Thread> later = new CompletableFuture<>();
            serial.execute(() -> later.complete(Thread.currentThread()));
            assertFalse(later.get(5, TimeUnit.SECONDS) == caller, "a plain execute still goes to the pool");
            assertEquals(2, order.size(), "nothing ran twice");
        } finally {
            poolFree.countDown();
            busyPool.shutdownNow();
        }
    }

    @Test
    void theCallersThreadRunsOnlyAFewTasksAndThePoolTheRest() throws Exception {
        SerialExecutor serial = new SerialExecutor(pool);
        Thread caller = Thread.currentThread();
        int n = 200;
        AtomicInteger onCaller = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(n);
        List<Integer> order = java.util.Collections.synchronizedList(new ArrayList<>());
        serial.executeHereIfIdle(() -> {
            for (int i = 1; i < n; i++) { // tasks queued behind this one while it runs
                int k = i;
                serial.execute(() -> {
                    order.add(k);
                    if (Thread.currentThread() == caller) {
                        onCaller.incrementAndGet();
                    }
                    done.countDown();
                });
            }
            order.add(0);
            done.countDown();
        });
        assertTrue(done.await(10, TimeUnit.SECONDS));
        assertTrue(onCaller.get() < 20, "the caller went back to its own work after a few tasks: " + onCaller.get());
        for (int i = 0; i < n; i++) {
            assertEquals(i, order.get(i));
        }
    }
}
