package org.partita.broker.store.replica;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class ApplyBacklogTest {
    @Test
    void anApplyPastTheBoundWaitsUntilTheStoreWroteEnough() {
        ApplyBacklog backlog = new ApplyBacklog(100);
        backlog.take(60);
        backlog.take(40);
        CompletableFuture<Void> third = CompletableFuture.runAsync(() -> backlog.take(30));
        // still waiting while nothing was written: 130 would pass the bound
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> !third.isDone());
        backlog.give(60);
        await().atMost(Duration.ofSeconds(5)).until(third::isDone);
        assertEquals(70, backlog.pendingBytes());
    }

    @Test
    void anEntryLargerThanTheBoundGoesAloneOnceNothingElseIsPending() {
        ApplyBacklog backlog = new ApplyBacklog(100);
        backlog.take(10);
        CompletableFuture<Void> large = CompletableFuture.runAsync(() -> backlog.take(500));
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> !large.isDone());
        backlog.give(10);
        await().atMost(Duration.ofSeconds(5)).until(large::isDone);
        assertEquals(500, backlog.pendingBytes());
        backlog.give(500);
        assertEquals(0, backlog.pendingBytes());
    }

    @Test
    void anInterruptEndsTheWaitAndKeepsTheFlag() throws Exception {
        ApplyBacklog backlog = new ApplyBacklog(100);
        backlog.take(100);
        boolean[] interruptedAfter = new boolean[1];
        Thread t = new Thread(() -> {
            backlog.take(1);
            interruptedAfter[0] = Thread.currentThread().isInterrupted();
        });
        t.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> t.getState() == Thread.State.WAITING);
        t.interrupt();
        t.join(5_000);
        assertFalse(t.isAlive());
        assertEquals(true, interruptedAfter[0]);
        assertEquals(101, backlog.pendingBytes());
    }
}
