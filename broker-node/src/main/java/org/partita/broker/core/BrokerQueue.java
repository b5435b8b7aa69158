package org.partita.broker.core;

import org.partita.broker.store.StoreBatch;
import org.partita.broker.store.StoreOp;
import org.partita.jms.protocol.selector.Selector;
import org.partita.jms.protocol.selector.WireMessageContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A queue: its waiting messages, its consumers, and the dispatch between them. Every method hops
 * onto the queue's own {@link SerialExecutor}, so the state below is single-threaded.
 *
 * <p>Dispatch gives each message to the next consumer, round-robin, among the consumers of the
 * highest priority present that have credit and whose selector matches.
 */
public final class BrokerQueue {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerQueue.class);

    private final String name;
    private final boolean durable;
    private volatile QueueOptions options;
    private final QueueServices services;
    private final SerialExecutor executor;
    private final Backlog backlog = new Backlog();
    private final List<ConsumerRef> consumers = new ArrayList<>();
    private int inFlight;
    private int nextConsumer;
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

    /** A new message, already durable if it is persistent; the caller has retained it for this queue. */
    void enqueue(MessageRef message) {
        QueueEntry e = new QueueEntry(this, message, 0);
        executor.execute(() -> {
            backlog.add(e);
            dispatch();
        });
    }

    /** A message read back from the store at start-up. */
    void restore(MessageRef message, int deliveryCount) {
        message.retain(1);
        QueueEntry e = new QueueEntry(this, message, deliveryCount);
        executor.execute(() -> backlog.add(e));
    }

    public void attach(ConsumerRef c) {
        executor.execute(() -> {
            consumers.add(c);
            dispatch();
        });
    }

    /** Removes a consumer; what it holds stays in flight until acknowledged or released by its session. */
    public void detach(ConsumerRef c) {
        executor.execute(() -> consumers.remove(c));
    }

    public void credit(ConsumerRef c, int messages) {
        executor.execute(() -> {
            c.addCredits(messages);
            dispatch();
        });
    }

    /** Consumes an entry; the future completes when its removal is durable. */
    public CompletableFuture<Void> ack(QueueEntry e) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        executor.execute(() -> {
            inFlight--;
            StoreBatch batch = removal(e);
            services.store().write(batch).whenComplete((v, t) -> complete(done, t));
        });
        return done;
    }

    /** Adds the removal of an entry to a transaction's batch; apply with {@link #forget(QueueEntry)} after commit. */
    public void addRemoval(QueueEntry e, StoreBatch batch) {
        if (storesEntryOf(e.message())) {
            batch.add(new StoreOp.DeleteEntry(name, e.id()));
        }
    }

    /** After a committed transaction consumed the entry: drop it from memory. */
    public void forget(QueueEntry e) {
        executor.execute(() -> {
            inFlight--;
            if (e.message().release() && e.message().stored()) {
                services.store().write(new StoreBatch().add(new StoreOp.DeleteMessage(e.id())));
            }
        });
    }

    /** Hands an entry back. {@code seen}: the application saw it, so it comes back redelivered. */
    public void release(QueueEntry e, boolean seen) {
        executor.execute(() -> {
            inFlight--;
            e.returned(seen);
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
            backlog.add(e);
            dispatch();
        });
    }

    /** Drops every waiting message (the queue is being deleted); payloads no queue holds are freed. */
    void purge() {
        executor.execute(() -> {
            StoreBatch batch = new StoreBatch();
            for (QueueEntry e : backlog) {
                if (e.message().release() && e.message().stored()) {
                    batch.add(new StoreOp.DeleteMessage(e.id()));
                }
            }
            backlog.clear();
            consumers.clear();
            services.store().write(batch);
        });
    }

    /** Copies of the waiting messages that match, in delivery order, without removing anything. */
    public CompletableFuture<List<MessageRef>> browse(Selector selector) {
        CompletableFuture<List<MessageRef>> result = new CompletableFuture<>();
        executor.execute(() -> {
            List<MessageRef> out = new ArrayList<>();
            long now = services.clock().getAsLong();
            for (QueueEntry e : backlog) {
                if (!expired(e, now) && selector.matches(new WireMessageContext(e.message().wire(), e.deliveryCount() + 1))) {
                    out.add(e.message());
                }
            }
            result.complete(out);
        });
        return result;
    }

    /** Messages waiting plus messages delivered and not yet acknowledged. */
    public CompletableFuture<int[]> depth() {
        CompletableFuture<int[]> result = new CompletableFuture<>();
        executor.execute(() -> result.complete(new int[]{backlog.size(), inFlight}));
        return result;
    }

    private void dispatch() {
        if (consumers.isEmpty() || backlog.isEmpty()) {
            return;
        }
        long now = services.clock().getAsLong();
        long earliestDelayed = Long.MAX_VALUE;
        Iterator<QueueEntry> it = backlog.iterator();
        while (it.hasNext() && anyCredit()) {
            QueueEntry e = it.next();
            if (expired(e, now)) {
                it.remove();
                expire(e);
                continue;
            }
            long deliveryTime = e.message().wire().deliveryTime();
            if (deliveryTime > now) {
                earliestDelayed = Math.min(earliestDelayed, deliveryTime);
                continue;
            }
            ConsumerRef c = pick(e);
            if (c != null) {
                it.remove();
                inFlight++;
                e.deliveredTo(c);
                c.deliver(e);
            }
        }
        if (earliestDelayed != Long.MAX_VALUE) {
            wakeUpAt(earliestDelayed, now);
        }
    }

    private boolean anyCredit() {
        for (ConsumerRef c : consumers) {
            if (c.credits() > 0) {
                return true;
            }
        }
        return false;
    }

    /** Round-robin among the highest-priority consumers with credit whose selector takes the entry. */
    private ConsumerRef pick(QueueEntry e) {
        int top = Integer.MIN_VALUE;
        for (ConsumerRef c : consumers) {
            top = Math.max(top, c.priority());
        }
        int n = consumers.size();
        WireMessageContext ctx = null;
        for (int i = 0; i < n; i++) {
            int idx = (nextConsumer + i) % n;
            ConsumerRef c = consumers.get(idx);
            if (c.priority() != top || c.credits() <= 0) {
                continue;
            }
            if (!c.selector().matchesAll()) {
                if (ctx == null) {
                    ctx = new WireMessageContext(e.message().wire(), e.deliveryCount() + 1);
                }
                if (!c.selector().matches(ctx)) {
                    continue;
                }
            }
            nextConsumer = (idx + 1) % n;
            return c;
        }
        return null;
    }

    private boolean expired(QueueEntry e, long now) {
        long exp = e.message().wire().expiration();
        return exp > 0 && exp <= now;
    }

    private void expire(QueueEntry e) {
        String target = options.expiryQueue();
        if (target.isEmpty()) {
            services.store().write(removal(e));
        } else {
            moveTo(e, target);
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
        if (to == this) {
            backlog.add(e);
            return;
        }
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
                    backlog.add(e);
                    dispatch();
                });
            }
        });
    }

    private void wakeUpAt(long at, long now) {
        if (wakeUp != null && wakeUpAt <= at && !wakeUp.isDone()) {
            return;
        }
        if (wakeUp != null) {
            wakeUp.cancel(false);
        }
        wakeUpAt = at;
        wakeUp = services.timers().schedule(() -> executor.execute(this::dispatch), Math.max(1, at - now),
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
