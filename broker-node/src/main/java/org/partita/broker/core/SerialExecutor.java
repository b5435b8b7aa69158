package org.partita.broker.core;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs tasks one at a time, in submission order, on a shared pool. Each queue owns one, so a
 * queue's state is touched by one thread at a time without a lock shared between queues.
 *
 * <p>It is in one of three states: idle; waiting for a pool thread (a drain is queued on the pool,
 * which has not started it); running (some thread runs its tasks). A caller that offers to run the
 * tasks itself ({@link #executeHereIfIdle}, {@link #queueAndClaimIfIdle}) takes them over when idle
 * <em>or</em> still waiting for the pool: on two busy cores a pool thread may wait milliseconds for a
 * core, and every task queued behind it (each in-place dispatch the store writer offers) would wait
 * with it. The drain left on the pool then finds the tasks
 * taken and returns.
 */
public final class SerialExecutor implements Executor {
    /** Tasks a pool thread runs before it yields, so that other queues progress. */
    private static final int POOL_BUDGET = 1024;
    /** Tasks run on a caller's thread at most: it has work of its own to go back to. */
    private static final int INLINE_BUDGET = 16;

    private static final int IDLE = 0;
    private static final int WAITING_FOR_POOL = 1;
    private static final int RUNNING = 2;

    private final Executor pool;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    /**
     * Whenever it is {@link #WAITING_FOR_POOL}, at least one {@link #drainOnPool} is queued on the
     * pool: each move into that state queues one, and only a drain on the pool moves out of it
     * without leaving one behind. So a drain a caller took over from may still come: it then finds
     * the state is not its to take, and returns.
     */
    private final AtomicInteger state = new AtomicInteger(IDLE);

    private volatile Thread runner;

    public SerialExecutor(Executor pool) {
        this.pool = pool;
    }

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
        scheduleIfIdle();
    }

    /**
     * Runs {@code task} on the calling thread if no thread is running this executor's tasks now
     * (with the few queued before and behind it; the rest go to the pool), else queues it as
     * {@link #execute} does. Saves a thread hand-off where the caller's thread is free to do the
     * work at once.
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
        return state.compareAndSet(IDLE, RUNNING) || state.compareAndSet(WAITING_FOR_POOL, RUNNING);
    }

    /** Runs the tasks {@link #queueAndClaimIfIdle} claimed (a few here, the rest on the pool). */
    public void runClaimed() {
        drain(INLINE_BUDGET);
    }

    /** True when called from a task of this executor. */
    public boolean inExecutor() {
        return runner == Thread.currentThread();
    }

    /** True when no task waits and no thread runs or is about to run any. */
    public boolean isIdle() {
        return state.get() == IDLE && tasks.isEmpty();
    }

    private void scheduleIfIdle() {
        if (state.compareAndSet(IDLE, WAITING_FOR_POOL)) {
            pool.execute(this::drainOnPool);
        }
    }

    private void drainOnPool() {
        if (state.compareAndSet(WAITING_FOR_POOL, RUNNING)) {
            drain(POOL_BUDGET);
        }
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
            state.set(IDLE);
            if (!tasks.isEmpty()) {
                scheduleIfIdle();
            }
        }
    }
}
