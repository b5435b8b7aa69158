package org.partita.broker.it.cluster;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Last value queues spread over three nodes in this JVM: whichever node an update is sent on, the
 * queue keeps the newest message per last-value key for the whole cluster (per queue with
 * {@code lastValue=queue}), since messages are partitioned by that key.
 */
@Tag("slow")
@Timeout(180)
class ClusteredLastValueTest {
    private static final int KEYS = 20;
    private static final int UPDATES = 6;

    @TempDir
    Path tmp;

    @Test
    void updatesOfAKeySentThroughEveryNodeLeaveTheNewestOnlyPerKey() throws Exception {
        String queue = "prices?partitions=6&hosts=*&lastValue=symbol";
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3).startAll()) {
            // update u of every key goes through node u mod 3, with a JMSXGroupID of its own that
            // would scatter a key's updates over the partitions if it chose them
            for (int u = 1; u <= UPDATES; u++) {
                int update = u;
                await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> send(c, queue, update));
            }
            Map<String, List<String>> kept = drain(c, queue, KEYS);
            assertEquals(KEYS, kept.size(), kept.toString());
            kept.forEach((symbol, values) -> assertEquals(List.of(symbol + "@" + UPDATES), values, symbol));
        }
    }

    @Test
    void aQueueKeepingOneMessageKeepsTheNewestWhicheverNodeItCameThrough() throws Exception {
        String queue = "state?partitions=3&hosts=*&lastValue=queue";
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3).startAll()) {
            for (int i = 1; i <= 9; i++) {
                int n = i;
                await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> {
                    try (Connection conn = c.factory(n % 3).createConnection()) {
                        Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                        MessageProducer p = s.createProducer(s.createQueue(queue));
                        TextMessage m = s.createTextMessage("state " + n);
                        m.setStringProperty("JMSXGroupID", "g" + n);
                        p.send(m);
                    }
                });
            }
            List<String> got = new ArrayList<>();
            try (Connection conn = c.factory(1).createConnection()) {
                Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageConsumer consumer = s.createConsumer(s.createQueue("state"));
                conn.start();
                for (Message m = consumer.receive(5_000); m != null; m = consumer.receive(1_000)) {
                    got.add(((TextMessage) m).getText());
                }
            }
            assertEquals(List.of("state 9"), got);
        }
    }

    private static void send(EmbeddedCluster c, String queue, int update) throws Exception {
        try (Connection conn = c.factory(update % 3).createConnection()) {
            Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue(queue));
            for (int k = 0; k < KEYS; k++) {
                TextMessage m = s.createTextMessage("sym" + k + "@" + update);
                m.setStringProperty("symbol", "sym" + k);
                m.setStringProperty("JMSXGroupID", "g" + update + "-" + k);
                p.send(m);
            }
        }
    }

    /** Consumes through every node until {@code expected} messages came and a second passed without more. */
    private static Map<String, List<String>> drain(EmbeddedCluster c, String queue, int expected) throws Exception {
        Map<String, List<String>> bySymbol = new TreeMap<>();
        int got = 0;
        for (int node = 0; node < 3; node++) {
            try (Connection conn = c.factory(node).createConnection()) {
                Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageConsumer consumer = s.createConsumer(s.createQueue(queue.substring(0, queue.indexOf('?'))));
                conn.start();
                for (Message m = consumer.receive(got < expected ? 5_000 : 1_000);
                        m != null;
                        m = consumer.receive(got < expected ? 5_000 : 1_000)) {
                    bySymbol.computeIfAbsent(m.getStringProperty("symbol"), k -> new ArrayList<>())
                            .add(((TextMessage) m).getText());
                    got++;
                }
            }
        }
        return bySymbol;
    }
}
