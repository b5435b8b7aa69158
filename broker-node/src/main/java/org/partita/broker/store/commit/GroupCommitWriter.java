package org.partita.broker.store.commit;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.partita.broker.store.MessageStore;
import org.partita.broker.store.StoreBatch;
import org.partita.broker.store.StoreCounters;
import org.partita.broker.store.StoreException;
import org.partita.broker.store.StoreUnavailableException;
import org.partita.broker.store.ThreadTurns;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's single writer. It takes every batch that is waiting when it becomes free and commits
 * them as one commit with one disk sync: a lone producer waits one sync, many producers
 * share one. There is no timer; the group closes when the writer is ready.
 *
 * <p>Committing is a role, held by one thread at a time ({@link #role}): the writer thread holds it
 * for each group. A network thread ({@link ThreadTurns}) gathers what it writes during one turn over
 * its connections and, when the turn ends, commits it as one group itself if the writer is idle with
 * nothing waiting for it and syncs are short ({@link CallerCommits}); else it hands the whole turn's
 * batches to the writer at once. That spares waking the writer and the hand-offs there and back
 * (docs/performance.md, "Design for speed"). Reads, housekeeping and reopening stay on the writer
 * thread.
 *
 * <p>An I/O fault (disk full, a failed write or sync) fails the group with a
 * {@link StoreUnavailableException} and leaves no trace of it ({@link CommitTarget#abandon}); every
 * write and read then fails at once with the same cause, while the writer tries to reopen the
 * store with a growing delay ({@link Reopener}). Once a reopen succeeds, writing resumes.
 */
public final class GroupCommitWriter {
    private static final Logger LOG = LoggerFactory.getLogger(GroupCommitWriter.class);
    private static final int MAX_GROUP = 4096;
    /** After this long without a request the writer does its housekeeping ({@link CommitTarget#idle}). */
    private static final long IDLE_MILLIS = 2_000;

    private static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(IDLE_MILLIS);

    private record Pending(StoreBatch batch, CompletableFuture<Void> done, ReadTask<?> read) {}

    /** Work that must run on the writer thread because it uses the writer's connection. */
    public interface ReadTask<T> {
        T run() throws SQLException;
    }

    /** Opens the store again from the disk after a fault; throws while the cause persists. */
    public interface Reopener {
        CommitTarget reopen() throws Exception;

        /**
         * What an operator must do about a fault whose cause is {@code reason} for the store to reopen,
         * such as how much disk space to free; null when there is nothing to add to the cause.
         */
        default String advice(String reason) {
            return null;
        }
    }

    /** Delays between tries to reopen a faulted store: the first, doubling up to the last. */
    public record Retry(long firstMillis, long maxMillis) {
        public static final Retry DEFAULT = new Retry(200, 10_000);
    }

    private volatile CommitTarget applier;
    private final boolean syncOnCommit;
    private final BlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    /** Requests queued for the writer thread or in its hands; a caller commits only when there are none, so never ahead of one. */
    private final AtomicInteger waiting = new AtomicInteger();
    /**
     * Held by whichever thread commits, reads or keeps house: the writer thread for each group, or a
     * caller committing its own batch. Everything below that is not final or volatile is touched only
     * while holding it.
     */
    private final ReentrantLock role = new ReentrantLock();

    private final CallerCommits callerCommits = new CallerCommits();
    private volatile ThreadTurns turns = ThreadTurns.NONE;
    /** What the calling network thread wrote during its current turn, in order; null when it has gathered nothing. */
    private final ThreadLocal<List<Pending>> gathered = new ThreadLocal<>();

    private final java.util.ArrayDeque<Runnable> afterConfirmations = new java.util.ArrayDeque<>();
    private final Thread thread;
    private volatile boolean running = true;
    /** Transactions committed by this writer; written only by the holder of the role. */
    private final AtomicLong commits = new AtomicLong();

    private final StoreCounters counters;
    private final Reopener reopener;
    private final Retry retry;
    /** Why the store cannot write, or null while it can. */
    private volatile StoreUnavailableException fault;
    /** The target a fault stopped, until its failed group is invalidated and it is released (holding the role). */
    private CommitTarget abandoned;
    /** The end of the last commit before the writer last kept house: once per pause in commits. */
    private long housekeptAfter;

    private long retryDelayMillis;
    private long nextTryNanos;
    private int tries;

    /** @param syncOnCommit false only when the node was told to trade power-loss safety for speed */
    public GroupCommitWriter(CommitTarget applier, boolean syncOnCommit) {
        this(applier, syncOnCommit, new StoreCounters(), null, Retry.DEFAULT);
    }

    public GroupCommitWriter(
            CommitTarget applier, boolean syncOnCommit, StoreCounters counters, Reopener reopener, Retry retry) {
        this.counters = counters;
        this.applier = applier;
        this.syncOnCommit = syncOnCommit;
        this.reopener = reopener;
        this.retry = retry;
        this.thread = new Thread(this::loop, "partita-store-writer");
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    public CompletableFuture<Void> submit(StoreBatch batch) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (batch.isEmpty()) {
            done.complete(null);
            return done;
        }
        if (!running) {
            done.completeExceptionally(new StoreException("store is closed", null));
            return done;
        }
        StoreUnavailableException f = fault;
        if (f != null) {
            done.completeExceptionally(f);
            return done;
        }
        Pending request = new Pending(batch, done, null);
        if (!gatherForEndOfTurn(request)) {
            enqueue(request);
        }
        return done;
    }

    /** Lets network threads commit what they wrote during a turn when it ends ({@link ThreadTurns}). */
    public void useTurns(ThreadTurns turns) {
        this.turns = turns;
    }

    private void enqueue(Pending request) {
        waiting.incrementAndGet();
        queue.add(request);
    }

    /**
     * On a thread that works in turns: keeps {@code request}, in order behind what the thread wrote
     * before in this turn, for {@link #commitGathered} when the turn ends.
     *
     * @return false when the calling thread has no turns: the request goes to the writer
     */
    private boolean gatherForEndOfTurn(Pending request) {
        List<Pending> mine = gathered.get();
        if (mine == null) {
            List<Pending> turn = new ArrayList<>(4);
            if (!turns.atEndOfTurn(() -> commitGathered(turn))) {
                return false;
            }
            gathered.set(turn);
            mine = turn;
        }
        mine.add(request);
        return true;
    }

    /** The turn is over: commits what it gathered here, or hands it to the writer in one go. */
    private void commitGathered(List<Pending> turn) {
        gathered.remove();
        if (!running) {
            turn.forEach(p -> p.done().completeExceptionally(new StoreException("store is closed", null)));
            return;
        }
        try {
            if (!commitHere(turn)) {
                turn.forEach(this::enqueue);
            }
        } catch (Throwable t) {
            org.partita.broker.process.FatalErrors.check(t);
            LOG.error("committing a network thread's writes failed", t);
            turn.forEach(p -> p.done().completeExceptionally(t)); // none left waiting; those answered stay so
        }
    }

    /**
     * Commits a turn's batches on the calling thread, if syncs are short, the writer is idle with
     * nothing waiting for it (so nothing written before commits after), and each batch would only append.
     *
     * @return false when they must go to the writer thread instead
     */
    private boolean commitHere(List<Pending> turn) {
        boolean forced = false;
        for (Pending p : turn) {
            forced |= p.batch().forced();
        }
        if (!callerCommits.mayCommit(forced) || waiting.get() != 0 || !role.tryLock()) {
            return false;
        }
        try {
            // Checked again holding the role: a request queued meanwhile must commit first.
            if (waiting.get() != 0 || !running || fault != null) {
                return false;
            }
            List<StoreBatch> batches = new ArrayList<>(turn.size());
            for (Pending p : turn) {
                batches.add(p.batch());
            }
            if (!applier.appendsAtOnce(batches)) {
                return false;
            }
            flushWrites(new ArrayList<>(turn));
            runAfterConfirmations();
            if (fault != null) {
                enqueue(new Pending(null, new CompletableFuture<>(), null)); // wakes the writer to retry reopening
            }
            return true;
        } finally {
            role.unlock();
        }
    }

    @SuppressWarnings("unchecked")
    public <T> T callOnWriter(ReadTask<T> task) {
        if (!running) {
            throw new StoreException("store is closed", null);
        }
        StoreUnavailableException f = fault;
        if (f != null) {
            throw f;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        Object[] result = new Object[1];
        enqueue(new Pending(null, done, () -> {
            result[0] = task.run();
            return null;
        }));
        try {
            done.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted while reading the store", e);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof StoreUnavailableException u) {
                throw u;
            }
            throw new StoreException("store read failed: " + e.getCause().getMessage(), e.getCause());
        }
        return (T) result[0];
    }

    public boolean isWriterThread() {
        return Thread.currentThread() == thread;
    }

    /** See {@link MessageStore#afterConfirmations}: on this thread, deferred until the group's confirmations ran. */
    public void afterConfirmations(Runnable work) {
        if (isWriterThread()) {
            afterConfirmations.add(work);
        } else {
            work.run();
        }
    }

    /** Work deferred by {@link #afterConfirmations} (writer thread only), run after each group's confirmations. */
    private void runAfterConfirmations() {
        Runnable r;
        while ((r = afterConfirmations.poll()) != null) {
            try {
                r.run();
            } catch (Throwable t) {
                org.partita.broker.process.FatalErrors.check(t);
                LOG.error("work after a group's confirmations failed", t);
            }
        }
    }

    /** How many transactions this writer has committed (a group of batches counts once); for tests and metrics. */
    public long commitCount() {
        return commits.get();
    }

    /** Why the store cannot write now, or null if it can. */
    StoreUnavailableException fault() {
        return fault;
    }

    public void stop() {
        running = false;
        enqueue(new Pending(null, new CompletableFuture<>(), null));
        try {
            thread.join(120_000); // the final checkpoint may move a large net effect into H2
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void loop() {
        List<Pending> group = new ArrayList<>();
        while (true) {
            Pending first;
            try {
                first = next();
            } catch (InterruptedException e) {
                return;
            }
            role.lock();
            try {
                if (first == null) {
                    tryReopen();
                    continue;
                }
                group.add(first);
                queue.drainTo(group, MAX_GROUP);
                commitGroup(group);
                waiting.addAndGet(-group.size());
                group.clear();
                if (!running && queue.isEmpty()) {
                    failLeftovers();
                    closeTarget();
                    return;
                }
            } finally {
                role.unlock();
            }
        }
    }

    /** Commits the writes of a group in order, running its reads between them. */
    private void commitGroup(List<Pending> group) {
        List<Pending> writes = new ArrayList<>(group.size());
        for (Pending p : group) {
            if (fault != null) {
                p.done().completeExceptionally(fault);
            } else if (p.read() != null) {
                flushWrites(writes);
                if (fault != null) {
                    p.done().completeExceptionally(fault);
                } else {
                    runRead(p);
                }
            } else if (p.batch() != null) {
                writes.add(p);
            }
        }
        flushWrites(writes);
        runAfterConfirmations(); // what a read's or a failed write's callbacks deferred
    }

    /** The next request; null when a faulted store is due for another try to reopen. */
    private Pending next() throws InterruptedException {
        while (fault == null && running) {
            Pending p = queue.poll(IDLE_MILLIS, TimeUnit.MILLISECONDS);
            if (p != null) {
                return p;
            }
            idleIfNoCommits();
        }
        if (!running) {
            return queue.take();
        }
        long wait = nextTryNanos - System.nanoTime();
        return wait > 0 ? queue.poll(wait, TimeUnit.NANOSECONDS) : null;
    }

    /**
     * No commit for a while, by the writer or by callers: the target's housekeeping (a checkpoint that
     * frees a drained backlog's space), once per such pause.
     */
    private void idleIfNoCommits() {
        role.lock();
        try {
            long lastCommit = callerCommits.lastCommitEndNanos();
            if (waiting.get() == 0 && lastCommit != housekeptAfter && System.nanoTime() - lastCommit >= IDLE_NANOS) {
                housekeptAfter = lastCommit;
                idle();
            }
        } finally {
            role.unlock();
        }
    }

    private void idle() {
        try {
            applier.idle();
        } catch (Throwable t) {
            org.partita.broker.process.FatalErrors.check(t);
            if (StoreFaults.isFault(t)) {
                enterFault(t, "checkpointing", List.of());
            } else {
                LOG.warn("store housekeeping failed: {}", t.toString());
            }
        }
    }

    private void closeTarget() {
        if (fault == null) {
            applier.close();
            return;
        }
        try {
            releaseAbandoned();
        } catch (Throwable t) {
            org.partita.broker.process.FatalErrors.check(t);
            LOG.error(
                    "the store stops while faulted and could not mark the failed writes as void ({}); a restart may"
                            + " replay writes that were answered with an error",
                    StoreFaults.describe(t));
        }
    }

    /** Anything that slipped in while stopping is failed, never left waiting. */
    private void failLeftovers() {
        Pending p;
        while ((p = queue.poll()) != null) {
            waiting.decrementAndGet();
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
            if (StoreFaults.isFault(t)) {
                enterFault(t, "reading", List.of(p));
            } else {
                p.done().completeExceptionally(t);
            }
        }
    }

    /**
     * Commits the writes in runs: batches the target wants apart (queue definitions) are a run of
     * their own, with those that follow them at once, so that no group's journal records are carried
     * into H2 before they are confirmed; and a run ends before the batch that would take its payloads
     * past the target's {@link CommitTarget#groupBytes}.
     */
    private void flushWrites(List<Pending> writes) {
        long most = applier.groupBytes();
        int from = 0;
        long bytes = 0;
        for (int i = 0; i < writes.size(); i++) {
            StoreBatch b = writes.get(i).batch();
            if (applier.standsAlone(b)) {
                commitRun(writes.subList(from, i));
                int end = endOfApartRun(writes, i);
                commitRun(writes.subList(i, end));
                from = end;
                i = end - 1;
                bytes = 0;
                continue;
            }
            bytes += b.payloadCost();
            if (bytes > most && i > from) {
                commitRun(writes.subList(from, i));
                from = i;
                bytes = b.payloadCost();
            }
        }
        commitRun(writes.subList(from, writes.size()));
        writes.clear();
    }

    /** Batches committed apart in one group at most: 10,000 queues attached at once cost ten H2 syncs, not 10,000. */
    static final int MOST_APART_IN_A_GROUP = 1024;

    /** The end (exclusive) of the run of batches to commit apart that begins at {@code first}. */
    private int endOfApartRun(List<Pending> writes, int first) {
        int end = first + 1;
        while (end < writes.size()
                && end - first < MOST_APART_IN_A_GROUP
                && applier.standsAlone(writes.get(end).batch())) {
            end++;
        }
        return end;
    }

    /**
     * Commits the run as one transaction. If its content is refused, one bad batch must not fail
     * its neighbours: each is retried alone. Whatever committed is then synced and confirmed. A
     * fault fails the whole run and stops the store.
     */
    private void commitRun(List<Pending> run) {
        if (run.isEmpty()) {
            return;
        }
        if (fault != null) {
            run.forEach(p -> p.done().completeExceptionally(fault));
            return;
        }
        List<StoreBatch> batches = new ArrayList<>(run.size());
        for (Pending p : run) {
            batches.add(p.batch());
        }
        List<Pending> committed = run;
        boolean forced = run.stream().anyMatch(p -> p.batch().forced());
        try {
            applier.apply(batches);
            counted(batches);
        } catch (Throwable groupFailure) {
            org.partita.broker.process.FatalErrors.check(groupFailure);
            if (StoreFaults.isFault(groupFailure) || !applier.cleanFailure()) {
                enterFault(groupFailure, "writing", run);
                return;
            }
            if (run.size() == 1) {
                run.get(0).done().completeExceptionally(refused(groupFailure));
                return;
            }
            LOG.warn(
                    "group commit of {} batches failed ({}); retrying one by one", run.size(), groupFailure.toString());
            committed = new ArrayList<>();
            for (Pending p : run) {
                try {
                    applier.apply(List.of(p.batch()));
                    counted(List.of(p.batch()));
                    committed.add(p);
                } catch (Throwable t) {
                    org.partita.broker.process.FatalErrors.check(t);
                    if (StoreFaults.isFault(t) || !applier.cleanFailure()) {
                        enterFault(
                                t,
                                "writing",
                                run.stream().filter(q -> !q.done().isDone()).toList());
                        return;
                    }
                    p.done().completeExceptionally(refused(t));
                }
            }
        }
        // a queue definition's run also syncs H2 after a checkpoint: not what a network thread's sync costs
        syncThenComplete(committed, forced, !applier.standsAlone(run.get(0).batch()));
        callerCommits.committed(System.nanoTime());
    }

    /** A group is committed (counted before its senders hear of it, so the figures never lag their answers). */
    private void counted(List<StoreBatch> group) {
        commits.incrementAndGet();
        counters.committedGroup(group);
        if (!isWriterThread()) {
            counters.committedByCaller();
        }
    }

    private static StoreException refused(Throwable t) {
        return new StoreException("store write failed: " + t.getMessage(), t);
    }

    /** Confirms writes only once they are on the disk; a failed sync is a fault and confirms none. */
    private void syncThenComplete(List<Pending> committed, boolean force, boolean journalOnly) {
        if (committed.isEmpty()) {
            return;
        }
        try {
            if (force && syncOnCommit) {
                long start = System.nanoTime();
                applier.sync(); // one sync covers this group and every relaxed group before it
                if (journalOnly) {
                    callerCommits.synced(System.nanoTime() - start);
                }
                counters.synced();
            }
        } catch (Throwable t) {
            org.partita.broker.process.FatalErrors.check(t);
            enterFault(t, "syncing", committed);
            return;
        }
        committed.forEach(p -> p.done().complete(null));
        runAfterConfirmations();
        applier.settled();
    }

    /**
     * Stops writing: the failing requests and every later one get the fault; what the failed
     * group appended is voided; the writer then tries to reopen the store.
     */
    private void enterFault(Throwable cause, String doing, List<Pending> failing) {
        String reason = StoreFaults.describe(cause);
        String advice = advice(reason);
        StoreUnavailableException e = new StoreUnavailableException(
                "the store cannot write (" + reason + " while " + doing
                        + "); the node retries and resumes by itself once the cause is gone"
                        + (advice == null ? "" : ": " + advice),
                cause);
        boolean first = fault == null;
        fault = e;
        failing.forEach(p -> p.done().completeExceptionally(e));
        if (first) {
            counters.faulted(reason);
            LOG.atError()
                    .addKeyValue("event", "store.fault")
                    .setCause(cause)
                    .log("store fault while {}: {}; persistent work is refused until the store reopens", doing, reason);
            abandoned = applier;
            retryDelayMillis = retry.firstMillis();
            tries = 0;
            try {
                releaseAbandoned();
            } catch (Throwable t) {
                org.partita.broker.process.FatalErrors.check(t);
                LOG.warn("could not void the failed writes yet ({}); will retry", StoreFaults.describe(t));
            }
        }
        nextTryNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(retryDelayMillis);
    }

    /** Voids the failed group's records and lets go of the broken target; retried until it works. */
    private void releaseAbandoned() throws Exception {
        if (abandoned != null) {
            abandoned.abandon();
            abandoned.release();
            abandoned = null;
        }
    }

    /** The reopener's advice about a fault, never failing the fault's handling itself. */
    private String advice(String reason) {
        if (reopener == null) {
            return null;
        }
        try {
            return reopener.advice(reason);
        } catch (RuntimeException e) {
            LOG.debug("no advice about the store fault: {}", e.toString());
            return null;
        }
    }

    private void tryReopen() {
        if (reopener == null) {
            nextTryNanos = System.nanoTime() + TimeUnit.HOURS.toNanos(1); // nothing can reopen it: stay faulted
            return;
        }
        tries++;
        try {
            releaseAbandoned();
            applier = reopener.reopen();
            LOG.atWarn()
                    .addKeyValue("event", "store.recovered")
                    .log(
                            "store reopened after {} tries; persistent work resumes (the fault was: {})",
                            tries,
                            fault.getMessage());
            fault = null;
            counters.recovered();
        } catch (Throwable t) {
            org.partita.broker.process.FatalErrors.check(t);
            retryDelayMillis = Math.min(retry.maxMillis(), retryDelayMillis * 2);
            nextTryNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(retryDelayMillis);
            String reason = StoreFaults.describe(t);
            String advice = advice(reason);
            LOG.warn(
                    "store still cannot reopen (try {}: {}{}); next try in {} ms",
                    tries,
                    reason,
                    advice == null ? "" : "; " + advice,
                    retryDelayMillis);
        }
    }
}
