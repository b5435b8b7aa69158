package org.partita.bench;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The scenarios, written once in plain JMS and run unchanged against every broker. Each message is a
 * 1 KiB {@link BytesMessage} carrying its producer ({@code p}) and sequence ({@code s}); the consumers
 * record every arrival in a {@link Tally}, so a lost or duplicated message shows in the result.
 * Connections, sessions and consumers are set up before the clock starts; the clock stops when the
 * last missing message arrives.
 */
final class Scenarios {
    static final int PAYLOAD_BYTES = 1024;
    static final int KEYS = 120;
    private static final long RECEIVE_TIMEOUT_MS = 100;
    /** After the last message arrived, consumers keep receiving this long, so late duplicates are seen. */
    private static final long GRACE_MS = 200;

    /**
     * @param timeCapNanos   longest a scenario run may take before it is stopped and reported as capped
     * @param s7Rate         messages per second of S7
     * @param failoverRate   messages per second of S8
     * @param sweeps         the counts S9 and S10 step through
     */
    record Settings(long timeCapNanos, int s7Rate, int failoverRate, ScaleSweeps sweeps) {
        Settings(long timeCapNanos, int s7Rate, int failoverRate) {
            this(timeCapNanos, s7Rate, failoverRate, ScaleSweeps.DEFAULT);
        }
    }

    private final BrokerUnderTest broker;
    private final ConnectionFactory cf;
    private final Settings settings;
    private final byte[] payload = new byte[PAYLOAD_BYTES];

    Scenarios(BrokerUnderTest broker, Settings settings) {
        this.broker = broker;
        this.cf = broker.connectionFactory();
        this.settings = settings;
        new Random(42).nextBytes(payload);
    }

    RunResult run(Scenario s, Target target, int run, int count) {
        try {
            return switch (s) {
                case S1 -> queueFlow(s, target, run, "s1", 1, 1, count, true);
                case S2 -> queueFlow(s, target, run, "s2", 4, 4, count, true);
                case S3 -> queueFlow(s, target, run, "s3", 1, 1, count, false);
                case S4 -> keyed(s, target, run, count, Keyed.PARTITIONED_ATTACHED);
                case S4K -> keyed(s, target, run, count, Keyed.PLAIN_BURST);
                case S4B -> keyed(s, target, run, count, Keyed.PARTITIONED_BURST);
                case S4J -> keyed(s, target, run, count, Keyed.PARTITIONED_JOINING);
                case S5 -> topic(s, target, run, count);
                case S6 -> transacted(s, target, run, count);
                case S7 -> latency(s, target, run, count);
                case S8 -> new FailoverScenario(this, settings).run(s, target, run, count, killable());
                case S9L -> new LargeMessageScenario(broker, settings).run(s, target, run, count);
                case S9 -> new ConnectionScaleScenario(broker, settings).run(s, target, run, count);
                case S10 -> new QueueScaleScenario(broker, settings).run(s, target, run, count);
            };
        } catch (Exception e) {
            return new RunResult(s, target, run, Map.of(), count, 0, 0, false, Map.of(), e.toString());
        }
    }

    private LeaderKillable killable() {
        if (broker instanceof LeaderKillable k) {
            return k;
        }
        throw new IllegalArgumentException(
                "S8 kills a leader: " + broker.url() + " has none (not a replicated target)");
    }

    // ---- S1, S2, S3 ----------------------------------------------------------------------------

    private RunResult queueFlow(
            Scenario s,
            Target target,
            int run,
            String base,
            int producers,
            int consumers,
            int total,
            boolean persistent)
            throws Exception {
        int per = total / producers;
        Tally tally = new Tally(per * producers);
        Latency latency = new Latency();
        Workers workers = new Workers();
        try (Clients clients = new Clients(cf)) {
            String name = broker.queueName(base, "");
            for (int c = 0; c < consumers; c++) {
                MessageConsumer mc = consumer(clients.open(), name);
                workers.loop("consumer-" + c, () -> {
                    Message m = mc.receive(RECEIVE_TIMEOUT_MS);
                    if (m != null && tally.record(m.getIntProperty("p") * per + m.getIntProperty("s"))) {
                        latency.arrived(m);
                    }
                });
            }
            List<Sender> senders = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                senders.add(sender(clients.open(), name, persistent, false));
            }
            long start = System.nanoTime();
            long deadline = start + settings.timeCapNanos();
            for (int p = 0; p < producers; p++) {
                int producer = p;
                Sender sender = senders.get(p);
                workers.start("producer-" + p, () -> {
                    for (int seq = 0; seq < per && before(deadline, workers); seq++) {
                        sender.producer.send(message(sender.session, producer, seq));
                    }
                });
            }
            return finish(s, target, run, tally, latency, workers, start, deadline, new LinkedHashMap<>(), s.name());
        } finally {
            workers.stopAndJoin(5_000);
        }
    }

    // ---- S4 ------------------------------------------------------------------------------------

    /** How S4's consumers meet the load, and on which queue. */
    enum Keyed {
        /** 8 partitions; the consumers attach, then the producers start. */
        PARTITIONED_ATTACHED(true, false, false),
        /** 8 partitions; 2 consumers at the start, one more each twelfth of the run. */
        PARTITIONED_JOINING(true, true, false),
        /** 8 partitions; consumers and producers are all created at the same moment. */
        PARTITIONED_BURST(true, false, true),
        /** A plain queue whose messages carry JMSXGroupID; all created at the same moment. */
        PLAIN_BURST(false, false, true);

        final boolean partitioned;
        final boolean join;
        final boolean burst;

        Keyed(boolean partitioned, boolean join, boolean burst) {
            this.partitioned = partitioned;
            this.join = join;
            this.burst = burst;
        }
    }

    /**
     * 120 keys, each sent by one producer in sequence ({@code ks}); a consumer that gets a message of a key
     * with a lower sequence than one already seen of that key counts an order violation. Partita runs with
     * its default queue options, and the clock starts when the first message is sent.
     */
    private RunResult keyed(Scenario s, Target target, int run, int total, Keyed mode) throws Exception {
        boolean join = mode.join;
        int producers = 4;
        int consumers = 8;
        int keysPerProducer = KEYS / producers;
        int per = total / producers;
        Tally tally = new Tally(per * producers);
        Latency latency = new Latency();
        int[] lastSeq = new int[KEYS];
        Arrays.fill(lastSeq, -1);
        AtomicInteger violations = new AtomicInteger();
        AtomicIntegerArray perConsumer = new AtomicIntegerArray(consumers);
        Workers workers = new Workers();
        String name = mode.partitioned ? broker.queueName("s4", "partitions=8") : broker.queueName("s4", "");
        try (Clients clients = new Clients(cf)) {
            Workers.Task[] attach = new Workers.Task[consumers];
            for (int c = 0; c < consumers; c++) {
                int index = c;
                attach[c] = () -> {
                    MessageConsumer mc = consumer(clients.open(), name);
                    workers.loop("consumer-" + index, () -> {
                        Message m = mc.receive(RECEIVE_TIMEOUT_MS);
                        if (m == null) {
                            return;
                        }
                        perConsumer.incrementAndGet(index);
                        if (tally.record(m.getIntProperty("p") * per + m.getIntProperty("s"))) {
                            latency.arrived(m);
                            int key = m.getIntProperty("k");
                            int ks = m.getIntProperty("ks");
                            synchronized (lastSeq) {
                                if (ks < lastSeq[key]) {
                                    violations.incrementAndGet();
                                } else {
                                    lastSeq[key] = ks;
                                }
                            }
                        }
                    });
                };
            }
            int initial = join ? 2 : consumers;
            long deadline = System.nanoTime() + settings.timeCapNanos();
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            for (int c = 0; c < initial; c++) {
                Workers.Task a = attach[c];
                if (mode.burst) {
                    workers.start("attach-" + c, () -> {
                        go.await();
                        a.run();
                    });
                } else {
                    a.run();
                }
            }
            java.util.concurrent.atomic.AtomicLong firstSend = new java.util.concurrent.atomic.AtomicLong();
            for (int p = 0; p < producers; p++) {
                int producer = p;
                Sender ready = mode.burst ? null : sender(clients.open(), name, true, false);
                workers.start("producer-" + p, () -> {
                    go.await();
                    Sender sender = ready != null ? ready : sender(clients.open(), name, true, false);
                    for (int j = 0; j < per && before(deadline, workers); j++) {
                        int key = producer + producers * (j % keysPerProducer);
                        BytesMessage m = message(sender.session, producer, j);
                        m.setStringProperty("JMSXGroupID", String.format("m-%03d", key + 1));
                        m.setIntProperty("k", key);
                        m.setIntProperty("ks", j / keysPerProducer);
                        firstSend.compareAndSet(0, System.nanoTime());
                        sender.producer.send(m);
                    }
                });
            }
            if (join) {
                // one more consumer each time another twelfth of the messages arrived: all 8 by half-way
                workers.start("joiner", () -> {
                    for (int c = initial; c < consumers && before(deadline, workers); c++) {
                        int threshold = (c - initial + 1) * tally.expected() / 12;
                        while (tally.distinct() < threshold && before(deadline, workers)) {
                            Thread.sleep(2);
                        }
                        attach[c].run();
                    }
                });
            }
            go.countDown();
            Map<String, String> notes = new LinkedHashMap<>();
            RunResult r = finish(s, target, run, tally, latency, workers, firstSend::get, deadline, notes, s.name());
            int used = 0;
            int joinersUsed = 0;
            StringBuilder spread = new StringBuilder();
            for (int c = 0; c < consumers; c++) {
                int n = perConsumer.get(c);
                used += n > 0 ? 1 : 0;
                joinersUsed += n > 0 && c >= initial ? 1 : 0;
                spread.append(c == 0 ? "" : " ").append(n);
            }
            notes.put("orderViolations", Integer.toString(violations.get()));
            notes.put("consumersUsed", used + "/" + consumers);
            if (join) {
                notes.put("joinersUsed", joinersUsed + "/" + (consumers - initial));
            }
            notes.put("perConsumer", spread.toString());
            return r;
        } finally {
            workers.stopAndJoin(5_000);
        }
    }

    // ---- S5 ------------------------------------------------------------------------------------

    /**
     * Five durable subscriptions are created and left without consumers; {@code total} persistent
     * messages are published; the store's growth per message is measured; then all five drain.
     */
    private RunResult topic(Scenario s, Target target, int run, int total) throws Exception {
        int subs = 5;
        Tally tally = new Tally(subs * total);
        Latency latency = new Latency();
        Workers workers = new Workers();
        try (Clients clients = new Clients(cf)) {
            Session[] sessions = new Session[subs];
            Topic topic = null;
            for (int i = 0; i < subs; i++) {
                sessions[i] = clients.open("s5-sub-" + i).createSession(false, Session.AUTO_ACKNOWLEDGE);
                topic = sessions[i].createTopic("s5");
                sessions[i].createDurableConsumer(topic, "sub").close();
            }
            Connection pc = clients.open();
            Session ps = pc.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = ps.createProducer(topic);
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            long storedBefore = broker.storedBytes();

            long start = System.nanoTime();
            long deadline = start + settings.timeCapNanos();
            int published = 0;
            for (int seq = 0; seq < total && before(deadline, workers); seq++) {
                producer.send(message(ps, 0, seq));
                published++;
            }
            long publishedAt = System.nanoTime();
            // Reading the store's figures is the tool's measurement, not the workload: Partita's makes
            // H2 take the journal first (a checkpoint), so the clock stops while they are read, for the
            // throughput and for the latency of the messages, which all wait through it. What the
            // checkpoint did stays done: the drain then removes rows from H2, as after an idle checkpoint.
            long storedAfter = broker.storedBytes();
            String storeDetails = broker.storeDetails();
            long measuring = System.nanoTime() - publishedAt;
            latency.paused(measuring);

            for (int i = 0; i < subs; i++) {
                int sub = i;
                MessageConsumer mc = sessions[i].createDurableConsumer(topic, "sub");
                workers.loop("subscriber-" + i, () -> {
                    Message m = mc.receive(RECEIVE_TIMEOUT_MS);
                    if (m != null && tally.record(sub * total + m.getIntProperty("s"))) {
                        latency.arrived(m);
                    }
                });
            }
            Map<String, String> notes = new LinkedHashMap<>();
            RunResult r = finish(s, target, run, tally, null, workers, start, deadline, notes, null);
            long end = r.timedOut() ? System.nanoTime() : tally.completedAt();
            Map<String, Double> values = new LinkedHashMap<>();
            values.put("S5", published / seconds(end - start - measuring));
            values.put("S5.disk", published == 0 ? Double.NaN : (storedAfter - storedBefore) / (double) published);
            latency.report(s.name(), values);
            notes.put("publishRate", String.format("%.0f msg/s", published / seconds(publishedAt - start)));
            notes.put("storeFiguresRead", String.format("%.0f ms (not counted)", measuring / 1e6));
            notes.put(
                    "storedBytes",
                    (storedAfter - storedBefore) + " bytes for " + published + " messages, "
                            + broker.storedBytesMethod());
            if (!storeDetails.isEmpty()) {
                notes.put("store", storeDetails);
            }
            return new RunResult(
                    s, target, run, values, r.expected(), r.arrived(), r.duplicates(), r.timedOut(), notes, r.error());
        } finally {
            workers.stopAndJoin(5_000);
        }
    }

    // ---- S6 ------------------------------------------------------------------------------------

    private RunResult transacted(Scenario s, Target target, int run, int total) throws Exception {
        int batch = 100;
        Tally tally = new Tally(total);
        Latency latency = new Latency();
        Workers workers = new Workers();
        try (Clients clients = new Clients(cf)) {
            String name = broker.queueName("s6", "");
            Session cs = clients.open().createSession(true, Session.SESSION_TRANSACTED);
            MessageConsumer mc = cs.createConsumer(cs.createQueue(name));
            Message[] pending = new Message[batch];
            int[] count = {0};
            workers.loop("consumer", () -> {
                Message m = mc.receive(RECEIVE_TIMEOUT_MS);
                if (m != null) {
                    pending[count[0]++] = m;
                }
                if (count[0] == batch || (m == null && count[0] > 0)) {
                    cs.commit();
                    for (int i = 0; i < count[0]; i++) {
                        if (tally.record(pending[i].getIntProperty("s"))) {
                            latency.arrived(pending[i]); // consumed once its transaction committed
                        }
                    }
                    count[0] = 0;
                }
            });
            Sender sender = sender(clients.open(), name, true, true);
            long start = System.nanoTime();
            long deadline = start + settings.timeCapNanos();
            workers.start("producer", () -> {
                for (int seq = 0; seq < total && before(deadline, workers); seq++) {
                    sender.producer.send(message(sender.session, 0, seq));
                    if ((seq + 1) % batch == 0 || seq == total - 1) {
                        sender.session.commit();
                    }
                }
            });
            return finish(s, target, run, tally, latency, workers, start, deadline, new LinkedHashMap<>(), s.name());
        } finally {
            workers.stopAndJoin(5_000);
        }
    }

    // ---- S7 ------------------------------------------------------------------------------------

    /**
     * One producer sends at a fixed rate; each message carries the time it was due to be sent, and the
     * latency runs from then (not from when the send actually happened, so a producer held up by a slow
     * send does not hide the delay) to its arrival at the consumer.
     */
    private RunResult latency(Scenario s, Target target, int run, int total) throws Exception {
        Tally tally = new Tally(total);
        Latency latency = new Latency();
        Workers workers = new Workers();
        try (Clients clients = new Clients(cf)) {
            String name = broker.queueName("s7", "");
            MessageConsumer mc = consumer(clients.open(), name);
            workers.loop("consumer", () -> {
                Message m = mc.receive(RECEIVE_TIMEOUT_MS);
                if (m != null && tally.record(m.getIntProperty("s"))) {
                    latency.arrived(m);
                }
            });
            Sender sender = sender(clients.open(), name, true, false);
            long interval = 1_000_000_000L / Math.max(1, settings.s7Rate());
            long start = System.nanoTime();
            long deadline = start + settings.timeCapNanos();
            workers.start("producer", () -> {
                for (int seq = 0; seq < total && before(deadline, workers); seq++) {
                    long due = start + seq * interval;
                    long wait;
                    while ((wait = due - System.nanoTime()) > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    BytesMessage m = message(sender.session, 0, seq);
                    m.setLongProperty(Latency.SENT_AT, due);
                    sender.producer.send(m);
                }
            });
            return finish(s, target, run, tally, latency, workers, start, deadline, new LinkedHashMap<>(), null);
        } finally {
            workers.stopAndJoin(5_000);
        }
    }

    // ---- shared --------------------------------------------------------------------------------

    record Sender(Session session, MessageProducer producer) {}

    static MessageConsumer consumer(Connection c, String queue) throws JMSException {
        Session session = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        return session.createConsumer(session.createQueue(queue));
    }

    static Sender sender(Connection c, String queue, boolean persistent, boolean transacted) throws JMSException {
        Session session = transacted
                ? c.createSession(true, Session.SESSION_TRANSACTED)
                : c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = session.createQueue(queue);
        MessageProducer producer = session.createProducer(q);
        producer.setDeliveryMode(persistent ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT);
        return new Sender(session, producer);
    }

    BytesMessage message(Session session, int producer, int seq) throws JMSException {
        BytesMessage m = session.createBytesMessage();
        m.writeBytes(payload);
        m.setIntProperty("p", producer);
        m.setIntProperty("s", seq);
        m.setLongProperty(Latency.SENT_AT, System.nanoTime());
        return m;
    }

    static boolean before(long deadline, Workers workers) {
        return !workers.stopping() && System.nanoTime() - deadline < 0;
    }

    static double seconds(long nanos) {
        return Math.max(1, nanos) / 1e9;
    }

    /**
     * Waits for the last message (or the time cap), lets the consumers run a little longer to catch
     * duplicates, stops every thread and builds the result; {@code throughputKey} (if not null) gets the
     * arrived messages per second, and {@code latency} (if not null) adds its percentiles.
     */
    static RunResult finish(
            Scenario s,
            Target target,
            int run,
            Tally tally,
            Latency latency,
            Workers workers,
            long start,
            long deadline,
            Map<String, String> notes,
            String throughputKey)
            throws InterruptedException {
        return finish(s, target, run, tally, latency, workers, () -> start, deadline, notes, throughputKey);
    }

    /** @param startClock when the clock started; read once every message arrived (the first send, for S4) */
    private static RunResult finish(
            Scenario s,
            Target target,
            int run,
            Tally tally,
            Latency latency,
            Workers workers,
            java.util.function.LongSupplier startClock,
            long deadline,
            Map<String, String> notes,
            String throughputKey)
            throws InterruptedException {
        boolean complete = tally.await(deadline, workers);
        long start = startClock.getAsLong();
        long end = complete ? tally.completedAt() : System.nanoTime();
        if (complete) {
            Thread.sleep(GRACE_MS);
        }
        workers.stopAndJoin(5_000);
        Throwable failure = workers.failure();
        Map<String, Double> values = new LinkedHashMap<>();
        if (throughputKey != null) {
            values.put(throughputKey, tally.distinct() / seconds(end - start));
        }
        if (latency != null) {
            latency.report(s.name(), values);
        }
        return RunResult.tallied(s, target, run, values, tally, complete, notes, failure);
    }

    static long nanos(long seconds) {
        return TimeUnit.SECONDS.toNanos(seconds);
    }
}
