package org.partita.broker.network.connection;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The test's thread as the event loop of its {@link TestChannel}s, as one thread is a connection's
 * event loop in the node. Work any thread hands to the loop (a reply the store confirmed, a delivery
 * a queue made, the rest of a recover) waits in one queue, in the order it was handed over, until the
 * test runs it; so the channels are only ever touched by the test's thread, and what the node would
 * do on its loop happens in the same order here.
 */
final class TestEventLoop {
    static final Duration WAIT = Duration.ofSeconds(10);

    private final Thread owner = Thread.currentThread();
    private final BlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
    private final List<TestChannel> channels = new CopyOnWriteArrayList<>();
    private boolean running;

    boolean runs(Thread thread) {
        return thread == owner;
    }

    boolean inLoop() {
        return runs(Thread.currentThread());
    }

    void execute(Runnable task) {
        tasks.add(task);
    }

    void add(TestChannel channel) {
        channels.add(channel);
    }

    /**
     * Runs the work handed over so far, and what it hands over in turn, until none is left. A task
     * never runs inside another: when one makes the channel run its work (closing it does), that
     * returns at once and the work runs after the task, as on an event loop.
     */
    void runPending() {
        runPending(null);
    }

    /** The same, starting with {@code first}, taken from the head of the queue. */
    private void runPending(Runnable first) {
        if (!inLoop() || running) {
            return;
        }
        running = true;
        try {
            if (first != null) {
                first.run();
            }
            do {
                Runnable task;
                while ((task = tasks.poll()) != null) {
                    task.run();
                }
                for (TestChannel c : channels) {
                    c.runOwnTasks();
                }
            } while (!tasks.isEmpty());
        } finally {
            running = false;
        }
    }

    /**
     * Runs the loop's work until {@code done} holds, waiting for other threads to hand some over;
     * fails naming {@code what} if it does not hold within {@link #WAIT}.
     */
    void runUntil(BooleanSupplier done, String what) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        runPending();
        while (!done.getAsBoolean()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("no " + what + " within " + WAIT.toSeconds() + " s");
            }
            try {
                runPending(tasks.poll(left, TimeUnit.NANOSECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            }
        }
    }
}
