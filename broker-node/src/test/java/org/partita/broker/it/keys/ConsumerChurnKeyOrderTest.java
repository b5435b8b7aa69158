package org.partita.broker.it.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.partita.broker.it.NodeExtension;

/**
 * Consumers that come and go while keyed messages flow: each of three consumer threads closes its
 * consumer (and now and then its whole session) every few messages and opens a new one at once, so
 * prefetched messages are handed back all the time while the others take the keys over, and every
 * third consumer's work is rolled back (or recovered). Every key must still arrive complete and in
 * order.
 */
@Tag("slow")
public class ConsumerChurnKeyOrderTest {
    private static final int KEYS = 20;
    private static final int PER_KEY = 60;
    private static final int TOTAL = KEYS * PER_KEY;

    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    /**
     * @param transacted each consumer's work is a transaction, else client-acknowledged: committed
     *                   (acknowledged) when the consumer closes, except every third time, when it is
     *                   rolled back (recovered) and its messages come again
     */
    @ParameterizedTest(name = "{0}, transacted: {1}")
    @CsvSource({
        "churn, false",
        "churnParts?partitions=6&rebalanceDelay=50, false",
        "churnTx, true",
        "churnTxParts?partitions=6&rebalanceDelay=50, true"
    })
    void keysStayInOrderWhileConsumersCloseAndReopen(String queue, boolean transacted) throws Exception {
        churn(i -> node.factory(), node.factory(), queue, transacted);
    }

    /**
     * Runs the churn: consumer thread {@code i} connects through {@code consumerFactory.apply(i)},
     * the two producers through {@code producerFactory}; fails on a key out of order or incomplete.
     */
    public static void churn(
            java.util.function.IntFunction<jakarta.jms.ConnectionFactory> consumerFactory,
            jakarta.jms.ConnectionFactory producerFactory,
            String queue,
            boolean transacted)
            throws Exception {
        Map<String, List<Integer>> byKey = new HashMap<>();
        List<String> violations = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(5);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        try (Connection producers = producerFactory.createConnection()) {
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < 3; c++) {
                int worker = c;
                running.add(pool.submit(() -> {
                    try (Connection consumers = consumerFactory.apply(worker).createConnection()) {
                        consumers.start();
                        consume(consumers, worker, queue, transacted, byKey, violations, deadline);
                    }
                    return null;
                }));
            }
            for (int p = 0; p < 2; p++) {
                int producer = p;
                running.add(pool.submit(() -> {
                    Session s = producers.createSession(false, Session.AUTO_ACKNOWLEDGE);
                    MessageProducer mp = s.createProducer(s.createQueue(queue));
                    mp.setDeliveryMode(DeliveryMode.PERSISTENT);
                    for (int seq = 0; seq < PER_KEY; seq++) {
                        for (int k = producer; k < KEYS; k += 2) {
                            Message m = s.createMessage();
                            m.setStringProperty("JMSXGroupID", "key-" + k);
                            m.setIntProperty("seq", seq);
                            mp.send(m);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        synchronized (byKey) {
            assertTrue(
                    violations.isEmpty(),
                    violations.size() + " out of order, first: "
                            + violations.subList(0, Math.min(5, violations.size())));
            assertEquals(KEYS, byKey.size());
            for (Map.Entry<String, List<Integer>> e : byKey.entrySet()) {
                assertEquals(PER_KEY, e.getValue().size(), "every message of " + e.getKey() + " once: " + e.getValue());
            }
        }
    }

    /** One consumer thread: consumers opened and closed in turn, their work settled or handed back. */
    private static void consume(
            Connection consumers,
            int worker,
            String queue,
            boolean transacted,
            Map<String, List<Integer>> byKey,
            List<String> violations,
            long deadline)
            throws Exception {
        int round = 0;
        Session s = session(consumers, transacted);
        while (received(byKey) < TOTAL && System.nanoTime() < deadline) {
            MessageConsumer mc = s.createConsumer(s.createQueue(queue));
            List<Message> taken = new ArrayList<>();
            for (int i = 0; i < 5 + worker * 3; i++) {
                Message m = mc.receive(200);
                if (m == null) {
                    break;
                }
                taken.add(m);
            }
            mc.close();
            round++;
            if (round % 3 == 0) {
                // none of it happened: it all comes again, in order
                if (transacted) {
                    s.rollback();
                } else {
                    s.recover();
                }
            } else {
                // checked in the order received before it is settled: until then its keys
                // stay with this session, so no other can take their next messages
                for (Message m : taken) {
                    record(byKey, violations, m);
                }
                if (transacted) {
                    s.commit();
                } else if (!taken.isEmpty()) {
                    taken.get(0).acknowledge();
                }
            }
            if (round % 4 == 0) {
                s.close(); // a session that goes away hands back what it held as well
                s = session(consumers, transacted);
            }
        }
        s.close();
    }

    private static Session session(Connection c, boolean transacted) throws jakarta.jms.JMSException {
        return transacted
                ? c.createSession(true, Session.SESSION_TRANSACTED)
                : c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
    }

    private static int received(Map<String, List<Integer>> byKey) {
        synchronized (byKey) {
            return byKey.values().stream().mapToInt(List::size).sum();
        }
    }

    /** Records a message; a repeat of the last one seen of its key (redelivered) is not a new one. */
    private static void record(Map<String, List<Integer>> byKey, List<String> violations, Message m) throws Exception {
        String key = m.getStringProperty("JMSXGroupID");
        int seq = m.getIntProperty("seq");
        synchronized (byKey) {
            List<Integer> seen = byKey.computeIfAbsent(key, k -> new ArrayList<>());
            int last = seen.isEmpty() ? -1 : seen.get(seen.size() - 1);
            if (seq == last && m.getJMSRedelivered()) {
                return;
            }
            if (seq != last + 1) {
                violations.add(key + ": " + seq + " after " + last + (m.getJMSRedelivered() ? " (redelivered)" : ""));
            }
            seen.add(seq);
        }
    }
}
