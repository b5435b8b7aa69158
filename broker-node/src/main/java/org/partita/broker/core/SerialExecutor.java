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

    /** True when called from a task of this executor. */
    public boolean inExecutor() {
        return runner == Thread.currentThread();
    }

    private void drain() {
        runner = Thread.currentThread();
        try {
            int budget = 1024; // yield the pool thread now and then so other queues progress
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
