package org.partita.broker.core;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.partita.broker.core.dispatch.ConsumerRef;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.core.queue.MessageRef;
import org.partita.broker.core.queue.QueueEntry;
import org.partita.broker.store.h2.H2MessageStore;
import org.partita.protocol.MessageCodec;
import org.partita.protocol.WireMessage;
import org.partita.protocol.selector.Selector;

/**
 * A real {@link Broker} over a real H2 store in a folder, without a network: messages are sent and
 * consumed through the core's own calls, and a restart closes both and opens them again on the
 * same folder. Every wait is bounded.
 */
public final class BrokerFixture implements AutoCloseable {
    private static final long WAIT_SECONDS = 10;

    private final Path dataDir;
    private final ClusterHooks cluster;
    private final BrokerSettings settings;
    private final java.util.concurrent.atomic.AtomicLong sent = new java.util.concurrent.atomic.AtomicLong();
    private H2MessageStore store;
    private Broker broker;

    public BrokerFixture(Path dataDir) {
        this(dataDir, ClusterHooks.STANDALONE);
    }

    /** @param cluster the cluster the node believes it belongs to */
    public BrokerFixture(Path dataDir, ClusterHooks cluster) {
        this(dataDir, cluster, BrokerSettings.DEFAULTS);
    }

    public BrokerFixture(Path dataDir, ClusterHooks cluster, BrokerSettings settings) {
        this.dataDir = dataDir;
        this.cluster = cluster;
        this.settings = settings;
        open();
    }

    private void open() {
        store = H2MessageStore.open(dataDir, false);
        broker = new Broker(store, settings, cluster);
    }

    public Broker broker() {
        return broker;
    }

    /**
     * A clean stop and start on the same folder. {@code settled} are queues whose work must have run
     * first (their executors write removals to the store without being waited on).
     */
    public void restart(BrokerQueue... settled) {
        for (BrokerQueue q : settled) {
            await(q.figures());
        }
        closeBoth();
        open();
    }

    /** Sends a persistent text message with properties to {@code queue}; returns once it is stored. */
    public MessageRef send(BrokerQueue queue, String text, Map<String, Object> properties) {
        return send(queue, message("q:" + queue.name(), text, properties, 4, 0, 0, null));
    }

    public MessageRef sendWithPriority(BrokerQueue queue, String text, int priority) {
        return send(queue, message("q:" + queue.name(), text, Map.of(), priority, 0, 0, null));
    }

    /** A persistent text message for {@code queue}, not sent (for work that sends it with others). */
    public MessageRef message(BrokerQueue queue, String text) {
        return message("q:" + queue.name(), text, Map.of(), 4, 0, 0, null);
    }

    private MessageRef send(BrokerQueue queue, MessageRef m) {
        await(broker.send(new Broker.PendingSend(List.of(queue), m)));
        return m;
    }

    /** Sends to {@code queue} as a client does: to where the broker routes it (each AppId of a fan-out queue). */
    MessageRef sendRouted(BrokerQueue queue, String text) {
        MessageRef m = message("q:" + queue.name(), text, Map.of(), 4, 0, 0, null);
        await(broker.send(Broker.PendingSend.routed(broker.queueTargets(queue, m), m)));
        return m;
    }

    /**
     * Publishes a persistent text message to a topic, as sent by {@code connection}; returns the
     * names of the queues it went to, once it is stored.
     */
    public List<String> publish(String topic, String text, Map<String, Object> properties, Object connection) {
        MessageRef m = message("t:" + topic, text, properties, 4, 0, 0, connection);
        List<BrokerQueue> targets = broker.subscriptions().routes(topic, m);
        await(broker.send(Broker.PendingSend.routed(targets, m)));
        return targets.stream().map(BrokerQueue::name).sorted().toList();
    }

    /** Sends a message that expires at {@code expiration} and is due at {@code deliveryTime} (epoch millis, 0: none). */
    public MessageRef sendTimed(BrokerQueue queue, String text, long expiration, long deliveryTime) {
        return send(queue, message("q:" + queue.name(), text, Map.of(), 4, expiration, deliveryTime, null));
    }

    private MessageRef message(
            String destination,
            String text,
            Map<String, Object> properties,
            int priority,
            long expiration,
            long deliveryTime,
            Object connection) {
        WireMessage wire = new WireMessage(
                "ID:test-" + sent.incrementAndGet(),
                System.currentTimeMillis(),
                null,
                null,
                destination,
                null,
                WireMessage.PERSISTENT,
                priority,
                expiration,
                deliveryTime,
                properties,
                WireMessage.BODY_TEXT,
                text.getBytes(StandardCharsets.UTF_8));
        return broker.newMessage(MessageCodec.encode(wire), wire, connection);
    }

    /** A consumer of {@code queue}, attached, whose deliveries are kept in order. */
    public Receiver attach(BrokerQueue queue, String name, int credits) {
        Receiver r = new Receiver(queue, name, credits);
        await(queue.attach(r.ref));
        return r;
    }

    public static String text(MessageRef m) {
        return new String(MessageCodec.decode(m.encoded()).body(), StandardCharsets.UTF_8);
    }

    /** The bodies of the waiting messages, in delivery order. */
    public static List<String> browse(BrokerQueue queue) {
        return await(queue.browse(Selector.matchAll())).stream()
                .map(BrokerFixture::text)
                .toList();
    }

    public static <T> T await(CompletableFuture<T> f) {
        try {
            return f.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("no answer within " + WAIT_SECONDS + " s", e);
        }
    }

    @Override
    public void close() {
        closeBoth();
    }

    private void closeBoth() {
        if (broker != null) {
            broker.close();
            broker = null;
        }
        if (store != null) {
            store.close();
            store = null;
        }
    }

    /** A consumer as the network layer drives it: deliveries arrive on the queue's executor. */
    public static final class Receiver {
        final BrokerQueue queue;
        public final ConsumerRef ref;
        private final BlockingQueue<QueueEntry> arrived = new LinkedBlockingQueue<>();
        private final Map<QueueEntry, Long> arrivedAt = new java.util.concurrent.ConcurrentHashMap<>();

        private Receiver(BrokerQueue queue, String name, int credits) {
            this.queue = queue;
            this.ref = new ConsumerRef(
                    name,
                    (c, e, p) -> {
                        arrivedAt.put(e, System.currentTimeMillis());
                        arrived.add(e);
                    },
                    Selector.matchAll(),
                    credits,
                    0);
        }

        /** When the queue delivered {@code e} (epoch millis). */
        public long arrivedAt(QueueEntry e) {
            return arrivedAt.get(e);
        }

        /** The next delivery, waited for. */
        public QueueEntry next() {
            try {
                QueueEntry e = arrived.poll(WAIT_SECONDS, TimeUnit.SECONDS);
                if (e == null) {
                    throw new AssertionError(ref + " received nothing within " + WAIT_SECONDS + " s");
                }
                return e;
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new AssertionError(ex);
            }
        }

        public List<QueueEntry> next(int n) {
            List<QueueEntry> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                out.add(next());
            }
            return out;
        }

        /** What arrived and was not taken yet, once the queue's work so far has run. */
        public List<QueueEntry> pending() {
            await(queue.figures()); // a barrier: the queue's earlier work, deliveries included, ran
            List<QueueEntry> out = new ArrayList<>();
            arrived.drainTo(out);
            return out;
        }

        public void ack(QueueEntry e) {
            await(queue.ack(e, ref));
        }
    }
}
