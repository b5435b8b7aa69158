package org.partita.bench;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
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
 * S10, queues: for each count of its sweep ({@link ScaleSweeps#queueCounts()}), one consumer is attached
 * to each of that many queues, then {@value #PRODUCERS} producers send the scenario's count of persistent
 * 1 KiB messages round-robin over the queues (message {@code i} to queue {@code i % queues}); the clock
 * runs from the first send to the last arrival. The consumers are listeners spread over {@value
 * #CONNECTIONS} connections of {@value #SESSIONS_PER_CONNECTION} sessions each, so that 10,000 consumers
 * cost the tool a few dozen sessions, not 10,000 connections or threads: the broker's side is measured,
 * not the client's. With every message in, the broker's heap after a full GC is read (in its own JVM also
 * its resident set), the consumers still attached. The queues are named the same at every step and the
 * steps grow, so at each step the broker holds exactly that step's count of queues.
 */
final class QueueScaleScenario {
    /** Producers, each on a connection of its own, as in S2: a few persistent sends on their way at once. */
    static final int PRODUCERS = 4;
    /** The consumers' connections. */
    static final int CONNECTIONS = 4;
    /** Sessions on each of the consumers' connections; a session runs its listeners one at a time. */
    static final int SESSIONS_PER_CONNECTION = 16;
    /** Threads attaching consumers at once, each on its own sessions: one round trip each, 10,000 of them. */
    static final int ATTACHERS = 8;

    /** After the last message arrived, the listeners keep receiving this long, so late duplicates are seen. */
    private static final long GRACE_MS = 200;

    private final BrokerUnderTest broker;
    private final Scenarios.Settings settings;
    private final byte[] payload = new byte[Scenarios.PAYLOAD_BYTES];

    QueueScaleScenario(BrokerUnderTest broker, Scenarios.Settings settings) {
        this.broker = broker;
        this.settings = settings;
        new Random(42).nextBytes(payload);
    }

    static String throughputKey(int queues) {
        return "S10.q" + queues;
    }

    static String heapKey(int queues) {
        return "S10.q" + queues + ".heap";
    }

    static String rssKey(int queues) {
        return "S10.q" + queues + ".rss";
    }

    /** Per step: the throughput, the heap, and the resident set with brokers in their own JVMs. */
    static List<Scenario.Row> rows(ScaleSweeps sweeps) {
        List<Scenario.Row> rows = new ArrayList<>();
        for (int n : sweeps.queueCounts()) {
            String step = String.format(Locale.ROOT, "S10 %,d queue%s", n, n == 1 ? "" : "s");
            rows.add(new Scenario.Row(throughputKey(n), step + ", persistent, a consumer each", "msg/s", true));
            rows.add(new Scenario.Row(
                    heapKey(n), step + ": " + ConnectionScaleScenario.heapLabel(sweeps), "MiB", false));
            if (sweeps.ownJvm()) {
                rows.add(new Scenario.Row(rssKey(n), step + ": broker RSS", "MiB", false));
            }
        }
        return rows;
    }

    RunResult run(Scenario s, Target target, int run, int count) throws Exception {
        List<Integer> counts = settings.sweeps().queueCounts();
        int most = counts.get(counts.size() - 1);
        String[] names = new String[most];
        for (int q = 0; q < most; q++) {
            names[q] = broker.queueName("s10-" + q, "");
        }
        Map<String, Double> values = new LinkedHashMap<>();
        Map<String, String> notes = new LinkedHashMap<>();
        SweepTotals totals = new SweepTotals();
        List<String> steps = new ArrayList<>();
        for (int n : counts) {
            steps.add(step(n, count, names, values, totals));
            if (totals.failed()) {
                break; // a larger step would not do better
            }
        }
        notes.put("steps", String.join("; ", steps));
        return totals.result(s, target, run, values, notes);
    }

    /** One step: {@code n} queues with a consumer each, {@code messages} over them; returns its note. */
    private String step(int n, int messages, String[] names, Map<String, Double> values, SweepTotals totals)
            throws Exception {
        Tally tally = new Tally(messages);
        AtomicReference<Throwable> listenerFailure = new AtomicReference<>();
        Workers workers = new Workers();
        StringBuilder note = new StringBuilder(String.format(Locale.ROOT, "%,d: ", n));
        boolean complete = false;
        try (Clients clients = new Clients(broker.connectionFactory())) {
            long attachBegan = System.nanoTime();
            Queue[] queues = attach(clients, n, names, tally, listenerFailure);
            note.append(String.format(
                    Locale.ROOT, "consumers attached in %d ms", (System.nanoTime() - attachBegan) / 1_000_000));
            List<Session> sessions = new ArrayList<>();
            List<MessageProducer> producers = new ArrayList<>();
            for (int p = 0; p < PRODUCERS; p++) {
                Session session = clients.open().createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer producer = session.createProducer(null); // a queue per send
                producer.setDeliveryMode(DeliveryMode.PERSISTENT);
                sessions.add(session);
                producers.add(producer);
            }
            long start = System.nanoTime();
            long deadline = start + settings.timeCapNanos();
            for (int p = 0; p < PRODUCERS; p++) {
                int first = p;
                Session session = sessions.get(p);
                MessageProducer producer = producers.get(p);
                workers.start("s10-producer-" + p, () -> {
                    for (int i = first; i < messages && Scenarios.before(deadline, workers); i += PRODUCERS) {
                        producer.send(queues[i % n], message(session, i));
                    }
                });
            }
            complete = tally.await(deadline, workers) && listenerFailure.get() == null;
            if (complete) {
                values.put(throughputKey(n), messages / Scenarios.seconds(tally.completedAt() - start));
                Thread.sleep(GRACE_MS);
                BrokerMemory.record(broker, heapKey(n), rssKey(n), values);
            }
            workers.stopAndJoin(5_000);
        } catch (Exception e) {
            totals.fail(e);
            note.append(note.length() == 0 ? "" : ", ").append("failed: ").append(e);
        } finally {
            workers.stopAndJoin(5_000);
        }
        Throwable failure = workers.failure() != null ? workers.failure() : listenerFailure.get();
        totals.add(new Tally[] {tally}, complete, failure);
        return note.toString();
    }

    /**
     * Opens the consumers' connections and sessions and attaches a listener to each of the first {@code n}
     * queues, queue {@code q} on session {@code q % sessions}, {@value #ATTACHERS} threads at once, each on
     * its own sessions (a session is used by one thread at a time); returns the queues, for the producers.
     */
    private Queue[] attach(
            Clients clients, int n, String[] names, Tally tally, AtomicReference<Throwable> listenerFailure)
            throws Exception {
        int sessionCount = Math.min(n, CONNECTIONS * SESSIONS_PER_CONNECTION);
        List<Connection> connections = new ArrayList<>();
        for (int c = 0; c < Math.min(CONNECTIONS, sessionCount); c++) {
            connections.add(clients.open());
        }
        Session[] sessions = new Session[sessionCount];
        for (int k = 0; k < sessionCount; k++) {
            sessions[k] = connections.get(k % connections.size()).createSession(false, Session.AUTO_ACKNOWLEDGE);
        }
        Queue[] queues = new Queue[n];
        Workers attachers = new Workers();
        int threads = Math.min(ATTACHERS, sessionCount);
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int attacher = t;
            started.add(attachers.start("s10-attach-" + t, () -> {
                for (int q = 0; q < n; q++) {
                    int k = q % sessionCount;
                    if (k % threads != attacher) {
                        continue;
                    }
                    queues[q] = sessions[k].createQueue(names[q]);
                    MessageConsumer consumer = sessions[k].createConsumer(queues[q]);
                    consumer.setMessageListener(m -> {
                        try {
                            tally.record(m.getIntProperty("s"));
                        } catch (JMSException | RuntimeException e) {
                            listenerFailure.compareAndSet(null, e);
                        }
                    });
                }
            }));
        }
        Workers.join(started, System.nanoTime() + settings.timeCapNanos());
        if (attachers.failure() != null) {
            throw new IllegalStateException("attaching the consumers failed", attachers.failure());
        }
        if (started.stream().anyMatch(Thread::isAlive)) {
            attachers.stop();
            throw new java.util.concurrent.TimeoutException(n + " consumers not attached within the time cap");
        }
        return queues;
    }

    private BytesMessage message(Session session, int seq) throws JMSException {
        BytesMessage m = session.createBytesMessage();
        m.writeBytes(payload);
        m.setIntProperty("s", seq);
        return m;
    }
}
