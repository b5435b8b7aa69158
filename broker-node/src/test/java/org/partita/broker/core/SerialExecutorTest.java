package org.partita.broker.core;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
}
