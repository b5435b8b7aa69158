package org.partita.broker.core;

import org.partita.broker.store.MessageStore;
import org.partita.broker.store.StoreBatch;
import org.partita.broker.store.StoreOp;
import org.partita.broker.store.StoredEntry;
import org.partita.broker.store.StoredQueue;
import org.partita.jms.protocol.MessageCodec;
import org.partita.jms.protocol.WireMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The broker core of one node: its queues, message ids, and the path of a message from a send to
 * its queues. Knows nothing of Netty; the network layer calls it.
 */
public final class Broker implements QueueServices, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Broker.class);
    private static final String KIND_QUEUE = "queue";

    private final MessageStore store;
    private final BrokerSettings settings;
    private final ExecutorService pool;
    private final ScheduledExecutorService timers;
    private final LongSupplier clock = System::currentTimeMillis;
    private final Map<String, BrokerQueue> queues = new ConcurrentHashMap<>();
    private final AtomicLong messageIds;

    public Broker(MessageStore store, BrokerSettings settings) {
        this.store = store;
        this.settings = settings;
        int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
        this.pool = Executors.newFixedThreadPool(threads, daemon("partita-core"));
        this.timers = Executors.newSingleThreadScheduledExecutor(daemon("partita-timers"));
        this.messageIds = new AtomicLong(store.maxMessageId());
        recover();
    }

    private static java.util.concurrent.ThreadFactory daemon(String prefix) {
        AtomicLong n = new AtomicLong();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** Rebuilds queues and their messages from the store. */
    private void recover() {
        for (StoredQueue q : store.loadQueues()) {
            queues.put(q.name(), new BrokerQueue(q.name(), QueueOptions.parse(q.options(), settings.defaultQueueOptions()), this));
        }
        Map<Long, MessageRef> payloads = new java.util.HashMap<>();
        long[] count = new long[1];
        store.loadEntries((StoredEntry e) -> {
            BrokerQueue q = queues.computeIfAbsent(e.queue(),
                    n -> new BrokerQueue(n, settings.defaultQueueOptions(), this));
            MessageRef ref = payloads.computeIfAbsent(e.messageId(),
                    id -> new MessageRef(id, e.payload(), MessageCodec.decode(e.payload())));
            q.restore(ref, e.deliveryCount());
            count[0]++;
        });
        if (count[0] > 0 || !queues.isEmpty()) {
            LOG.info("recovered {} queues holding {} messages", queues.size(), count[0]);
        }
    }

    /** The queue of that name; created (durably) on first use if the node allows it. */
    public BrokerQueue queue(String name) {
        BrokerQueue q = queues.get(name);
        if (q != null) {
            return q;
        }
        if (!settings.autoCreateQueues()) {
            throw new UnknownDestinationException("queue '" + name + "' does not exist and this node does not create queues on first use");
        }
        return createQueue(name, settings.defaultQueueOptions());
    }

    public BrokerQueue createQueue(String name, QueueOptions options) {
        return queues.computeIfAbsent(name, n -> {
            store.write(new StoreBatch().add(new StoreOp.SaveQueue(n, KIND_QUEUE, options.format())));
            return new BrokerQueue(n, options, this);
        });
    }

    /** A queue that lives only as long as the connection that made it: never saved as a definition. */
    public BrokerQueue createTemporaryQueue(String name) {
        return queues.computeIfAbsent(name, n -> new BrokerQueue(n, QueueOptions.TERMINAL, this));
    }

    /** Removes a queue and everything in it. */
    public void deleteQueue(String name) {
        BrokerQueue q = queues.remove(name);
        if (q != null) {
            q.purge();
            store.write(new StoreBatch().add(new StoreOp.DeleteQueue(name)));
        }
    }

    public BrokerQueue existingQueue(String name) {
        return queues.get(name);
    }

    public MessageRef newMessage(byte[] encoded, WireMessage wire) {
        return new MessageRef(messageIds.incrementAndGet(), encoded, wire);
    }

    /** Stores (if persistent) and routes one message; completes when it is durable and queued. */
    public CompletableFuture<Void> send(BrokerQueue queue, MessageRef message) {
        if (!message.persistent()) {
            queue.enqueue(message);
            return CompletableFuture.completedFuture(null);
        }
        StoreBatch batch = new StoreBatch()
                .add(new StoreOp.InsertMessage(message.id(), message.encoded()))
                .add(new StoreOp.InsertEntry(queue.name(), message.id()));
        return store.write(batch).thenRun(() -> queue.enqueue(message));
    }

    /**
     * Commits a transaction: its sends and its acknowledgements become durable together, then the
     * sends are queued and the consumed entries forgotten.
     */
    public CompletableFuture<Void> commit(List<PendingSend> sends, List<QueueEntry> consumed) {
        StoreBatch batch = new StoreBatch();
        for (PendingSend s : sends) {
            if (s.message().persistent()) {
                batch.add(new StoreOp.InsertMessage(s.message().id(), s.message().encoded()));
                batch.add(new StoreOp.InsertEntry(s.queue().name(), s.message().id()));
            }
        }
        for (QueueEntry e : consumed) {
            e.queue().addRemoval(e, batch);
        }
        return store.write(batch).thenRun(() -> {
            for (PendingSend s : sends) {
                s.queue().enqueue(s.message());
            }
            for (QueueEntry e : consumed) {
                e.queue().forget(e);
            }
        });
    }

    /** A send held by a transaction until it commits. */
    public record PendingSend(BrokerQueue queue, MessageRef message) {
    }

    @Override
    public MessageStore store() {
        return store;
    }

    @Override
    public java.util.concurrent.Executor pool() {
        return pool;
    }

    @Override
    public ScheduledExecutorService timers() {
        return timers;
    }

    @Override
    public LongSupplier clock() {
        return clock;
    }

    @Override
    public BrokerQueue terminalQueue(String name) {
        BrokerQueue q = queues.get(name);
        return q != null ? q : createQueue(name, QueueOptions.TERMINAL);
    }

    @Override
    public void close() {
        timers.shutdownNow();
        pool.shutdown();
        try {
            pool.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
