package org.partita.broker.it.cluster;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.jms.api.PartitaAdmin;
import org.partita.jms.transport.NettyBrokerConnection;
import org.partita.protocol.MessageCodec;
import org.partita.protocol.ProviderProperties;
import org.partita.protocol.WireMessage;

/**
 * With more nodes than replicas, each node serves one of a queue's replica sets and keeps a replica of
 * only some of the others. An unkeyed message a producer sent through one node, then sent again
 * through another after the first was lost before it answered, may reach a node that keeps no replica
 * of the set the first node placed it in: that node asks the serving leaders of the sets it does not
 * serve whether the message is there, and keeps one copy; a message none of them holds is stored.
 */
@Tag("slow")
@Timeout(240)
class SentAgainElsewhereTest {
    private static final String QUEUE = "loose";
    private static final String STORED_FIRST = "ID:sent-again-stored-first";
    private static final String NEVER_STORED = "ID:sent-again-never-stored";

    @TempDir
    Path tmp;

    @Test
    void anUnkeyedMessageSentAgainThroughAnyOtherNodeIsKeptOnce() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 4).startAll()) {
            try (PartitaAdmin admin = PartitaAdmin.connect(c.factory(0))) {
                admin.updateQueue(QUEUE, Map.of("partitions", "4", "hosts", "*", "replicas", "3"));
                // every set led, as a cluster up for a while (a set between leaders is asked again, within a bound)
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                    Map<String, String> status = admin.clusterStatus();
                    for (int p = 0; p < 4; p++) {
                        String leader = status.get("queue." + QUEUE + ".partition." + p + ".host");
                        assertTrue(leader != null && leader.startsWith("node"), status.toString());
                    }
                });
            }
            byte[] first = message(STORED_FIRST);
            // the first send, through node1, once every set has a leader (refused until then)
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .ignoreExceptions()
                    .untilAsserted(() -> sendThrough(c, 0, first));
            // the same message sent again, marked, through each other node: one of them keeps no
            // replica of the set node1 placed it in (each set is three of the four nodes)
            byte[] again = MessageCodec.withProperty(first, ProviderProperties.SENT_AGAIN, Boolean.TRUE);
            for (int node = 1; node < 4; node++) {
                sendThrough(c, node, again);
            }
            // a message whose first send never reached a node: sent again, it is stored (once)
            sendThrough(
                    c,
                    3,
                    MessageCodec.withProperty(message(NEVER_STORED), ProviderProperties.SENT_AGAIN, Boolean.TRUE));

            List<String> received = new CopyOnWriteArrayList<>();
            List<Connection> connections = new ArrayList<>();
            try {
                for (int node = 0; node < 4; node++) {
                    Connection conn = c.factory(node).createConnection();
                    connections.add(conn);
                    Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                    MessageConsumer consumer = s.createConsumer(s.createQueue(QUEUE));
                    consumer.setMessageListener(m -> {
                        try {
                            received.add(m.getJMSMessageID());
                        } catch (jakarta.jms.JMSException e) {
                            throw new IllegalStateException(e);
                        }
                    });
                    conn.start();
                }
                await().atMost(Duration.ofSeconds(30)).until(() -> received.size() >= 2);
                // every copy was stored before its send returned, and consumers on every node are
                // served every partition: a second copy would arrive within moments
                await().during(Duration.ofSeconds(3))
                        .atMost(Duration.ofSeconds(10))
                        .untilAsserted(() -> assertEquals(2, received.size(), "copies received: " + received));
                assertEquals(
                        List.of(NEVER_STORED, STORED_FIRST),
                        received.stream().sorted().toList(),
                        "each message once");
            } finally {
                for (Connection conn : connections) {
                    conn.close();
                }
            }
        }
    }

    private static byte[] message(String id) {
        return MessageCodec.encode(new WireMessage(
                id,
                System.currentTimeMillis(),
                null,
                null,
                "queue:" + QUEUE,
                null,
                WireMessage.PERSISTENT,
                4,
                0,
                0,
                Map.of(),
                WireMessage.BODY_TEXT,
                "once".getBytes(StandardCharsets.UTF_8)));
    }

    /** Sends {@code message} on a session of a raw connection to node {@code node}, and waits until it is stored. */
    private static void sendThrough(EmbeddedCluster c, int node, byte[] message) throws Exception {
        NettyBrokerConnection link = NettyBrokerConnection.connect(
                "127.0.0.1",
                c.config().members().get(node).port(),
                c.config(node).maxFrameSize(),
                5_000);
        try {
            link.open(null, null, null).get(5, TimeUnit.SECONDS);
            link.openSession(1, false).get(5, TimeUnit.SECONDS);
            link.send(1, message, true).get(30, TimeUnit.SECONDS);
        } finally {
            link.abort();
        }
    }
}
