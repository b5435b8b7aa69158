package org.partita.broker.store;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The store's single writer. It takes every batch that is waiting when it becomes free and commits
 * them as one commit with one disk sync: a lone producer waits one sync, many producers
 * share one. There is no timer; the group closes when the writer is ready.
 */
final class GroupCommitWriter {
    private static final Logger LOG = LoggerFactory.getLogger(GroupCommitWriter.class);
    private static final int MAX_GROUP = 4096;

    private record Pending(StoreBatch batch, CompletableFuture<Void> done, ReadTask<?> read) {
    }

    /** Work that must run on the writer thread because it uses the writer's connection. */
    interface ReadTask<T> {
        T run() throws SQLException;
    }

    private final CommitTarget applier;
    private final boolean syncOnCommit;
    private final BlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile boolean running = true;
    /** Transactions committed by this writer; written only by the writer thread. */
    private final AtomicLong commits = new AtomicLong();
    private final StoreFigures figures;

    /** @param syncOnCommit false only when the node was told to trade power-loss safety for speed */
    GroupCommitWriter(CommitTarget applier, boolean syncOnCommit) {
        this(applier, syncOnCommit, new StoreFigures());
    }

    GroupCommitWriter(CommitTarget applier, boolean syncOnCommit, StoreFigures figures) {
        this.figures = figures;
        this.applier = applier;
        this.syncOnCommit = syncOnCommit;
        this.thread = new Thread(this::loop, "partita-store-writer");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    CompletableFuture<Void> submit(StoreBatch batch) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (batch.isEmpty()) {
            done.complete(null);
            return done;
        }
        if (!running) {
            done.completeExceptionally(new StoreException("store is closed", null));
            return done;
        }
        queue.add(new Pending(batch, done, null));
        return done;
    }

    @SuppressWarnings("unchecked")
    <T> T callOnWriter(ReadTask<T> task) {
        if (!running) {
            throw new StoreException("store is closed", null);
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        Object[] result = new Object[1];
        queue.add(new Pending(null, done, () -> {
            result[0] = task.run();
            return null;
        }));
        try {
            done.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted while reading the store", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new StoreException("store read failed: " + e.getCause().getMessage(), e.getCause());
        }
        return (T) result[0];
    }

    /** How many transactions this writer has committed (a group of batches counts once); for tests and metrics. */
    long commitCount() {
        return commits.get();
    }

    void stop() {
        running = false;
        queue.add(new Pending(null, new CompletableFuture<>(), null));
        try {
            thread.join(120_000); // the final checkpoint may move a large net effect into H2
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void loop() {
        List<Pending> group = new ArrayList<>();
        while (true) {
            try {
                group.add(queue.take());
            } catch (InterruptedException e) {
                return;
            }
            queue.drainTo(group, MAX_GROUP);
            List<Pending> writes = new ArrayList<>(group.size());
            for (Pending p : group) {
                if (p.read() != null) {
                    flushWrites(writes);
                    runRead(p);
                } else if (p.batch() != null) {
                    writes.add(p);
                }
            }
            flushWrites(writes);
            group.clear();
            if (!running && queue.isEmpty()) {
                failLeftovers();
                applier.close();
                return;
            }
        }
    }

    /** Anything that slipped in while stopping is failed, never left waiting. */
    private void failLeftovers() {
        Pending p;
        while ((p = queue.poll()) != null) {
            p.done().completeExceptionally(new StoreException("store is closed", null));
        }
    }

    private void runRead(Pending p) {
        try {
            applier.beforeRead();
            p.read().run();
            p.done().complete(null);
        } catch (Throwable t) {
            org.partita.broker.process.FatalErrors.check(t);
            p.done().completeExceptionally(t);
        }
    }

    /**
     * Commits the group as one transaction. If it fails, one bad batch must not fail its
     * neighbours: each is retried alone. Whatever committed is then synced and confirmed.
     */
    private void flushWrites(List<Pending> writes) {
        if (writes.isEmpty()) {
            return;
        }
        List<StoreBatch> batches = new ArrayList<>(writes.size());
        for (Pending p : writes) {
            batches.add(p.batch());
        }
        List<Pending> committed = writes;
        try {
            applier.apply(batches);
            commits.incrementAndGet();
            figures.committedGroup(batches.size());
        } catch (Throwable groupFailure) {
            org.partita.broker.process.FatalErrors.check(groupFailure);
            LOG.warn("group commit of {} batches failed ({}); retrying one by one", writes.size(), groupFailure.toString());
            committed = new ArrayList<>();
            for (Pending p : writes) {
                try {
                    applier.apply(List.of(p.batch()));
                    commits.incrementAndGet();
                    figures.committedGroup(1);
                    committed.add(p);
                } catch (Throwable t) {
                    org.partita.broker.process.FatalErrors.check(t);
                    p.done().completeExceptionally(new StoreException("store write failed: " + t.getMessage(), t));
                }
            }
        }
        syncThenComplete(committed, writes.stream().anyMatch(p -> p.batch().forced()));
        writes.clear();
    }

    /** Confirms writes only once they are on the disk; a failed sync fails them all, without retry. */
    private void syncThenComplete(List<Pending> committed, boolean force) {
        if (committed.isEmpty()) {
            return;
        }
        try {
            if (force && syncOnCommit) {
                applier.sync(); // one sync covers this group and every relaxed group before it
                figures.synced();
            }
        } catch (Throwable t) {
            org.partita.broker.process.FatalErrors.check(t);
            LOG.error("disk sync failed; {} writes are not confirmed", committed.size(), t);
            committed.forEach(p -> p.done().completeExceptionally(new StoreException("disk sync failed: " + t.getMessage(), t)));
            return;
        }
        committed.forEach(p -> p.done().complete(null));
    }
}
