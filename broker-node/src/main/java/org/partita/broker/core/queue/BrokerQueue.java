package org.partita.broker.core.queue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.partita.broker.core.SerialExecutor;
import org.partita.broker.core.dispatch.BroadcastEngine;
import org.partita.broker.core.dispatch.ConsumerFigures;
import org.partita.broker.core.dispatch.ConsumerRef;
import org.partita.broker.core.dispatch.DispatchEngine;
import org.partita.broker.core.dispatch.PartitionedQueueEngine;
import org.partita.broker.core.dispatch.SharedQueueEngine;
import org.partita.broker.core.partition.PartitionFigures;
import org.partita.broker.core.partition.PartitionScope;
import org.partita.broker.core.partition.Repartitioning;
import org.partita.broker.store.MessageStore;
import org.partita.broker.store.StoreBatch;
import org.partita.broker.store.StoreBatches;
import org.partita.broker.store.StoreOp;
import org.partita.protocol.selector.Selector;
import org.partita.protocol.selector.WireMessageContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A queue: storage rules for its entries (what goes to the store, dead letters, expiry) and the
 * acknowledgement protocol. Who receives which message is its {@link DispatchEngine}'s business.
 * Every method hops onto the queue's own {@link SerialExecutor}, so the state below is
 * single-threaded and no lock is shared between queues.
 */
public final class BrokerQueue implements DispatchEngine.Host {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerQueue.class);
    /**
     * Messages waiting for a consumer (held, not delivered) a queue has at most for its work to run
     * in place on the calling thread when its executor is idle ({@link #runHereIfShort}): a
     * just-stored message's dispatch on the store's writer ({@link #enqueueStored}), an
     * acknowledgement or a credit on the connection's thread. A queue with a longer backlog hands its
     * work to its executor, so that no such thread spends long on one queue's dispatch. Messages
     * delivered and not yet acknowledged do not count: a dispatch never walks past them.
     */
    public static final int IN_PLACE_DEPTH = 32;

    private final String name;
    private final boolean durable;
    private volatile QueueOptions options;
    private final QueueServices services;
    private final SerialExecutor executor;
    private DispatchEngine engine;
    private Repartitioning repartitioning;
    private final List<ConsumerRef> consumers = new ArrayList<>();
    private final java.util.Set<QueueEntry> delivered = new java.util.HashSet<>();
    /** {@code delivered.size()}, readable from any thread: see {@link #waitingNow}. */
    private volatile int inFlight;
    /** Entries consumed by prepared XA branches: neither waiting nor delivered until the branch completes. */
    private final java.util.Set<QueueEntry> locked = new java.util.HashSet<>();

    private final LastValueRule lastValue;
    private final QueueCounters counters;
    private final Consumption consumption = new Consumption();
    /** Once a queue is fed by topics, non-persistent messages are kept durably in it, for good. */
    private volatile boolean promotes;

    private volatile boolean repartitioningFlag;
    private final java.util.concurrent.atomic.AtomicInteger depthMessages =
            new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicLong depthBytes = new java.util.concurrent.atomic.AtomicLong();
    private ScheduledFuture<?> wakeUp;
    private long wakeUpAt = Long.MAX_VALUE;
    /** Set on the executor when the queue is deleted: what comes back afterwards is let go. */
    private boolean purged;
    /** Where the next unkeyed message of a replicated queue is placed (see {@link #storeFor}). */
    private final java.util.concurrent.atomic.AtomicInteger unkeyedPlacement =
            new java.util.concurrent.atomic.AtomicInteger();

    /**
     * @param durable whether its entries are kept in the store; non-durable subscriptions and
     *                temporary queues keep everything in memory, since they end with their connection
     */
    public BrokerQueue(String name, QueueOptions options, QueueServices services, boolean durable) {
        this.name = name;
        this.durable = durable;
        this.options = options;
        this.services = services;
        this.executor = new SerialExecutor(services.pool());
        this.engine = engineFor(options);
        this.lastValue = options.lastValue() == null ? null : new LastValueRule(options.lastValue());
        this.counters = new QueueCounters(services.clock().getAsLong());
    }

    private boolean isBroadcast() {
        return QueueOptions.BROADCAST.equals(options.mode());
    }

    /** The routing mode selects the engine; modes are data, engines are small classes. */
    private DispatchEngine engineFor(QueueOptions o) {
        if (QueueOptions.BROADCAST.equals(o.mode())) {
            return new BroadcastEngine(this);
        }
        if (o.partitions() > 1 || services.clustered(o)) {
            return new PartitionedQueueEngine(this, o.partitions(), () -> this.options, services.scope(name, o));
        }
        return new SharedQueueEngine(this);
    }

    public String name() {
        return name;
    }

    /** True when a persistent message put here needs an entry row in the store. */
    public boolean durable() {
        return durable;
    }

    /**
     * Whether a message put here needs an entry row in the store: on a durable queue, persistent
     * messages, and also non-persistent ones when the queue is fed by topic subscriptions (they are
     * promoted when they land). Broadcast keeps nothing.
     */
    public boolean storesEntryOf(MessageRef m) {
        return durable && (m.persistent() || promotes) && !isBroadcast();
    }

    /**
     * Keys a message sent to or forwarded for this queue the way its partitions are chosen: by its
     * last-value key on a clustered last value queue, else as it came. Before the message is routed.
     */
    public void keyForPartitions(MessageRef m) {
        LastValueRule.partitionByLastValue(options, m);
    }

    /** From now on non-persistent messages put here are stored (the queue is fed by topics). */
    public void promote() {
        promotes = true;
    }

    /** True while a partition count change still drains the old layout. */
    public boolean repartitioning() {
        return repartitioningFlag;
    }

    /**
     * Counts a message against the queue's depth limits before it is stored; false if the queue is
     * full (the sender gets ResourceAllocationException and nothing is stored).
     */
    public boolean reserve(MessageRef m) {
        if (isBroadcast()) {
            return true; // nothing is kept, so nothing counts
        }
        int maxMessages = options.maxDepthMessages();
        long maxBytes = options.maxDepthBytes();
        int n = countIn(m);
        long b = depthBytes.get();
        if ((maxMessages > 0 && n > maxMessages) || (maxBytes > 0 && b > maxBytes && n > 1)) {
            unreserve(m);
            return false;
        }
        return true;
    }

    /** Whether the queue is at its depth limit now (a clustered queue then sends unkeyed messages elsewhere). */
    public boolean full() {
        int maxMessages = options.maxDepthMessages();
        long maxBytes = options.maxDepthBytes();
        return (maxMessages > 0 && depthMessages.get() >= maxMessages)
                || (maxBytes > 0 && depthBytes.get() >= maxBytes);
    }

    /** Messages held: waiting and delivered but not acknowledged. */
    public int depth() {
        return depthMessages.get();
    }

    /** Encoded bytes of the messages held: waiting and delivered but not acknowledged. */
    public long heldBytes() {
        return depthBytes.get();
    }

    /** Its consumers' pace, for the flow control of its producers. */
    public Consumption consumption() {
        return consumption;
    }

    /** Undoes {@link #reserve} for a message that left the queue or never entered it. */
    public void unreserve(MessageRef m) {
        if (isBroadcast()) {
            return;
        }
        depthMessages.decrementAndGet();
        long held = depthBytes.addAndGet(-m.size());
        if (lastValue != null) {
            lastValue.unhold(m);
        }
        consumption.left(held);
    }

    /**
     * Counts a message into the queue's depth; returns the depth in messages the limits apply to
     * (for a last value queue the number of keys held: a new value replaces the older one).
     */
    private int countIn(MessageRef m) {
        int n = depthMessages.incrementAndGet();
        depthBytes.addAndGet(m.size());
        return lastValue == null ? n : lastValue.hold(m);
    }

    public QueueOptions options() {
        return options;
    }

    public void options(QueueOptions o) {
        options = o;
    }

    /**
     * Whether this node's layout of the queue, as applied here so far, hosts the partition {@code m}
     * goes to (any partition, for an unkeyed message). Another node that applied a layout change
     * first may already forward by the new layout; stored here by the old one, the message would sit
     * in a partition nobody serves, and hold up the new partition its key moved to.
     */
    public boolean hostsPartitionOf(MessageRef m) {
        QueueOptions o = options;
        PartitionScope scope = services.scope(name, o);
        int keyed = m.partition(o.partitions());
        if (keyed >= 0) {
            return scope.hosted(keyed);
        }
        for (int p = 0; p < o.partitions(); p++) {
            if (scope.hosted(p)) {
                return true;
            }
        }
        return false;
    }

    private long now() {
        return services.clock().getAsLong();
    }

    /**
     * A new message that is not to be stored (non-persistent, or a queue that keeps nothing), the
     * caller has retained it for this queue. Dispatched on the sender's thread when the queue is
     * short and idle: {@link #runHereIfShort}.
     *
     * @param deliveryCount deliveries it may have had already (a message forwarded again after a crash)
     */
    public void enqueue(MessageRef message, int deliveryCount) {
        runHereIfShort(addition(new QueueEntry(this, message, deliveryCount), null));
    }

    /**
     * A message the store has just made durable, on the thread that committed it: the network thread
     * that wrote it, at the end of its turn, or the store's writer
     * thread. While the queue holds few messages
     * and no other thread runs its work, the work (queue it, dispatch it) runs on the writer thread,
     * once it has answered the group's senders: on the
     * path of every persistent send from producer to consumer this saves a thread hand-off. A queue with a backlog goes through its executor as before, so the
     * writer never spends long on one queue's dispatch (or reads paged-out payloads for it) before its
     * next group commit.
     */
    public void enqueueStored(MessageRef message, int deliveryCount) {
        Runnable task = addition(new QueueEntry(this, message, deliveryCount), null);
        if (!services.store().onWriterThread()) {
            // The sender's network thread committed the write itself, or the write completed before
            // that thread attached to it: it dispatches, as for a message that is not stored
            // (deliveries keep their order on a connection whichever thread writes them: ServerConsumer).
            runHereIfShort(task);
        } else if (waitingNow() <= IN_PLACE_DEPTH) {
            // In line now, so whatever the sender asks after its answer comes after this message; run
            // once the writer has sent the group's answers, so the sender's next send is not held up
            // by this dispatch (S1: one producer waits for each answer).
            if (executor.queueAndClaimIfIdle(task)) {
                services.store().afterConfirmations(executor::runClaimed);
            }
        } else {
            executor.execute(task);
        }
    }

    /**
     * Runs {@code task} on the calling thread when no other thread runs (or is about to run) this
     * queue's work and the queue has few messages waiting, else on its executor. On two busy cores a
     * hand-off to the executor's pool can wait milliseconds for a core, and whatever is queued behind
     * it waits too; a short queue's work is short, so the caller does it.
     */
    private void runHereIfShort(Runnable task) {
        if (waitingNow() <= IN_PLACE_DEPTH) {
            executor.executeHereIfIdle(task);
        } else {
            executor.execute(task);
        }
    }

    /** About how many messages wait for a consumer now: held, less those delivered and not yet settled. */
    private int waitingNow() {
        return depthMessages.get() - inFlight;
    }

    /** True when none of this queue's work waits or runs (for tests that need a quiet queue). */
    boolean workIdle() {
        return executor.isIdle();
    }

    /**
     * @param expired the message already expired and was moved here: it is kept, not expired again
     * @return completes once the message waits among this queue's messages
     */
    private CompletableFuture<Void> enqueue(MessageRef message, int deliveryCount, boolean expired) {
        QueueEntry e = new QueueEntry(this, message, deliveryCount);
        if (expired) {
            e.keepPastExpiration();
        }
        CompletableFuture<Void> added = new CompletableFuture<>();
        executor.execute(addition(e, added));
        return added;
    }

    /** The queue's work for a new entry: among the waiting ones, counted, dispatched. */
    private Runnable addition(QueueEntry e, CompletableFuture<Void> added) {
        return () -> {
            add(e);
            counters.enqueued(e.partition());
            if (added != null) {
                added.complete(null);
            }
            dispatch();
        };
    }

    /** Puts an entry among the waiting ones, applying the last-value rule. */
    private void add(QueueEntry e) {
        if (lastValue != null) {
            QueueEntry older = lastValue.supersede(e);
            if (older != null && engineOf(older).remove(older)) {
                storeOf(older).write(removal(older));
            } else if (older != null && storesEntryOf(older.message())) {
                // In flight: its consumer keeps it until it settles, but a restart or the set's next
                // leader must not read it back once the newer value is consumed. Its removal writes
                // this deletion again when it settles, with its payload's.
                storeOf(older).write(StoreBatch.relaxed().add(new StoreOp.DeleteEntry(name, older.id())));
            }
        }
        engine.add(e);
    }

    /**
     * A message read back from the store at start-up.
     *
     * @param expiryQueue this queue receives other queues' expired messages: one that had expired
     *                    when it was moved here stays, as it did before the restart
     */
    public void restore(MessageRef message, int deliveryCount, boolean expiryQueue) {
        message.retain(1);
        QueueEntry e = new QueueEntry(this, message, deliveryCount);
        if (expiryQueue && message.expiration() > 0 && message.expiration() <= now()) {
            e.keepPastExpiration();
        }
        countIn(message);
        executor.execute(() -> add(e));
    }

    /**
     * The partitions this node serves of a clustered queue changed: a replica set's leadership came
     * here (its entries were {@link #restore}d first) or went. Waiting entries of {@code lost}
     * partitions are let go without touching any store (the set's new leader has them); partitions
     * served now get owners among the consumers.
     */
    public void hostingChanged(java.util.function.IntPredicate lost) {
        executor.execute(() -> {
            if (engine instanceof PartitionedQueueEngine pe) {
                for (QueueEntry e : pe.takeWaiting(lost)) {
                    left(e);
                    e.message().release();
                }
                letGoDelivered(lost);
                pe.hostingChanged(now());
            }
            dispatch();
        });
    }

    /**
     * Lets go the in-flight entries of partitions no longer served here (on the executor). The set's
     * leader redelivers them, flagged, from its store; were one kept, a later hand-back here would
     * put a second copy beside the one restored when this node leads the set again, and one only
     * prefetched comes back unflagged: a repeat the application could not tell from a new message.
     * So their consumers' later acknowledgements and hand-backs find no holder and change nothing.
     */
    private void letGoDelivered(java.util.function.IntPredicate lost) {
        for (java.util.Iterator<QueueEntry> it = delivered.iterator(); it.hasNext(); ) {
            QueueEntry e = it.next();
            if (e.partition() < 0 || !lost.test(e.partition())) {
                continue;
            }
            it.remove();
            ConsumerRef by = e.holder();
            e.letGo();
            if (by != null) {
                by.settled(e);
            }
            engineOf(e).settled(e, now());
            left(e);
            e.message().release();
        }
        inFlight = delivered.size();
    }

    /** Completes once the work queued on this queue before the call has run (and written what it writes). */
    public CompletableFuture<Void> queuedWorkDone() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        executor.execute(() -> done.complete(null));
        return done;
    }

    /** Adds a consumer; the future completes once it takes part in dispatch (a broadcast sent after reaches it). */
    public CompletableFuture<Void> attach(ConsumerRef c) {
        CompletableFuture<Void> attached = new CompletableFuture<>();
        executor.execute(() -> {
            consumers.add(c);
            engine.consumerAdded(c, now());
            if (repartitioning != null) {
                repartitioning.old().consumerAdded(c, now());
            }
            dispatch();
            attached.complete(null);
        });
        return attached;
    }

    /** Removes a consumer; what it holds stays in flight until acknowledged or released by its session. */
    public void detach(ConsumerRef c) {
        executor.execute(() -> {
            consumers.remove(c);
            engine.consumerRemoved(c, now());
            if (repartitioning != null) {
                repartitioning.old().consumerRemoved(c, now());
            }
            dispatch();
        });
    }

    /** Changes a consumer's priority and capacity while attached; effective at the next dispatch. */
    /**
     * The future completes on the queue's executor once the change applies, so an answer written then
     * follows what the queue did before; with nothing to change it is only that barrier (a client
     * starting its connection waits on it for its credit to be in place).
     */
    public CompletableFuture<Void> update(
            ConsumerRef c, Integer priority, Integer capacityMessages, Long capacityBytes) {
        CompletableFuture<Void> applied = new CompletableFuture<>();
        executor.execute(() -> {
            if (priority == null && capacityMessages == null && capacityBytes == null) {
                applied.complete(null);
                return;
            }
            if (priority != null) {
                c.priority(priority);
            }
            if (capacityMessages != null || capacityBytes != null) {
                c.capacity(capacityMessages == null ? 0 : capacityMessages, capacityBytes == null ? 0 : capacityBytes);
            }
            consumerChanged(c);
            applied.complete(null);
        });
        return applied;
    }

    /** On the executor: who owns which partition may change with a consumer's priority or spareness. */
    private void consumerChanged(ConsumerRef c) {
        engine.consumerChanged(c, now());
        if (repartitioning != null) {
            repartitioning.old().consumerChanged(c, now());
        }
        dispatch();
    }

    /**
     * Another node's consumer became spare there (its node gives it none of its partitions) or
     * stopped being so: on a clustered queue that changes whether it may own partitions here.
     */
    public CompletableFuture<Void> spare(ConsumerRef c, boolean spare) {
        CompletableFuture<Void> applied = new CompletableFuture<>();
        executor.execute(() -> {
            if (c.spare() != spare) {
                c.spare(spare);
                consumerChanged(c);
            }
            applied.complete(null);
        });
        return applied;
    }

    /**
     * Takes back all of a consumer's credit. The future completes on the queue's executor after
     * every delivery made to it so far, so an answer written then follows those deliveries on the wire.
     */
    public CompletableFuture<Void> drain(ConsumerRef c) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        executor.execute(() -> {
            c.clearCredits();
            done.complete(null);
        });
        return done;
    }

    /**
     * Delivers nothing more to {@code c} until {@link #resume}. The future completes on the executor
     * after every delivery made to it so far, so a recover's fence taken then covers all of them: a
     * dispatch pass still running would otherwise deliver a key's later messages just after the
     * fence, and the client would take them before the earlier ones the recover hands back.
     */
    public CompletableFuture<Void> hold(ConsumerRef c) {
        CompletableFuture<Void> held = new CompletableFuture<>();
        executor.execute(() -> {
            c.hold();
            held.complete(null);
        });
        return held;
    }

    /** Ends a {@link #hold}: queued after what the recover handed back, so that is delivered first. */
    public void resume(ConsumerRef c) {
        executor.execute(() -> {
            c.resume();
            dispatch();
        });
    }

    public void credit(ConsumerRef c, int messages) {
        creditReturned(c, messages, 0);
    }

    /** The client gave back the room of deliveries this queue made to {@code c}: {@code bytes} of its byte window. */
    public void creditReturned(ConsumerRef c, int messages, long bytes) {
        runHereIfShort(() -> {
            c.creditReturned(messages, bytes);
            dispatch();
        });
    }

    /**
     * Consumes an entry delivered to {@code by}; the future completes when its removal is durable.
     * An entry taken back from {@code by} meanwhile (partition handoff) is not touched.
     */
    public CompletableFuture<Void> ack(QueueEntry e, ConsumerRef by) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Runnable task = () -> {
            if (!settle(e, by)) {
                done.complete(null);
                return;
            }
            consumed(e, by);
            storeOf(e).write(removal(e)).whenComplete((v, t) -> complete(done, t));
            dispatch();
        };
        // A short queue settles on the acknowledging connection's thread when no other thread runs
        // its work: one thread wake-up fewer per message consumed. Deliveries this dispatches there
        // keep their order (ServerConsumer queues its writes); a queue this short seldom has a
        // paged-out payload to read back for them (as on the writer, enqueueStored).
        runHereIfShort(task);
        return done;
    }

    /** The store that keeps {@code e}'s entry, or null when this queue keeps none for it. */
    public MessageStore entryStore(QueueEntry e) {
        return storesEntryOf(e.message()) ? storeOf(e) : null;
    }

    /** Adds the removal of an entry to a transaction's batches; apply with {@link #forget} after commit. */
    public void addRemoval(QueueEntry e, StoreBatches batches) {
        if (storesEntryOf(e.message())) {
            batches.of(storeOf(e)).add(new StoreOp.DeleteEntry(name, e.id()));
        }
    }

    /**
     * The store that keeps this message's entry here: the node's, or, on a replicated queue, the
     * store of its partition's replica set. An unkeyed message is placed first, in turn, in a
     * partition this node serves now, and stays in that partition.
     */
    public MessageStore storeFor(MessageRef m) {
        QueueOptions o = options;
        return services.replicated(o) ? services.storeOf(name, o, partitionFor(m, o)) : services.store();
    }

    /** The store that keeps an entry of this queue (see {@link #storeFor}). */
    public MessageStore storeOf(QueueEntry e) {
        QueueOptions o = options;
        if (!services.replicated(o)) {
            return services.store();
        }
        int p = e.partition();
        return services.storeOf(name, o, p >= 0 && p < o.partitions() ? p : partitionFor(e.message(), o));
    }

    private int partitionFor(MessageRef m, QueueOptions o) {
        int partitions = o.partitions();
        int keyed = m.partition(partitions);
        if (keyed >= 0) {
            return keyed;
        }
        int placed = m.placedPartition();
        if (placed >= 0 && placed < partitions) {
            return placed;
        }
        PartitionScope scope = services.scope(name, o);
        int turn = unkeyedPlacement.getAndIncrement() & Integer.MAX_VALUE;
        int chosen = turn % partitions;
        for (int i = 0; i < partitions; i++) {
            int p = (turn + i) % partitions;
            if (scope.hosted(p)) {
                chosen = p;
                break;
            }
        }
        m.place(chosen);
        return chosen;
    }

    /** After a committed transaction consumed the entry: drop it from memory. */
    public void forget(QueueEntry e, ConsumerRef by) {
        executor.execute(() -> {
            if (!settle(e, by)) {
                return;
            }
            consumed(e, by);
            left(e);
            if (e.message().release() && e.message().stored()) {
                storeOf(e)
                        .write(StoreBatch.relaxed()
                                .add(new StoreOp.DeleteMessage(
                                        e.id(), e.message().size())));
            }
            dispatch();
        });
    }

    /**
     * A prepared XA branch consumed the entry: it leaves its consumer, so no partition handoff can
     * take it back, and waits, locked, for the branch's outcome ({@link #commitLocked},
     * {@link #rollbackLocked}). Completes false if {@code by} no longer holds it (it was taken back
     * and may be delivered again: the branch cannot keep its promise and must roll back).
     */
    public CompletableFuture<Boolean> lock(QueueEntry e, ConsumerRef by) {
        CompletableFuture<Boolean> done = new CompletableFuture<>();
        executor.execute(() -> {
            if (!settle(e, by)) {
                done.complete(false);
                return;
            }
            e.locked();
            locked.add(e);
            done.complete(true);
            dispatch();
        });
        return done;
    }

    /** The branch that locked the entry committed (its removal is durable): the entry is consumed. */
    public void commitLocked(QueueEntry e) {
        executor.execute(() -> {
            if (!locked.remove(e)) {
                return;
            }
            consumption.taken();
            counters.acknowledged(e.partition());
            left(e);
            if (e.message().release() && e.message().stored()) {
                storeOf(e)
                        .write(StoreBatch.relaxed()
                                .add(new StoreOp.DeleteMessage(
                                        e.id(), e.message().size())));
            }
        });
    }

    /**
     * A prepared branch's locked entry whose partition another node serves now (with the branch's
     * part kept in the partition's replica set): it leaves this node, neither consumed nor redelivered here.
     */
    public void letGoLocked(QueueEntry e) {
        executor.execute(() -> {
            if (locked.remove(e)) {
                left(e);
                e.message().release();
            }
        });
    }

    /** The branch that locked the entry rolled back: it comes back redelivered, at its old place. */
    public void rollbackLocked(QueueEntry e) {
        executor.execute(() -> {
            if (locked.remove(e)) {
                putBack(e, true);
                dispatch();
            }
        });
    }

    /**
     * A stored entry a prepared branch had consumed when the node stopped: restored locked, counted
     * as delivered once more (a rollback redelivers it flagged).
     */
    public QueueEntry restoreLocked(MessageRef message, int deliveryCount) {
        message.retain(1);
        QueueEntry e = new QueueEntry(this, message, deliveryCount + 1);
        countIn(message);
        executor.execute(() -> locked.add(e));
        return e;
    }

    /** Counts a message of a prepared branch against this queue whatever its limits (it was counted before a restart). */
    public void reserveRestored(MessageRef m) {
        if (!isBroadcast()) {
            countIn(m);
        }
    }

    /** Hands an entry back. {@code seen}: the application saw it, so it comes back redelivered. */
    public void release(QueueEntry e, ConsumerRef by, boolean seen) {
        executor.execute(() -> {
            if (!settle(e, by)) {
                return;
            }
            e.returned(seen);
            putBack(e, seen);
            dispatch();
        });
    }

    /** A delivery handed back: {@code seen} if the application saw it (it comes back redelivered). */
    public record Returned(QueueEntry entry, ConsumerRef by, boolean seen) {}

    /**
     * Hands several entries back at once (a recover or rollback), then dispatches once: the next
     * pass starts afresh rather than replaying the old delivery order message by message, so a
     * message that keeps failing does not keep the consumer's other partitions behind it.
     */
    public void releaseAll(List<Returned> returned) {
        executor.execute(() -> {
            for (Returned r : returned) {
                if (settle(r.entry(), r.by())) {
                    r.entry().returned(r.seen());
                    putBack(r.entry(), r.seen());
                }
            }
            dispatch();
        });
    }

    private void consumed(QueueEntry e, ConsumerRef by) {
        consumption.taken();
        counters.acknowledged(e.partition());
        by.acknowledged();
    }

    private void undelivered(QueueEntry e) {
        delivered.remove(e);
        inFlight = delivered.size();
    }

    /** Ends an in-flight delivery; false if {@code by} no longer holds the entry. */
    private boolean settle(QueueEntry e, ConsumerRef by) {
        if (e.holder() != by) {
            return false;
        }
        undelivered(e);
        by.settled(e);
        engineOf(e).settled(e, now());
        return true;
    }

    /** A failed delivery handed back: {@code seen} ones wait out the queue's redelivery delay. */
    private void putBack(QueueEntry e, boolean seen) {
        putBack(e, seen, seen);
    }

    /**
     * @param seen    the application saw it: it counts as a delivery, and may reach maxDeliveryAttempts
     * @param delayed it waits out the queue's redelivery delay before it is delivered again
     */
    private void putBack(QueueEntry e, boolean seen, boolean delayed) {
        if (purged) {
            storeOf(e).write(removal(e)); // handed back after its queue was deleted: let it go
            return;
        }
        if (isBroadcast() || (lastValue != null && lastValue.superseded(e))) {
            storeOf(e).write(removal(e)); // at most once, or a newer value exists
            return;
        }
        int max = options.maxDeliveryAttempts();
        if (seen
                && max > 0
                && e.deliveryCount() >= max
                && !options.deadLetterQueue().isEmpty()) {
            LOG.info(
                    "message {} of queue {} reached {} delivery attempts; moving it to {}",
                    e.message().wire().messageId(),
                    name,
                    e.deliveryCount(),
                    options.deadLetterQueue());
            counters.deadLettered(e.partition());
            moveTo(
                    e,
                    options.deadLetterQueue(),
                    false,
                    DeadLetterStamp.attemptsReached(name, e.deliveryCount(), max, now()));
            return;
        }
        if (seen && storesEntryOf(e.message())) {
            storeOf(e)
                    .write(StoreBatch.relaxed().add(new StoreOp.UpdateDeliveryCount(name, e.id(), e.deliveryCount())));
        }
        if (delayed) {
            long wait = options.redeliveryDelay().afterDeliveries(e.deliveryCount());
            e.redeliverAt(wait > 0 ? now() + wait : 0);
        }
        engineOf(e).add(e);
    }

    /** The engine an entry belongs to: the old layout's while a partition count change drains it. */
    private DispatchEngine engineOf(QueueEntry e) {
        return repartitioning != null && repartitioning.owns(e) ? repartitioning.old() : engine;
    }

    /**
     * Changes the partition count of the live queue (see {@link Repartitioning}); the options must
     * already name the new count.
     */
    public void repartition() {
        repartitioningFlag = true;
        executor.execute(() -> {
            if (repartitioning != null) {
                throw new IllegalStateException(
                        "queue " + name + " is still draining an earlier partition count change");
            }
            DispatchEngine old = engine;
            if (old instanceof PartitionedQueueEngine retired) {
                retired.retire();
            }
            List<QueueEntry> held = new ArrayList<>(delivered);
            old.waiting().forEach(held::add);
            engine = engineFor(options);
            repartitioning = new Repartitioning(old, options.partitions(), held);
            repartitioningFlag = true;
            if (engine instanceof PartitionedQueueEngine pe) {
                pe.hold(p -> repartitioning != null && repartitioning.held(p));
            }
            for (ConsumerRef c : consumers) {
                engine.consumerAdded(c, now());
            }
            LOG.info(
                    "queue {} now has {} partitions; keys move once their old partition drained",
                    name,
                    options.partitions());
            dispatch();
        });
    }

    @Override
    public void revoke(QueueEntry e) {
        undelivered(e);
        if (e.holder() != null) {
            e.holder().settled(e);
        }
        e.returned(true);
        // Taken back because its partition moved, not because it failed: the new owner gets it at once.
        putBack(e, true, false);
    }

    @Override
    public void handedOff(int partition) {
        counters.handedOff(partition);
    }

    @Override
    public void deliver(ConsumerRef c, QueueEntry e) {
        counters.delivered(e.partition(), e.deliveryCount() > 0, now());
        delivered.add(e);
        inFlight = delivered.size();
        e.deliveredTo(c);
        // An old layout still draining after a partition count change has partitions the client
        // was never told of: its deliveries name none.
        boolean oldLayout = repartitioning != null && repartitioning.owns(e);
        c.deliver(e, oldLayout ? -1 : e.partition());
    }

    @Override
    public boolean isExpired(QueueEntry e, long now) {
        if (e.keptPastExpiration()) {
            return false;
        }
        long exp = e.message().expiration();
        return exp > 0 && exp <= now;
    }

    @Override
    public void expire(QueueEntry e) {
        counters.expired(e.partition());
        String target = options.expiryQueue();
        if (target.isEmpty() || target.equals(name)) {
            storeOf(e).write(removal(e));
        } else {
            moveTo(e, target, true, DeadLetterStamp.expired(name, e.deliveryCount(), now()));
        }
    }

    /** Copies of the waiting messages that match, in delivery order, without removing anything. */
    public CompletableFuture<List<MessageRef>> browse(Selector selector) {
        CompletableFuture<List<MessageRef>> result = new CompletableFuture<>();
        executor.execute(() -> {
            List<MessageRef> out = new ArrayList<>();
            long now = now();
            List<QueueEntry> waiting = new ArrayList<>();
            if (repartitioning != null) {
                repartitioning.old().waiting().forEach(waiting::add);
            }
            engine.waiting().forEach(waiting::add);
            for (QueueEntry e : waiting) {
                if (!isExpired(e, now)
                        && e.message().deliveryTime() <= now
                        && (selector.matchesAll()
                                || selector.matches(
                                        new WireMessageContext(e.message().wire(), e.deliveryCount() + 1)))) {
                    out.add(e.message());
                }
            }
            result.complete(out);
        });
        return result;
    }

    /**
     * Per-partition figures of a partitioned queue (one row for a plain queue), with the delivered
     * count and rate of the queue's counters; an unknown oldest age is -1.
     */
    public CompletableFuture<List<PartitionFigures.Current>> partitionFigures() {
        return figures()
                .thenApply(r ->
                        r.partitions().stream().map(PartitionFigures::current).toList());
    }

    /** Everything admin and metrics show of this queue, read at one moment on its executor. */
    public CompletableFuture<QueueFigures> figures() {
        CompletableFuture<QueueFigures> result = new CompletableFuture<>();
        executor.execute(() -> {
            try {
                result.complete(figuresNow());
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    private QueueFigures figuresNow() {
        long now = now();
        List<PartitionFigures.Current> live = new ArrayList<>();
        if (engine instanceof PartitionedQueueEngine pe) {
            for (int p = 0; p < pe.partitionCount(); p++) {
                live.add(pe.figures(p, now));
            }
        } else {
            QueueEntry oldest = engine.oldestWaiting();
            live.add(new PartitionFigures.Current(
                    0,
                    waitingCount(),
                    delivered.size(),
                    null,
                    "SHARED",
                    oldest == null ? -1 : oldest.message().ageMillis(now),
                    0,
                    0,
                    false));
        }
        List<PartitionFigures> partitions = new ArrayList<>(live.size());
        for (PartitionFigures.Current f : PartitionFigures.markHot(live)) {
            PartitionFigures.Counts c = counters.read(f.partition(), now);
            partitions.add(new PartitionFigures(
                    new PartitionFigures.Current(
                            f.partition(),
                            f.depth(),
                            f.inFlight(),
                            f.owner(),
                            f.state(),
                            f.oldestAgeMillis(),
                            c.delivered(),
                            c.ratePerSecond(),
                            f.hot()),
                    c));
        }
        List<ConsumerFigures> consumerFigures = new ArrayList<>(consumers.size());
        for (ConsumerRef c : consumers) {
            List<Integer> owned = new ArrayList<>();
            for (PartitionFigures.Current f : live) {
                if ("ASSIGNED".equals(f.state()) && c.toString().equals(f.owner())) {
                    owned.add(f.partition());
                }
            }
            consumerFigures.add(c.figures(owned));
        }
        return new QueueFigures(
                name, options, durable, depthMessages.get(), depthBytes.get(), partitions, consumerFigures);
    }

    /** Removes every waiting message (not those in flight); completes with how many went. */
    public CompletableFuture<Integer> purgeWaiting() {
        return takeWaiting(e -> {
            storeOf(e).write(removal(e));
            return true;
        });
    }

    /**
     * Moves waiting messages to other queues, as dead-lettering does (admin: a dead-letter queue
     * back to the sources): {@code target} names the queue for a message, or null to leave it.
     * Completes with how many moved.
     */
    public CompletableFuture<Integer> moveWaiting(java.util.function.Function<MessageRef, String> target) {
        // The reply waits until every moved message is waiting in its target, so that whoever asked
        // for the move (an operator, a script) finds the messages there as soon as it is told.
        // A message the store refused to move stays here and is not counted as moved.
        List<CompletableFuture<Boolean>> landed = new ArrayList<>();
        return takeWaiting(e -> {
                    String to = target.apply(e.message());
                    if (to == null || to.equals(name)) {
                        return false;
                    }
                    landed.add(moveTo(e, to, false, null));
                    return true;
                })
                .thenCompose(taken -> CompletableFuture.allOf(landed.toArray(CompletableFuture[]::new))
                        .thenApply(v -> (int)
                                landed.stream().filter(CompletableFuture::join).count()));
    }

    /** Offers each waiting message to {@code action} once it is out of the engine; puts back those it declines. */
    private CompletableFuture<Integer> takeWaiting(java.util.function.Predicate<QueueEntry> action) {
        CompletableFuture<Integer> result = new CompletableFuture<>();
        executor.execute(() -> {
            try {
                List<QueueEntry> waiting = new ArrayList<>();
                if (repartitioning != null) {
                    repartitioning.old().waiting().forEach(waiting::add);
                }
                engine.waiting().forEach(waiting::add);
                int taken = 0;
                for (QueueEntry e : waiting) {
                    DispatchEngine from = engineOf(e);
                    if (!from.remove(e)) {
                        continue;
                    }
                    boolean took;
                    try {
                        took = action.test(e);
                    } catch (RuntimeException failure) {
                        from.add(e);
                        throw failure;
                    }
                    if (took) {
                        taken++;
                    } else {
                        from.add(e);
                    }
                }
                dispatch();
                result.complete(taken);
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    /** Drops every waiting message (the queue is being deleted); payloads no queue holds are freed. */
    public void purge() {
        executor.execute(() -> {
            purged = true;
            StoreBatches batches = StoreBatches.relaxed();
            List<QueueEntry> waiting = new ArrayList<>();
            engine.waiting().forEach(waiting::add);
            if (repartitioning != null) {
                repartitioning.old().waiting().forEach(waiting::add);
                repartitioning.old().clear();
                repartitioning = null;
                repartitioningFlag = false;
            }
            for (QueueEntry e : waiting) {
                if (e.message().release() && e.message().stored()) {
                    batches.of(storeOf(e))
                            .add(new StoreOp.DeleteMessage(e.id(), e.message().size()));
                }
            }
            engine.clear();
            depthMessages.set(0);
            depthBytes.set(0);
            batches.write();
        });
    }

    private int waitingCount() {
        return engine.waitingCount()
                + (repartitioning == null ? 0 : repartitioning.old().waitingCount());
    }

    private void dispatch() {
        long now = now();
        long next = Long.MAX_VALUE;
        if (repartitioning != null) {
            next = repartitioning.old().dispatch(now);
            if (repartitioning.done()) {
                LOG.info("queue {}: the old partition layout has drained", name);
                repartitioning = null;
                repartitioningFlag = false;
            }
        }
        if (repartitioning == null || engine instanceof PartitionedQueueEngine || !repartitioning.holdsAnything()) {
            next = Math.min(next, engine.dispatch(now));
        }
        if (next != Long.MAX_VALUE) {
            wakeUpAt(next, now);
        }
    }

    /** Store ops that remove an entry, and the payload too when no other queue holds it. */
    /** An entry leaves the queue for good. */
    private void left(QueueEntry e) {
        unreserve(e.message());
        if (lastValue != null) {
            lastValue.removed(e);
        }
        if (repartitioning != null) {
            repartitioning.left(e);
        }
    }

    private StoreBatch removal(QueueEntry e) {
        left(e);
        StoreBatch batch = StoreBatch.relaxed(); // losing it on power failure only redelivers
        boolean last = e.message().release();
        if (storesEntryOf(e.message())) {
            batch.add(new StoreOp.DeleteEntry(name, e.id()));
        }
        if (last && e.message().stored()) {
            batch.add(new StoreOp.DeleteMessage(e.id(), e.message().size()));
        }
        return batch;
    }

    /**
     * Moves a waiting entry to another queue.
     *
     * @param stamp why it is dead-lettered or expired, for the properties of the copy the target
     *              holds (its payload may be shared with other queues, so it is copied under a new
     *              id); null for a move an operator asked for, which keeps the message as it is
     * @return completes with true when the message waits in {@code target}, false when it is back here (the store refused the move)
     */
    private CompletableFuture<Boolean> moveTo(QueueEntry e, String target, boolean expired, DeadLetterStamp stamp) {
        BrokerQueue to = services.terminalQueue(target);
        MessageRef m = e.message();
        MessageStore from = storeOf(e);
        MessageStore into = to.storeFor(m);
        // A message moved to another store (from a replica set's to the node's DLQ) is copied under an
        // id of this node: the set's ids are not the node store's.
        MessageRef moved = stamp != null
                ? stamp.copyOf(m, services)
                : from != into ? services.newMessage(m.encoded(), m.wire(), null) : m;
        moved.retain(1);
        left(e);
        to.countIn(moved);
        StoreBatches batches = StoreBatches.forced();
        if (to.storesEntryOf(moved)) {
            if (!moved.stored()) {
                batches.of(into).add(new StoreOp.InsertMessage(moved.id(), moved.encoded()));
            }
            batches.of(into).add(new StoreOp.InsertEntry(target, moved.id()));
        }
        if (storesEntryOf(m)) {
            batches.of(from).add(new StoreOp.DeleteEntry(name, m.id()));
        }
        CompletableFuture<Boolean> landed = new CompletableFuture<>();
        batches.write().whenComplete((v, t) -> {
            if (t == null) {
                if (to.storesEntryOf(moved)) {
                    moved.markStored(services.payloadMemoryOf(into));
                } else if (moved != m) {
                    services.countUnstored(moved);
                }
                to.enqueue(moved, 0, expired).whenComplete((x, y) -> landed.complete(true));
                // This queue's hold; a copy leaves the original to whoever else holds it, or to nobody.
                if (m.release() && m.stored()) {
                    from.write(StoreBatch.relaxed().add(new StoreOp.DeleteMessage(m.id(), m.size())));
                }
            } else {
                moved.release();
                to.unreserve(moved);
                LOG.error("could not move message {} from {} to {}; keeping it here", m.id(), name, target, t);
                executor.execute(() -> {
                    countIn(m); // left(e) counted it out
                    add(e);
                    landed.complete(false);
                    dispatch();
                });
            }
        });
        return landed;
    }

    /**
     * Makes sure dispatch runs again by {@code at}. Only the executor touches the timer state: the
     * timer hands control back to the executor, which forgets the timer before dispatching.
     */
    private void wakeUpAt(long at, long now) {
        if (wakeUp != null) {
            if (wakeUpAt <= at) {
                return;
            }
            wakeUp.cancel(false);
        }
        wakeUpAt = at;
        wakeUp = services.timers()
                .schedule(
                        () -> executor.execute(() -> {
                            wakeUp = null;
                            wakeUpAt = Long.MAX_VALUE;
                            dispatch();
                        }),
                        Math.max(1, at - now),
                        TimeUnit.MILLISECONDS);
    }

    private static void complete(CompletableFuture<Void> f, Throwable t) {
        if (t == null) {
            f.complete(null);
        } else {
            f.completeExceptionally(t);
        }
    }

    @Override
    public String toString() {
        return "queue " + name;
    }
}
