package org.partita.broker.core;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs tasks one at a time, in submission order, on a shared pool. Each queue owns one, so a
 * queue's state is touched by one thread at a time without a lock shared between queues.
 */
public final class SerialExecutor implements Executor {
    /** Tasks a pool thread runs before it yields, so that other queues progress. */
    private static final int POOL_BUDGET = 1024;
    /** Tasks run on a caller's thread at most: it has work of its own to go back to. */
    private static final int INLINE_BUDGET = 16;

    private final Executor pool;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private volatile Thread runner;

    public SerialExecutor(Executor pool) {
        this.pool = pool;
    }

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
        if (scheduled.compareAndSet(false, true)) {
            pool.execute(this::drain);
        }
    }

    /**
     * Runs {@code task} on the calling thread if no thread is running this executor's tasks now
     * (with the few queued behind it; the rest go to the pool), else queues it as {@link #execute}
     * does. Saves a thread hand-off where the caller's thread is free to do the work at once.
     */
    public void executeHereIfIdle(Runnable task) {
        if (queueAndClaimIfIdle(task)) {
            runClaimed();
        }
    }

    /**
     * Queues {@code task}, in order with every other; when no thread runs this executor's tasks now,
     * the caller claims them (true) and must call {@link #runClaimed} soon: tasks queued meanwhile
     * by other threads wait behind this one for it. Lets a caller put a task in line now and run it
     * a moment later, once it has done something more urgent.
     */
    public boolean queueAndClaimIfIdle(Runnable task) {
        tasks.add(task);
        return scheduled.compareAndSet(false, true);
    }

    /** Runs the tasks {@link #queueAndClaimIfIdle} claimed (a few here, the rest on the pool). */
    public void runClaimed() {
        drain(INLINE_BUDGET);
    }

    /** True when called from a task of this executor. */
    public boolean inExecutor() {
        return runner == Thread.currentThread();
    }

    private void drain() {
        drain(POOL_BUDGET);
    }

    private void drain(int budget) {
        runner = Thread.currentThread();
        try {
            Runnable r;
            while (budget-- > 0 && (r = tasks.poll()) != null) {
                try {
                    r.run();
                } catch (Throwable t) {
                    org.partita.broker.process.FatalErrors.check(t);
                    org.slf4j.LoggerFactory.getLogger(SerialExecutor.class).error("task failed", t);
                }
            }
        } finally {
            runner = null;
            scheduled.set(false);
            if (!tasks.isEmpty() && scheduled.compareAndSet(false, true)) {
                pool.execute(this::drain);
            }
        }
    }
}
