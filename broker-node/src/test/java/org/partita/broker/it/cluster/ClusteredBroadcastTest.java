package org.partita.broker.it.cluster;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Broadcast queues spread over three nodes in this JVM: a message sent on any node reaches every
 * consumer of the queue on every node, once, in the order it was sent from its producer.
 */
@Tag("slow")
@Timeout(180)
class ClusteredBroadcastTest {
    private static final int PER_NODE = 30;

    @TempDir
    Path tmp;

    @Test
    void aMessageSentOnAnyNodeReachesEveryConsumerOnEveryNodeOnce() throws Exception {
        String queue = "ticks?mode=broadcast&partitions=3&hosts=*";
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3).startAll()) {
            List<Connection> connections = new ArrayList<>();
            List<MessageConsumer> consumers = new ArrayList<>();
            try {
                for (int node = 0; node < 3; node++) {
                    for (int k = 0; k < 2; k++) { // two consumers on every node
                        Connection conn = c.factory(node).createConnection();
                        connections.add(conn);
                        Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                        consumers.add(s.createConsumer(s.createQueue(queue)));
                        conn.start();
                    }
                }
                // every consumer hears a probe from every node before the counted messages go: each
                // has its part on the other nodes open by then (broadcast keeps nothing for a late one)
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                    for (int node = 0; node < 3; node++) {
                        send(c, node, queue, "probe", 1);
                    }
                    for (MessageConsumer consumer : consumers) {
                        List<String> probes = receiveAll(consumer, 500);
                        for (int node = 0; node < 3; node++) {
                            String from = "probe-node" + node;
                            assertEquals(true, probes.stream().anyMatch(p -> p.startsWith(from)), probes.toString());
                        }
                    }
                });
                for (MessageConsumer consumer : consumers) {
                    receiveAll(consumer, 200); // probes still on their way
                }
                for (int node = 0; node < 3; node++) {
                    send(c, node, queue, "tick", PER_NODE);
                }
                for (MessageConsumer consumer : consumers) {
                    List<String> got = new ArrayList<>();
                    await().atMost(Duration.ofSeconds(30)).until(() -> {
                        got.addAll(receiveAll(consumer, 200));
                        return got.size() >= 3 * PER_NODE;
                    });
                    got.addAll(receiveAll(consumer, 500)); // nothing more may come
                    List<String> ticks =
                            got.stream().filter(t -> t.startsWith("tick")).toList();
                    assertEquals(3 * PER_NODE, ticks.size(), "every tick once: " + ticks);
                    for (int node = 0; node < 3; node++) {
                        String from = "tick-node" + node + "-";
                        List<String> fromNode =
                                ticks.stream().filter(t -> t.startsWith(from)).toList();
                        List<String> inOrder = new ArrayList<>();
                        for (int i = 0; i < PER_NODE; i++) {
                            inOrder.add(from + i);
                        }
                        assertEquals(inOrder, fromNode, "a producer's ticks in the order it sent them");
                    }
                }
            } finally {
                for (Connection conn : connections) {
                    conn.close();
                }
            }
        }
    }

    /** {@code count} messages with one key through node {@code node}, so they keep their order. */
    private static void send(EmbeddedCluster c, int node, String queue, String what, int count) throws Exception {
        try (Connection conn = c.factory(node).createConnection()) {
            Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue(queue));
            p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            for (int i = 0; i < count; i++) {
                TextMessage m = s.createTextMessage(what + "-node" + node + "-" + i);
                m.setStringProperty("JMSXGroupID", what + "-node" + node);
                p.send(m);
            }
        }
    }

    private static List<String> receiveAll(MessageConsumer consumer, long quietMillis) throws Exception {
        List<String> out = new ArrayList<>();
        for (Message m = consumer.receive(quietMillis); m != null; m = consumer.receive(quietMillis)) {
            out.add(((TextMessage) m).getText());
        }
        return out;
    }
}
