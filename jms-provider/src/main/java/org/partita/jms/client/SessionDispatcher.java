package org.partita.jms.client;

import java.util.ArrayDeque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The session's own thread of control (JMS 6.2.4): message listeners and completion listeners of
 * one session run one at a time, in order, on a shared pool of daemon threads.
 */
final class SessionDispatcher {
    private static final ExecutorService POOL = Executors.newCachedThreadPool(new java.util.concurrent.ThreadFactory() {
        private final AtomicInteger n = new AtomicInteger();

        @Override
        public Thread newThread(Runnable r) {
            Thread t = new Thread(r, "partita-session-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        }
    });

    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
    private boolean running;
    private volatile Thread current;

    void execute(Runnable task) {
        synchronized (tasks) {
            tasks.add(task);
            if (running) {
                return;
            }
            running = true;
        }
        POOL.execute(this::drain);
    }

    /** True on the thread that is running one of this session's listeners. */
    boolean isDispatchThread() {
        return current == Thread.currentThread();
    }

    /** Waits until every task submitted so far has run (no-op on the dispatch thread itself). */
    void awaitIdle(long timeoutMillis) {
        if (isDispatchThread()) {
            return;
        }
        CountDownLatch done = new CountDownLatch(1);
        execute(done::countDown);
        try {
            done.await(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void drain() {
        current = Thread.currentThread();
        while (true) {
            Runnable r;
            synchronized (tasks) {
                r = tasks.poll();
                if (r == null) {
                    current = null;
                    running = false;
                    return;
                }
            }
            try {
                r.run();
            } catch (RuntimeException | Error e) {
                org.slf4j.LoggerFactory.getLogger(SessionDispatcher.class).warn("session task failed", e);
            }
        }
    }
}
