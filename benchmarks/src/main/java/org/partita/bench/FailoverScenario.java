package org.partita.bench;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.stream.IntStream;

/**
 * S8, a failover under load. One producer sends persistent messages of 120 keys ({@code JMSXGroupID},
 * in turn) at a fixed pace, each send synchronous; one consumer receives them; both are connected to
 * the leader (Artemis: the primary; Partita: a node leading partitions of the queue) with failover to
 * the others. Once a third of the messages is sent, the leader's process is killed with SIGKILL.
 *
 * <p>The figure ({@value #FAILOVER_KEY}): from the kill ({@link System#nanoTime()} read just before the
 * signal) to the arrival at the consumer of the first message that the killed leader's successor had to
 * serve: a message of a key the killed node served (every key for Artemis's primary; for Partita those of
 * the partitions it led) whose send began after the kill. A send that fails (the node was lost under it)
 * is tried again with the same message, its start time set anew; so the figure covers the client
 * noticing the loss, the new leader taking over, the client's failover, and one send and delivery.
 */
final class FailoverScenario {
    static final String FAILOVER_KEY = "S8.failover";
    /** Note: which node was killed, when, and how many keys it served. */
    static final String KILLED_NOTE = "killed";
    /** Note: from the kill to the first arrival of any message sent after it (Partita: maybe a partition led elsewhere). */
    static final String ANY_KEY_NOTE = "firstAfterKillAnyKey";

    static final String FAILED_SENDS_NOTE = "failedSends";
    /** Note: the longest a send started after it was due, before and after the kill (0: the producer kept the pace). */
    static final String LAG_NOTE = "producerLateBy";

    static final String REPEATS_NOTE = "repeats";
    /** Message property: {@link System#nanoTime()} when the try of the send that stored it began. */
    private static final String TRIED_AT = "a";

    private static final String QUEUE = "s8";
    private static final int PARTITIONS = 8;
    private static final long RECEIVE_TIMEOUT_MS = 100;
    /** Pause after a failed send before it is tried again, so a broken connection does not spin a core. */
    private static final long RETRY_PAUSE_NANOS = 10_000_000;

    private final Scenarios scenarios;
    private final Scenarios.Settings settings;

    FailoverScenario(Scenarios scenarios, Scenarios.Settings settings) {
        this.scenarios = scenarios;
        this.settings = settings;
    }

    RunResult run(Scenario s, Target target, int run, int count, LeaderKillable broker) throws Exception {
        Tally tally = new Tally(count);
        Latency latency = new Latency();
        Workers workers = new Workers();
        AtomicLong killedAt = new AtomicLong();
        AtomicLong firstFromNewLeader = new AtomicLong();
        AtomicLong firstAnyKey = new AtomicLong();
        AtomicInteger sent = new AtomicInteger();
        AtomicInteger failedSends = new AtomicInteger();
        Set<Integer> triedAgain = ConcurrentHashMap.newKeySet();
        AtomicInteger copiesOfTriedAgain = new AtomicInteger();
        AtomicInteger flaggedRepeats = new AtomicInteger();
        AtomicInteger violations = new AtomicInteger();
        // how late the producer started its sends, before and after the kill: whether it kept the pace
        AtomicLong lagBeforeKill = new AtomicLong();
        AtomicLong lagAfterKill = new AtomicLong();
        int[] lastSeq = new int[Scenarios.KEYS];
        Arrays.fill(lastSeq, -1);
        String name = broker.queueName(QUEUE, "partitions=" + PARTITIONS);
        try (Clients clients = new Clients(broker.leaderConnectionFactory())) {
            MessageConsumer mc = Scenarios.consumer(clients.open(), name);
            Scenarios.Sender sender = Scenarios.sender(clients.open(), name, true, false);
            Predicate<String> leaderKeys = broker.keysOfLeader(QUEUE, PARTITIONS);
            long keysOfLeader = IntStream.range(0, Scenarios.KEYS)
                    .mapToObj(FailoverScenario::key)
                    .filter(leaderKeys)
                    .count();
            workers.loop("consumer", () -> {
                Message m = mc.receive(RECEIVE_TIMEOUT_MS);
                if (m == null) {
                    return;
                }
                long now = System.nanoTime();
                long kill = killedAt.get();
                if (kill != 0 && m.getLongProperty(TRIED_AT) - kill > 0) {
                    firstAnyKey.compareAndSet(0, now);
                    if (leaderKeys.test(m.getStringProperty("JMSXGroupID"))) {
                        firstFromNewLeader.compareAndSet(0, now);
                    }
                }
                if (tally.record(m.getIntProperty("s"))) {
                    latency.arrived(m);
                    int key = m.getIntProperty("k");
                    int ks = m.getIntProperty("ks");
                    if (ks < lastSeq[key]) {
                        violations.incrementAndGet();
                    } else {
                        lastSeq[key] = ks;
                    }
                } else if (triedAgain.contains(m.getIntProperty("s"))) {
                    copiesOfTriedAgain.incrementAndGet(); // the failed try was stored too: the producer's copy
                } else if (m.getJMSRedelivered()) {
                    flaggedRepeats.incrementAndGet();
                }
            });
            long interval = 1_000_000_000L / Math.max(1, settings.failoverRate());
            long start = System.nanoTime();
            long deadline = start + settings.timeCapNanos();
            workers.start("producer", () -> {
                for (int seq = 0; seq < count && Scenarios.before(deadline, workers); seq++) {
                    long due = start + seq * interval;
                    long wait;
                    while ((wait = due - System.nanoTime()) > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    (killedAt.get() == 0 ? lagBeforeKill : lagAfterKill).accumulateAndGet(-wait, Math::max);
                    while (!trySend(sender, seq, due) && Scenarios.before(deadline, workers)) {
                        failedSends.incrementAndGet();
                        triedAgain.add(seq);
                        LockSupport.parkNanos(RETRY_PAUSE_NANOS);
                    }
                    sent.incrementAndGet();
                }
            });
            int killAfter = Math.max(1, count / 3);
            workers.start("killer", () -> {
                while (sent.get() < killAfter && Scenarios.before(deadline, workers)) {
                    Thread.sleep(1);
                }
                if (Scenarios.before(deadline, workers)) {
                    killedAt.set(System.nanoTime());
                    broker.killLeader();
                }
            });
            RunResult r = Scenarios.finish(
                    s, target, run, tally, latency, workers, start, deadline, new LinkedHashMap<>(), null);
            Map<String, String> notes = new LinkedHashMap<>();
            notes.put(
                    KILLED_NOTE,
                    String.format(
                            Locale.ROOT,
                            "%s after %d of %d messages; %d of %d keys were its",
                            broker.leaderName(),
                            killAfter,
                            count,
                            keysOfLeader,
                            Scenarios.KEYS));
            notes.put(ANY_KEY_NOTE, sinceKill(killedAt.get(), firstAnyKey.get()));
            notes.put(FAILED_SENDS_NOTE, Integer.toString(failedSends.get()));
            notes.put(
                    LAG_NOTE,
                    String.format(
                            Locale.ROOT,
                            "%.0f ms before the kill, %.0f ms after",
                            lagBeforeKill.get() / 1e6,
                            lagAfterKill.get() / 1e6));
            notes.put(
                    REPEATS_NOTE,
                    String.format(
                            Locale.ROOT,
                            "%d: %d copies of a send tried again after a failure, %d flagged redelivered, %d neither",
                            r.duplicates(),
                            copiesOfTriedAgain.get(),
                            flaggedRepeats.get(),
                            r.duplicates() - copiesOfTriedAgain.get() - flaggedRepeats.get()));
            notes.put("orderViolations", Integer.toString(violations.get()));
            r = withNotes(r, notes);
            long from = killedAt.get();
            long to = firstFromNewLeader.get();
            if (from == 0 || to == 0) {
                return r.withNote(KILLED_NOTE, notes.get(KILLED_NOTE) + "; no message sent after the kill arrived");
            }
            return r.withValue(FAILOVER_KEY, (to - from) / 1e6);
        } finally {
            workers.stopAndJoin(5_000);
        }
    }

    /** One try of a send; false if it failed (the node was lost under it: the message may be stored or not). */
    private boolean trySend(Scenarios.Sender sender, int seq, long due) throws JMSException {
        int key = seq % Scenarios.KEYS;
        BytesMessage m = scenarios.message(sender.session(), 0, seq);
        m.setStringProperty("JMSXGroupID", key(key));
        m.setIntProperty("k", key);
        m.setIntProperty("ks", seq / Scenarios.KEYS);
        // latency from when the send was due, as S7's: the wait behind the failover counts
        m.setLongProperty(Latency.SENT_AT, due);
        m.setLongProperty(TRIED_AT, System.nanoTime());
        try {
            sender.producer().send(m);
            return true;
        } catch (JMSException lost) {
            return false;
        }
    }

    private static String key(int key) {
        return String.format(Locale.ROOT, "m-%03d", key + 1);
    }

    private static String sinceKill(long killedAt, long at) {
        return killedAt == 0 || at == 0 ? "none" : String.format(Locale.ROOT, "%.0f ms", (at - killedAt) / 1e6);
    }

    private static RunResult withNotes(RunResult r, Map<String, String> notes) {
        RunResult out = r;
        for (Map.Entry<String, String> e : notes.entrySet()) {
            out = out.withNote(e.getKey(), e.getValue());
        }
        return out;
    }
}
