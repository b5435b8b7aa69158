package org.partita.broker.it.cluster;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.jms.api.PartitaAdmin;

/**
 * Fan-out queues spread over three nodes in this JVM: a message sent on any node is stored once, on
 * the replica set of its partition, with an entry per AppId, and each AppId's consumers anywhere in
 * the cluster receive every message once, each key in order, also after a node leading some of the
 * partitions stops.
 */
@Tag("slow")
@Timeout(240)
class ClusteredFanoutTest {
    private static final String QUEUE = "orders?mode=fanout&appIds=billing,audit&partitions=6&hosts=*";
    private static final int KEYS = 20;

    @TempDir
    Path tmp;

    @Test
    void everyAppIdGetsEveryMessageOnceInKeyOrderWhicheverNodeItWasSentOnAndAfterANodeStops() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3).startAll()) {
            // the queue is defined and every set has a leader before the counted sends
            await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> send(c, 0, 0));
            Map<String, Map<String, List<Integer>>> got = new ConcurrentHashMap<>();
            consume(c, "billing", new int[] {0, 1}, got, KEYS);
            consume(c, "audit", new int[] {2}, got, KEYS);
            got.clear();

            for (int seq = 1; seq <= 6; seq++) { // each seq of every key through another node
                send(c, seq % 3, seq);
            }
            c.stop(1); // node2 leads partitions 1 and 4: the others read them back from their copies
            await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> send(c, 2, 7));
            send(c, 0, 8);

            consume(c, "billing", new int[] {0}, got, KEYS * 8);
            consume(c, "audit", new int[] {2}, got, KEYS * 8);
            List<Integer> expected = List.of(1, 2, 3, 4, 5, 6, 7, 8);
            for (String appId : List.of("billing", "audit")) {
                Map<String, List<Integer>> byKey = got.get(appId);
                assertEquals(KEYS, byKey.size(), appId + ": " + byKey.keySet());
                byKey.forEach((key, seqs) -> assertEquals(expected, seqs, appId + " " + key));
            }
            try (PartitaAdmin admin = PartitaAdmin.connect(c.factory(0))) {
                jakarta.jms.JMSException refused = org.junit.jupiter.api.Assertions.assertThrows(
                        jakarta.jms.JMSException.class, () -> admin.updateQueue("orders", Map.of("partitions", "9")));
                assertTrue(refused.getMessage().contains("fan-out"), refused.getMessage());
            }
        }
    }

    /** Seq {@code seq} of every key through node {@code node}. */
    private static void send(EmbeddedCluster c, int node, int seq) throws Exception {
        try (Connection conn = c.factory(node).createConnection()) {
            Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue(QUEUE));
            for (int k = 0; k < KEYS; k++) {
                TextMessage m = s.createTextMessage("order");
                m.setStringProperty("JMSXGroupID", "k" + k);
                m.setIntProperty("seq", seq);
                p.send(m);
            }
        }
    }

    /** Consumes as {@code appId} on {@code nodes} until {@code expected} distinct messages came. */
    private static void consume(
            EmbeddedCluster c, String appId, int[] nodes, Map<String, Map<String, List<Integer>>> got, int expected)
            throws Exception {
        Map<String, List<Integer>> byKey = got.computeIfAbsent(appId, a -> new ConcurrentHashMap<>());
        java.util.Set<String> distinct = ConcurrentHashMap.newKeySet();
        List<String> unflaggedRepeats = new CopyOnWriteArrayList<>();
        List<Connection> connections = new ArrayList<>();
        try {
            for (int node : nodes) {
                Connection conn = c.factory(node).createConnection();
                connections.add(conn);
                Session s = conn.createSession(false, Session.CLIENT_ACKNOWLEDGE);
                s.createConsumer(s.createQueue("orders?appId=" + appId)).setMessageListener(m -> {
                    try {
                        String key = m.getStringProperty("JMSXGroupID");
                        int seq = m.getIntProperty("seq");
                        if (seq == 0 && expected > KEYS) {
                            m.acknowledge(); // a probe sent again while the sets elected: not counted
                            return;
                        }
                        if (seq == 0) {
                            distinct.add(key + "#" + seq);
                        } else if (distinct.add(key + "#" + seq)) { // first arrivals: their order counts
                            byKey.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>())
                                    .add(seq);
                        } else if (!m.getJMSRedelivered()) {
                            unflaggedRepeats.add(appId + " " + key + "#" + seq);
                        }
                        m.acknowledge();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                conn.start();
            }
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> assertTrue(
                            distinct.size() >= expected, appId + ": " + distinct.size() + " of " + expected));
            assertEquals(List.of(), unflaggedRepeats, "a message that comes again is flagged redelivered");
        } finally {
            for (Connection conn : connections) {
                conn.close();
            }
        }
    }
}
