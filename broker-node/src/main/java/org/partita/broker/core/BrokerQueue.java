package org.partita.broker.core;

import org.partita.broker.store.StoreBatch;
import org.partita.broker.store.StoreOp;
import org.partita.jms.protocol.selector.Selector;
import org.partita.jms.protocol.selector.WireMessageContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A queue: storage rules for its entries (what goes to the store, dead letters, expiry) and the
 * acknowledgement protocol. Who receives which message is its {@link DispatchEngine}'s business.
 * Every method hops onto the queue's own {@link SerialExecutor}, so the state below is
 * single-threaded and no lock is shared between queues.
 */
public final class BrokerQueue implements DispatchEngine.Host {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerQueue.class);

    private final String name;
    private final boolean durable;
    private volatile QueueOptions options;
    private final QueueServices services;
    private final SerialExecutor executor;
    private final DispatchEngine engine;
    private int inFlight;
    private ScheduledFuture<?> wakeUp;
    private long wakeUpAt = Long.MAX_VALUE;

    /**
     * @param durable whether its entries are kept in the store; non-durable subscriptions and
     *                temporary queues keep everything in memory, since they end with their connection
     */
    BrokerQueue(String name, QueueOptions options, QueueServices services, boolean durable) {
        this.name = name;
        this.durable = durable;
        this.options = options;
        this.services = services;
        this.executor = new SerialExecutor(services.pool());
        this.engine = options.partitions() > 1
                ? new PartitionedQueueEngine(this, options.partitions(), () -> this.options)
                : new SharedQueueEngine(this);
    }

    public String name() {
        return name;
    }

    /** True when a persistent message put here needs an entry row in the store. */
    public boolean durable() {
        return durable;
    }

    boolean storesEntryOf(MessageRef m) {
        return durable && m.persistent();
    }

    public QueueOptions options() {
        return options;
    }

    void options(QueueOptions o) {
        options = o;
    }

    public void execute(Runnable r) {
        executor.execute(r);
    }

    private long now() {
        return services.clock().getAsLong();
    }

    /** A new message, already durable if it is persistent; the caller has retained it for this queue. */
    void enqueue(MessageRef message) {
        QueueEntry e = new QueueEntry(this, message, 0);
        executor.execute(() -> {
            engine.add(e);
            dispatch();
        });
    }

    /** A message read back from the store at start-up. */
    void restore(MessageRef message, int deliveryCount) {
        message.retain(1);
        QueueEntry e = new QueueEntry(this, message, deliveryCount);
        executor.execute(() -> engine.add(e));
    }

    public void attach(ConsumerRef c) {
        executor.execute(() -> {
            engine.consumerAdded(c, now());
            dispatch();
        });
    }

    /** Removes a consumer; what it holds stays in flight until acknowledged or released by its session. */
    public void detach(ConsumerRef c) {
        executor.execute(() -> {
            engine.consumerRemoved(c, now());
            dispatch();
        });
    }

    public void credit(ConsumerRef c, int messages) {
        executor.execute(() -> {
            c.addCredits(messages);
            dispatch();
        });
    }

    /**
     * Consumes an entry delivered to {@code by}; the future completes when its removal is durable.
     * An entry taken back from {@code by} meanwhile (partition handoff) is not touched.
     */
    public CompletableFuture<Void> ack(QueueEntry e, ConsumerRef by) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        executor.execute(() -> {
            if (!settle(e, by)) {
                done.complete(null);
                return;
            }
            services.store().write(removal(e)).whenComplete((v, t) -> complete(done, t));
            dispatch();
        });
        return done;
    }

    /** Adds the removal of an entry to a transaction's batch; apply with {@link #forget} after commit. */
    public void addRemoval(QueueEntry e, StoreBatch batch) {
        if (storesEntryOf(e.message())) {
            batch.add(new StoreOp.DeleteEntry(name, e.id()));
        }
    }

    /** After a committed transaction consumed the entry: drop it from memory. */
    public void forget(QueueEntry e, ConsumerRef by) {
        executor.execute(() -> {
            if (!settle(e, by)) {
                return;
            }
            if (e.message().release() && e.message().stored()) {
                services.store().write(new StoreBatch().add(new StoreOp.DeleteMessage(e.id())));
            }
            dispatch();
        });
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

    /** Ends an in-flight delivery; false if {@code by} no longer holds the entry. */
    private boolean settle(QueueEntry e, ConsumerRef by) {
        if (e.holder() != by) {
            return false;
        }
        inFlight--;
        engine.settled(e, now());
        return true;
    }

    private void putBack(QueueEntry e, boolean seen) {
        int max = options.maxDeliveryAttempts();
        if (seen && max > 0 && e.deliveryCount() >= max && !options.deadLetterQueue().isEmpty()) {
            LOG.info("message {} of queue {} reached {} delivery attempts; moving it to {}",
                    e.message().wire().messageId(), name, e.deliveryCount(), options.deadLetterQueue());
            moveTo(e, options.deadLetterQueue());
            return;
        }
        if (seen && storesEntryOf(e.message())) {
            services.store().write(new StoreBatch().add(new StoreOp.UpdateDeliveryCount(name, e.id(), e.deliveryCount())));
        }
        engine.add(e);
    }

    @Override
    public void revoke(QueueEntry e) {
        inFlight--;
        e.returned(true);
        putBack(e, true);
    }

    @Override
    public void deliver(ConsumerRef c, QueueEntry e) {
        inFlight++;
        e.deliveredTo(c);
        c.deliver(e);
    }

    @Override
    public boolean isExpired(QueueEntry e, long now) {
        long exp = e.message().wire().expiration();
        return exp > 0 && exp <= now;
    }

    @Override
    public void expire(QueueEntry e) {
        String target = options.expiryQueue();
        if (target.isEmpty() || target.equals(name)) {
            services.store().write(removal(e));
        } else {
            moveTo(e, target);
        }
    }

    /** Copies of the waiting messages that match, in delivery order, without removing anything. */
    public CompletableFuture<List<MessageRef>> browse(Selector selector) {
        CompletableFuture<List<MessageRef>> result = new CompletableFuture<>();
        executor.execute(() -> {
            List<MessageRef> out = new ArrayList<>();
            long now = now();
            for (QueueEntry e : engine.waiting()) {
                if (!isExpired(e, now) && e.message().wire().deliveryTime() <= now
                        && (selector.matchesAll() || selector.matches(new WireMessageContext(e.message().wire(), e.deliveryCount() + 1)))) {
                    out.add(e.message());
                }
            }
            result.complete(out);
        });
        return result;
    }

    /** Messages waiting, and messages delivered and not yet acknowledged. */
    public CompletableFuture<int[]> depth() {
        CompletableFuture<int[]> result = new CompletableFuture<>();
        executor.execute(() -> result.complete(new int[]{engine.waitingCount(), inFlight}));
        return result;
    }

    /** Per-partition figures of a partitioned queue (one row for a plain queue). */
    public CompletableFuture<List<PartitionFigures>> partitionFigures() {
        CompletableFuture<List<PartitionFigures>> result = new CompletableFuture<>();
        executor.execute(() -> {
            List<PartitionFigures> out = new ArrayList<>();
            long now = now();
            if (engine instanceof PartitionedQueueEngine pe) {
                for (int p = 0; p < pe.partitionCount(); p++) {
                    out.add(pe.figures(p, now));
                }
            } else {
                out.add(new PartitionFigures(0, engine.waitingCount(), inFlight, null, "SHARED", 0));
            }
            result.complete(out);
        });
        return result;
    }

    /** Drops every waiting message (the queue is being deleted); payloads no queue holds are freed. */
    void purge() {
        executor.execute(() -> {
            StoreBatch batch = new StoreBatch();
            for (QueueEntry e : engine.waiting()) {
                if (e.message().release() && e.message().stored()) {
                    batch.add(new StoreOp.DeleteMessage(e.id()));
                }
            }
            engine.clear();
            services.store().write(batch);
        });
    }

    private void dispatch() {
        long now = now();
        long next = engine.dispatch(now);
        if (next != Long.MAX_VALUE) {
            wakeUpAt(next, now);
        }
    }

    /** Store ops that remove an entry, and the payload too when no other queue holds it. */
    private StoreBatch removal(QueueEntry e) {
        StoreBatch batch = new StoreBatch();
        boolean last = e.message().release();
        if (storesEntryOf(e.message())) {
            batch.add(new StoreOp.DeleteEntry(name, e.id()));
        }
        if (last && e.message().stored()) {
            batch.add(new StoreOp.DeleteMessage(e.id()));
        }
        return batch;
    }

    private void moveTo(QueueEntry e, String target) {
        BrokerQueue to = services.terminalQueue(target);
        MessageRef m = e.message();
        m.retain(1);
        StoreBatch batch = new StoreBatch();
        if (to.storesEntryOf(m)) {
            if (!m.stored()) {
                batch.add(new StoreOp.InsertMessage(m.id(), m.encoded()));
            }
            batch.add(new StoreOp.InsertEntry(target, m.id()));
        }
        if (storesEntryOf(m)) {
            batch.add(new StoreOp.DeleteEntry(name, m.id()));
        }
        services.store().write(batch).whenComplete((v, t) -> {
            if (t == null) {
                if (to.storesEntryOf(m)) {
                    m.markStored();
                }
                to.enqueue(m);
                m.release();
            } else {
                m.release();
                LOG.error("could not move message {} from {} to {}; keeping it here", m.id(), name, target, t);
                executor.execute(() -> {
                    engine.add(e);
                    dispatch();
                });
            }
        });
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
        wakeUp = services.timers().schedule(() -> executor.execute(() -> {
            wakeUp = null;
            wakeUpAt = Long.MAX_VALUE;
            dispatch();
        }), Math.max(1, at - now), TimeUnit.MILLISECONDS);
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
