package org.partita.bench;

import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;

/**
 * S9, connections: for each count of its sweep ({@link ScaleSweeps#connectionCounts()}), that many
 * connections are opened in parallel ({@link ParallelConnections}), each with a consumer (a listener on
 * a session of its own) and a producer, all on one shared queue: the step measures what many
 * connections cost, and a queue per connection would measure many queues as well, which S10 does. Then
 * the step's messages (the scenario's count, at least one per connection) go out non-persistent, and
 * once all arrived, as many persistent; each connection sends its share in turn, {@value #SENDERS}
 * threads sending on their own connections (one thread for one connection). Each variant's clock runs
 * from its first send to its last arrival. With every message in, the broker's heap after a full GC is
 * read (in its own JVM also its resident set), the connections still open; then all are closed, and the
 * next step opens its own.
 */
final class ConnectionScaleScenario {
    /** Threads sending at once, each on its share of the connections: a few sends on their way, not thousands. */
    static final int SENDERS = 8;

    private static final String[] VARIANTS = {"np", "p"};
    /** After the last message arrived, the listeners keep receiving this long, so late duplicates are seen. */
    private static final long GRACE_MS = 200;

    private final BrokerUnderTest broker;
    private final Scenarios.Settings settings;
    private final byte[] payload = new byte[Scenarios.PAYLOAD_BYTES];

    ConnectionScaleScenario(BrokerUnderTest broker, Scenarios.Settings settings) {
        this.broker = broker;
        this.settings = settings;
        new Random(42).nextBytes(payload);
    }

    static String throughputKey(int connections, boolean persistent) {
        return "S9.c" + connections + "." + VARIANTS[persistent ? 1 : 0];
    }

    static String heapKey(int connections) {
        return "S9.c" + connections + ".heap";
    }

    static String rssKey(int connections) {
        return "S9.c" + connections + ".rss";
    }

    /** Per step: both variants' throughput, the heap, and the resident set with brokers in their own JVMs. */
    static List<Scenario.Row> rows(ScaleSweeps sweeps) {
        List<Scenario.Row> rows = new ArrayList<>();
        for (int n : sweeps.connectionCounts()) {
            String step = String.format(Locale.ROOT, "S9 %,d connection%s", n, n == 1 ? "" : "s");
            rows.add(new Scenario.Row(throughputKey(n, false), step + ", non-persistent", "msg/s", true));
            rows.add(new Scenario.Row(throughputKey(n, true), step + ", persistent", "msg/s", true));
            rows.add(new Scenario.Row(heapKey(n), step + ": " + heapLabel(sweeps), "MiB", false));
            if (sweeps.ownJvm()) {
                rows.add(new Scenario.Row(rssKey(n), step + ": broker RSS", "MiB", false));
            }
        }
        return rows;
    }

    /** What the heap row measures: the broker's JVM, or embedded the tool's JVM, clients included. */
    static String heapLabel(ScaleSweeps sweeps) {
        return sweeps.ownJvm() ? "broker heap after GC" : "tool JVM heap after GC (broker + clients)";
    }

    /** The messages of each variant at a step: the scenario's count, and at least one per connection. */
    static int messages(int count, int connections) {
        return Math.max(count, connections);
    }

    RunResult run(Scenario s, Target target, int run, int count) throws Exception {
        Map<String, Double> values = new LinkedHashMap<>();
        Map<String, String> notes = new LinkedHashMap<>();
        String name = broker.queueName("s9", "");
        SweepTotals totals = new SweepTotals();
        List<String> steps = new ArrayList<>();
        for (int n : settings.sweeps().connectionCounts()) {
            String step = step(n, messages(count, n), name, values, totals);
            steps.add(step);
            if (totals.failed()) {
                break; // a larger step would not do better
            }
        }
        notes.put("steps", String.join("; ", steps));
        return totals.result(s, target, run, values, notes);
    }

    /** One step: {@code n} connections, {@code messages} of each variant; returns its note. */
    private String step(int n, int messages, String queueName, Map<String, Double> values, SweepTotals totals)
            throws Exception {
        Tally[] tallies = {new Tally(messages), new Tally(messages)};
        AtomicReference<Throwable> listenerFailure = new AtomicReference<>();
        MessageProducer[] producers = new MessageProducer[n];
        Session[] sending = new Session[n];
        long deadline = System.nanoTime() + settings.timeCapNanos();
        StringBuilder note = new StringBuilder(String.format(Locale.ROOT, "%,d: ", n));
        Workers workers = new Workers();
        ParallelConnections connections = null;
        boolean complete = true;
        try {
            connections = ParallelConnections.open(
                    broker.connectionFactory(),
                    n,
                    (i, c) -> {
                        Session receiving = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                        Queue queue = receiving.createQueue(queueName);
                        MessageConsumer consumer = receiving.createConsumer(queue);
                        consumer.setMessageListener(m -> {
                            try {
                                tallies[m.getIntProperty("v")].record(m.getIntProperty("s"));
                            } catch (JMSException | RuntimeException e) {
                                listenerFailure.compareAndSet(null, e);
                            }
                        });
                        sending[i] = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                        producers[i] = sending[i].createProducer(queue);
                    },
                    deadline);
            note.append("opened in ").append(connections.openedMillis()).append(" ms");
            for (int v = 0; v < VARIANTS.length && complete; v++) {
                boolean persistent = v == 1;
                Tally tally = tallies[v];
                int variant = v;
                int senders = Math.min(SENDERS, n);
                long start = System.nanoTime();
                List<Thread> threads = new ArrayList<>();
                for (int t = 0; t < senders; t++) {
                    int sender = t;
                    threads.add(workers.start("s9-sender-" + t, () -> {
                        // round after round over this sender's connections (sender, sender + senders, ...)
                        for (int first = 0; first < messages && Scenarios.before(deadline, workers); first += n) {
                            for (int c = sender; c < n && first + c < messages; c += senders) {
                                producers[c].setDeliveryMode(
                                        persistent ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT);
                                producers[c].send(message(sending[c], variant, first + c));
                            }
                        }
                    }));
                }
                complete = tally.await(deadline, workers) && listenerFailure.get() == null;
                if (complete) {
                    values.put(throughputKey(n, persistent), messages / Scenarios.seconds(tally.completedAt() - start));
                }
                Workers.join(threads, deadline);
            }
            if (complete) {
                Thread.sleep(GRACE_MS);
                BrokerMemory.record(broker, heapKey(n), rssKey(n), values);
            }
        } catch (Exception e) {
            totals.fail(e);
            note.append("failed: ").append(e);
        } finally {
            workers.stopAndJoin(5_000);
            if (connections != null) {
                note.append(", closed in ").append(connections.closeTimed()).append(" ms");
            }
        }
        Throwable failure = workers.failure() != null ? workers.failure() : listenerFailure.get();
        totals.add(tallies, complete, failure);
        return note.toString();
    }

    private BytesMessage message(Session session, int variant, int seq) throws JMSException {
        BytesMessage m = session.createBytesMessage();
        m.writeBytes(payload);
        m.setIntProperty("v", variant);
        m.setIntProperty("s", seq);
        return m;
    }
}
