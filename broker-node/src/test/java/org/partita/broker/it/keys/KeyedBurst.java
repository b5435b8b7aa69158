package org.partita.broker.it.keys;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The load users run, measured the way an outside tool does: producers each owning a share of the
 * keys and consumers ({@code AUTO_ACKNOWLEDGE}, {@code receive}) all created at the same moment,
 * persistent 1 KiB messages at full speed, each key's sequence checked as messages arrive. Every
 * other consumer spends 3 ms on each message, as real consumers differ in speed: their buffers fill
 * while the others run dry, which is when a broker that ignores keys reorders them.
 */
public final class KeyedBurst {
    public static final int KEYS = 120;

    /** What a burst showed. */
    public record Outcome(
            int violations,
            int distinctReceived,
            int duplicatesNotFlagged,
            long[] firstArrivalMillis,
            long elapsedMillis) {
        /** Consumers whose first message came later than {@code millis} after the first send (or never). */
        public List<Integer> lateConsumers(long millis) {
            List<Integer> late = new ArrayList<>();
            for (int i = 0; i < firstArrivalMillis.length; i++) {
                if (firstArrivalMillis[i] < 0 || firstArrivalMillis[i] > millis) {
                    late.add(i);
                }
            }
            return late;
        }
    }

    private final java.util.function.IntFunction<ConnectionFactory> consumerFactory;
    private final java.util.function.IntFunction<ConnectionFactory> producerFactory;
    private final String queue;
    private final int producers;
    private final int consumers;
    private final int messages;

    KeyedBurst(ConnectionFactory cf, String queue, int producers, int consumers, int messages) {
        this(i -> cf, i -> cf, queue, producers, consumers, messages);
    }

    /** Consumer {@code i} connects through {@code consumerFactory.apply(i)}, producer {@code i} likewise (on a cluster: to its nodes). */
    public KeyedBurst(
            java.util.function.IntFunction<ConnectionFactory> consumerFactory,
            java.util.function.IntFunction<ConnectionFactory> producerFactory,
            String queue,
            int producers,
            int consumers,
            int messages) {
        this.consumerFactory = consumerFactory;
        this.producerFactory = producerFactory;
        this.queue = queue;
        this.producers = producers;
        this.consumers = consumers;
        this.messages = messages;
    }

    public Outcome run(long timeLimitMillis) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(producers + consumers);
        CountDownLatch go = new CountDownLatch(1);
        AtomicLong firstSend = new AtomicLong();
        long[] firstArrival = new long[consumers];
        java.util.Arrays.fill(firstArrival, -1);
        Map<String, Integer> highest = new HashMap<>();
        Set<String> seen = new HashSet<>();
        int[] violations = {0};
        int[] unflaggedDuplicates = {0};
        long deadline = System.currentTimeMillis() + timeLimitMillis;
        List<Future<?>> tasks = new ArrayList<>();
        try {
            for (int c = 0; c < consumers; c++) {
                int index = c;
                tasks.add(pool.submit(() -> {
                    go.await();
                    try (Connection connection = consumerFactory.apply(index).createConnection()) {
                        Session s = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                        MessageConsumer consumer = s.createConsumer(s.createQueue(queue));
                        connection.start();
                        while (System.currentTimeMillis() < deadline) {
                            synchronized (seen) {
                                if (seen.size() == messages) {
                                    return null;
                                }
                            }
                            Message m = consumer.receive(100);
                            if (m == null) {
                                continue;
                            }
                            String key = m.getStringProperty("JMSXGroupID");
                            int seq = m.getIntProperty("seq");
                            synchronized (seen) {
                                if (firstArrival[index] < 0) {
                                    firstArrival[index] = System.currentTimeMillis() - firstSend.get();
                                }
                                if (!seen.add(key + "#" + seq)) {
                                    if (!m.getJMSRedelivered()) {
                                        unflaggedDuplicates[0]++;
                                    }
                                    continue;
                                }
                                int before = highest.getOrDefault(key, -1);
                                if (seq < before) {
                                    violations[0]++; // first arrival of an earlier message after a later one
                                } else {
                                    highest.put(key, seq);
                                }
                            }
                            if (index % 2 == 1) {
                                java.util.concurrent.locks.LockSupport.parkNanos(3_000_000); // its work on the message
                            }
                        }
                    }
                    return null;
                }));
            }
            int perProducer = messages / producers;
            for (int p = 0; p < producers; p++) {
                int producerIndex = p;
                tasks.add(pool.submit(() -> {
                    go.await();
                    try (Connection connection =
                            producerFactory.apply(producerIndex).createConnection()) {
                        Session s = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                        MessageProducer producer = s.createProducer(s.createQueue(queue));
                        producer.setDeliveryMode(DeliveryMode.PERSISTENT);
                        byte[] payload = new byte[1024];
                        int keysPerProducer = KEYS / producers;
                        for (int i = 0; i < perProducer && System.currentTimeMillis() < deadline; i++) {
                            int key = producerIndex * keysPerProducer + i % keysPerProducer;
                            BytesMessage m = s.createBytesMessage();
                            m.writeBytes(payload);
                            m.setStringProperty("JMSXGroupID", "machine-" + key);
                            m.setIntProperty("seq", i / keysPerProducer);
                            firstSend.compareAndSet(0, System.currentTimeMillis());
                            producer.send(m);
                        }
                    }
                    return null;
                }));
            }
            long start = System.currentTimeMillis();
            go.countDown();
            for (Future<?> f : tasks) {
                f.get(Math.max(1, deadline - System.currentTimeMillis()) + 10_000, TimeUnit.MILLISECONDS);
            }
            synchronized (seen) {
                return new Outcome(
                        violations[0],
                        seen.size(),
                        unflaggedDuplicates[0],
                        firstArrival.clone(),
                        System.currentTimeMillis() - start);
            }
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }
}
