package org.partita.ra.container;

import jakarta.resource.spi.work.ExecutionContext;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkCompletedException;
import jakarta.resource.spi.work.WorkEvent;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkListener;
import jakarta.resource.spi.work.WorkManager;
import jakarta.resource.spi.work.WorkRejectedException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A container's work manager as a test needs it: the adapter's {@link Work} runs on a pool of
 * daemon threads; on close the pool asks running work to {@link Work#release() release} and stops.
 */
public final class PoolWorkManager implements WorkManager, AutoCloseable {
    private final AtomicInteger threads = new AtomicInteger();
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "test-container-work-" + threads.incrementAndGet());
        t.setDaemon(true);
        return t;
    });
    private final Set<Work> running = ConcurrentHashMap.newKeySet();

    @Override
    public void doWork(Work work) throws WorkException {
        doWork(work, INDEFINITE, null, null);
    }

    @Override
    public void doWork(Work work, long startTimeout, ExecutionContext context, WorkListener listener)
            throws WorkException {
        try {
            submit(work, listener, new CountDownLatch(1)).get();
        } catch (ExecutionException e) {
            throw new WorkCompletedException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WorkException(e);
        }
    }

    @Override
    public long startWork(Work work) throws WorkException {
        return startWork(work, INDEFINITE, null, null);
    }

    @Override
    public long startWork(Work work, long startTimeout, ExecutionContext context, WorkListener listener)
            throws WorkException {
        long asked = System.nanoTime();
        CountDownLatch started = new CountDownLatch(1);
        submit(work, listener, started);
        try {
            started.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WorkException(e);
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - asked);
    }

    @Override
    public void scheduleWork(Work work) throws WorkException {
        scheduleWork(work, INDEFINITE, null, null);
    }

    @Override
    public void scheduleWork(Work work, long startTimeout, ExecutionContext context, WorkListener listener)
            throws WorkException {
        submit(work, listener, new CountDownLatch(1));
    }

    private Future<?> submit(Work work, WorkListener listener, CountDownLatch started) throws WorkRejectedException {
        try {
            Future<?> f = pool.submit(() -> {
                running.add(work);
                started.countDown();
                if (listener != null) {
                    listener.workStarted(new WorkEvent(this, WorkEvent.WORK_STARTED, work, null));
                }
                try {
                    work.run();
                } finally {
                    running.remove(work);
                    if (listener != null) {
                        listener.workCompleted(new WorkEvent(this, WorkEvent.WORK_COMPLETED, work, null));
                    }
                }
            });
            if (listener != null) {
                listener.workAccepted(new WorkEvent(this, WorkEvent.WORK_ACCEPTED, work, null));
            }
            return f;
        } catch (RejectedExecutionException e) {
            throw new WorkRejectedException("the container is stopping", e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        running.forEach(Work::release);
        pool.shutdownNow();
        pool.awaitTermination(10, TimeUnit.SECONDS);
    }
}
