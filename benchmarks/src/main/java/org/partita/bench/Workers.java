package org.partita.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/** The threads of one scenario run: producers run once, consumers loop until stopped; the first failure is kept. */
final class Workers {
    interface Task {
        void run() throws Exception;
    }

    private final List<Thread> threads = new ArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean stopping;

    /** Starts a task that runs once. */
    synchronized Thread start(String name, Task task) {
        Thread t = new Thread(
                () -> {
                    try {
                        task.run();
                    } catch (Throwable e) {
                        if (!stopping) {
                            failure.compareAndSet(null, e);
                        }
                    }
                },
                name);
        t.setDaemon(true);
        threads.add(t);
        t.start();
        return t;
    }

    /** Starts a task that runs again and again until {@link #stop()}. */
    Thread loop(String name, Task step) {
        return start(name, () -> {
            while (!stopping) {
                step.run();
            }
        });
    }

    boolean stopping() {
        return stopping;
    }

    Throwable failure() {
        return failure.get();
    }

    void stop() {
        stopping = true;
    }

    /** Stops the loops and waits for every thread (at most about {@code millis} in all). */
    void stopAndJoin(long millis) throws InterruptedException {
        stop();
        long deadline = System.currentTimeMillis() + millis;
        List<Thread> copy;
        synchronized (this) {
            copy = new ArrayList<>(threads);
        }
        for (Thread t : copy) {
            t.join(Math.max(1, deadline - System.currentTimeMillis()));
        }
    }

    /** Waits for the given threads (producers) to end, or the deadline (System.nanoTime). */
    static void join(List<Thread> ts, long deadlineNanos) throws InterruptedException {
        for (Thread t : ts) {
            long left = (deadlineNanos - System.nanoTime()) / 1_000_000;
            if (left > 0) {
                t.join(left);
            }
        }
    }
}
