package org.partita.broker.core.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ConsumptionTest {
    @Test
    void aWatcherRunsOnceWhenTheQueueFallsToItsLevel() {
        Consumption c = new Consumption();
        AtomicInteger runs = new AtomicInteger();
        Runnable w = runs::incrementAndGet;
        c.watch(100, w);
        c.watch(100, w); // watching again replaces: a connection paced for a long time holds one watch
        c.left(150);
        assertEquals(0, runs.get(), "still above the level");
        c.left(100);
        c.left(50);
        assertEquals(1, runs.get(), "once, however many messages leave after");
    }

    @Test
    void aMessageThatLeavesWakesTheWatchersOfTheLevelsItReachedOnly() {
        Consumption c = new Consumption();
        java.util.List<String> woken = new java.util.ArrayList<>();
        Runnable low = () -> woken.add("low");
        Runnable mid = () -> woken.add("mid");
        Runnable high = () -> woken.add("high");
        Runnable moved = () -> woken.add("moved");
        c.watch(10, low);
        c.watch(100, mid);
        c.watch(1_000, high);
        c.watch(1_000, moved);
        c.watch(5, moved); // watching again replaces its level
        c.left(100);
        assertEquals(java.util.Set.of("mid", "high"), java.util.Set.copyOf(woken), "the levels at or above 100");
        assertEquals(2, woken.size());
        c.left(10);
        assertEquals(3, woken.size());
        assertEquals("low", woken.get(2));
        c.left(0);
        assertEquals("moved", woken.get(3));
        c.left(0);
        assertEquals(4, woken.size(), "each once");
    }

    @Test
    void anUnwatchedWatcherNeverRuns() {
        Consumption c = new Consumption();
        AtomicInteger runs = new AtomicInteger();
        Runnable w = runs::incrementAndGet;
        c.watch(100, w);
        c.unwatch(w);
        c.left(0);
        assertEquals(0, runs.get());
    }

    @Test
    void takingAMessageIsDated() {
        Consumption c = new Consumption();
        long before = System.nanoTime();
        assertTrue(before - c.lastTakenNanos() > 1_000_000_000L, "never taken reads as long ago");
        c.taken();
        assertTrue(c.lastTakenNanos() >= before);
    }
}
