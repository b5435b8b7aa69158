package org.partita.ra.cluster;

import jakarta.jms.Connection;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * A producer on one node sending its keys round after round: round {@code r} sends sequence number
 * {@code r} of every key ({@code JMSXGroupID}, int property {@code seq}), persistent; what the node
 * confirmed is kept as {@code key#seq}. Only this producer sends its keys, so their order is its.
 */
public final class KeyedProducer {
    private final String url;
    private final String queue;
    private final List<String> keys;
    private final int rounds;
    private final long pauseMillis;
    private final Set<String> confirmed = ConcurrentHashMap.newKeySet();
    private final AtomicInteger roundsDone = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private Thread thread;

    public KeyedProducer(String url, String queue, List<String> keys, int rounds, long pauseMillis) {
        this.url = url;
        this.queue = queue;
        this.keys = List.copyOf(keys);
        this.rounds = rounds;
        this.pauseMillis = pauseMillis;
    }

    public KeyedProducer start() {
        thread = new Thread(this::run, "producer-" + url);
        thread.setDaemon(true);
        thread.start();
        return this;
    }

    private void run() {
        try (Connection c = new PartitaConnectionFactory(url).createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue(queue));
            for (int seq = 0; seq < rounds; seq++) {
                for (String key : keys) {
                    TextMessage m = s.createTextMessage("state of " + key);
                    m.setStringProperty("JMSXGroupID", key);
                    m.setIntProperty("seq", seq);
                    p.send(m);
                    confirmed.add(key + "#" + seq);
                }
                roundsDone.incrementAndGet();
                if (pauseMillis > 0) {
                    Thread.sleep(pauseMillis);
                }
            }
        } catch (Throwable e) {
            failure.set(e);
        }
    }

    public boolean finished() throws InterruptedException {
        thread.join(1);
        return !thread.isAlive();
    }

    public int roundsDone() {
        return roundsDone.get();
    }

    public Set<String> confirmed() {
        return Set.copyOf(confirmed);
    }

    public Throwable failure() {
        return failure.get();
    }

    public List<String> keys() {
        return keys;
    }

    /** Every {@code producers}-th of {@code keys} keys ({@code machine-N}), from the {@code producer}-th on: one producer's share. */
    public static List<String> keysOf(int producer, int producers, int keys) {
        List<String> out = new java.util.ArrayList<>();
        for (int k = producer; k < keys; k += producers) {
            out.add("machine-" + k);
        }
        return out;
    }

    /** Waits up to {@code bound} until every producer is done, and fails if one of them failed. */
    public static void awaitFinished(List<KeyedProducer> producers, java.time.Duration bound) {
        org.awaitility.Awaitility.await("the producers done").atMost(bound).until(() -> {
            for (KeyedProducer p : producers) {
                if (!p.finished()) {
                    return false;
                }
            }
            return true;
        });
        for (KeyedProducer p : producers) {
            org.junit.jupiter.api.Assertions.assertNull(
                    p.failure(), "producer of " + p.keys().get(0) + "...");
        }
    }
}
