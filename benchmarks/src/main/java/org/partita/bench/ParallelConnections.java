package org.partita.bench;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Many connections (S9: up to 10,000) opened and closed by a bounded pool of threads: one after the other
 * each open is a few round trips, and 10,000 of them would take minutes; a thread per connection would
 * start 10,000 threads to wait on the network. Each connection is set up (sessions, consumer, producer)
 * before it is started, so that its consumer's listener is in place when delivery begins.
 */
final class ParallelConnections implements AutoCloseable {
    /** Threads opening or closing connections at once: enough to keep loopback busy, few beside 2 cores. */
    static final int THREADS = 16;

    /** What is done with each new connection before it is started. */
    interface Setup {
        void accept(int index, Connection connection) throws Exception;
    }

    private final Connection[] connections;
    private final long openedNanos;

    private ParallelConnections(Connection[] connections, long openedNanos) {
        this.connections = connections;
        this.openedNanos = openedNanos;
    }

    /**
     * Opens {@code count} connections, sets each up and starts it; closes those already open and fails
     * if one cannot be opened or the deadline ({@code System.nanoTime}) passes first.
     */
    static ParallelConnections open(ConnectionFactory cf, int count, Setup setup, long deadlineNanos) throws Exception {
        Connection[] connections = new Connection[count];
        long began = System.nanoTime();
        try {
            inParallel(count, deadlineNanos, i -> {
                Connection c = cf.createConnection();
                connections[i] = c;
                setup.accept(i, c);
                c.start();
            });
        } catch (Exception e) {
            new ParallelConnections(connections, 0).close();
            throw e;
        }
        return new ParallelConnections(connections, System.nanoTime() - began);
    }

    Connection get(int index) {
        return connections[index];
    }

    int size() {
        return connections.length;
    }

    /** How long opening, setting up and starting them all took. */
    long openedMillis() {
        return TimeUnit.NANOSECONDS.toMillis(openedNanos);
    }

    /** Closes every connection, in parallel; returns how long it took, in ms. Failures are ignored: the broker goes next. */
    long closeTimed() {
        long began = System.nanoTime();
        try {
            inParallel(connections.length, began + TimeUnit.MINUTES.toNanos(2), i -> {
                Connection c = connections[i];
                if (c != null) {
                    connections[i] = null;
                    try {
                        c.close();
                    } catch (Exception ignored) {
                        // the broker is stopped after the run anyway
                    }
                }
            });
        } catch (Exception ignored) {
            // as above
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
    }

    @Override
    public void close() {
        closeTimed();
    }

    private interface Step {
        void run(int index) throws Exception;
    }

    /** Runs {@code step} for 0 to {@code count - 1} on at most {@link #THREADS} threads; the first failure is thrown. */
    private static void inParallel(int count, long deadlineNanos, Step step) throws Exception {
        int threads = Math.max(1, Math.min(THREADS, count));
        AtomicInteger next = new AtomicInteger();
        AtomicInteger completed = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "connections");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    for (int i; (i = next.getAndIncrement()) < count && System.nanoTime() - deadlineNanos < 0; ) {
                        step.run(i);
                        completed.incrementAndGet();
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                long left = deadlineNanos - System.nanoTime();
                try {
                    f.get(Math.max(1, left), TimeUnit.NANOSECONDS);
                } catch (ExecutionException e) {
                    next.set(count); // the others stop taking work
                    throw e.getCause() instanceof Exception cause ? cause : e;
                } catch (TimeoutException e) {
                    next.set(count);
                    throw new TimeoutException(
                            "the time cap passed with " + completed.get() + " of " + count + " done");
                }
            }
            if (completed.get() < count) {
                throw new TimeoutException("the time cap passed with " + completed.get() + " of " + count + " done");
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
