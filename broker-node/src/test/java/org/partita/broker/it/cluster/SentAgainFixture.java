package org.partita.broker.it.cluster;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.partita.jms.api.PartitaAdmin;
import org.partita.protocol.MessageCodec;
import org.partita.protocol.ProviderProperties;
import org.partita.protocol.WireMessage;

/**
 * What the tests of messages sent again by hand share: a queue with replicas whose every set is led,
 * persistent messages with fixed ids, marked as sent again, and every copy consumers on every node
 * receive.
 */
final class SentAgainFixture {
    private SentAgainFixture() {}

    /** Defines {@code queue} over every node with {@code replicas}, and waits until each partition's set is led. */
    static void replicatedAndLed(EmbeddedCluster c, String queue, int partitions, int replicas) throws JMSException {
        replicatedAndLed(c, queue, partitions, replicas, Map.of());
    }

    /** The same, with more options ({@code mode}, {@code appIds}). */
    static void replicatedAndLed(
            EmbeddedCluster c, String queue, int partitions, int replicas, Map<String, String> more)
            throws JMSException {
        try (PartitaAdmin admin = PartitaAdmin.connect(c.factory(0))) {
            Map<String, String> options = new HashMap<>(more);
            options.put("partitions", String.valueOf(partitions));
            options.put("hosts", "*");
            options.put("replicas", String.valueOf(replicas));
            admin.updateQueue(queue, options);
            // every set led, as a cluster up for a while (a set between leaders is asked again, within a bound)
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                Map<String, String> status = admin.clusterStatus();
                for (int p = 0; p < partitions; p++) {
                    String leader = status.get("queue." + queue + ".partition." + p + ".host");
                    assertTrue(leader != null && leader.startsWith("node"), status.toString());
                }
            });
        }
    }

    /** A persistent text message to {@code queue} with JMSMessageID {@code id}, keyed by {@code key} unless null. */
    static byte[] message(String queue, String id, String key) {
        Map<String, Object> properties = new HashMap<>();
        if (key != null) {
            properties.put("JMSXGroupID", key);
        }
        return MessageCodec.encode(new WireMessage(
                id,
                System.currentTimeMillis(),
                null,
                null,
                "queue:" + queue,
                null,
                WireMessage.PERSISTENT,
                4,
                0,
                0,
                properties,
                WireMessage.BODY_TEXT,
                "once".getBytes(StandardCharsets.UTF_8)));
    }

    /** The message marked as a producer marks one it sends again after its node was lost. */
    static byte[] marked(byte[] message) {
        return MessageCodec.withProperty(message, ProviderProperties.SENT_AGAIN, Boolean.TRUE);
    }

    /**
     * The JMSMessageIDs consumers on every node receive of {@code queue}: {@code expected} of them, and
     * no more for 3 s. Every copy was stored before its send or commit returned, and consumers on every
     * node are served every partition, so a second copy would arrive within moments.
     */
    static List<String> receivedOnEveryNode(EmbeddedCluster c, int nodes, String queue, int expected)
            throws JMSException {
        List<String> received = new CopyOnWriteArrayList<>();
        List<Connection> connections = new ArrayList<>();
        try {
            for (int node = 0; node < nodes; node++) {
                Connection conn = c.factory(node).createConnection();
                connections.add(conn);
                Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageConsumer consumer = s.createConsumer(s.createQueue(queue));
                consumer.setMessageListener(m -> {
                    try {
                        received.add(m.getJMSMessageID());
                    } catch (JMSException e) {
                        throw new IllegalStateException(e);
                    }
                });
                conn.start();
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> received.size() >= expected);
            await().during(Duration.ofSeconds(3))
                    .atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertEquals(expected, received.size(), "copies received: " + received));
            return List.copyOf(received);
        } finally {
            for (Connection conn : connections) {
                conn.close();
            }
        }
    }
}
