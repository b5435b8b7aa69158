package org.partita.broker.it.cluster;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A queue spread over three nodes in this JVM: keyed messages sent on one node reach consumers on all. */
@Tag("slow")
@Timeout(180)
class ClusteredQueueTest {
    @TempDir
    Path tmp;

    @Test
    void keyedMessagesSentOnOneNodeAreConsumedOnEveryNodeInKeyOrder() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3).startAll()) {
            String queue = "orders?partitions=6&hosts=node1,node2,node3&replicas=1";
            List<Connection> connections = new ArrayList<>();
            Map<String, List<Integer>> byKey = new ConcurrentHashMap<>();
            List<String> receivedOn = new CopyOnWriteArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    Connection conn = c.factory(i).createConnection();
                    connections.add(conn);
                    Session s = conn.createSession(false, Session.CLIENT_ACKNOWLEDGE);
                    MessageConsumer consumer = s.createConsumer(s.createQueue(queue));
                    String node = "node" + (i + 1);
                    consumer.setMessageListener(m -> {
                        try {
                            String key = m.getStringProperty("JMSXGroupID");
                            byKey.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>())
                                    .add(m.getIntProperty("seq"));
                            receivedOn.add(node);
                            m.acknowledge();
                        } catch (Exception e) {
                            throw new RuntimeException(e);
                        }
                    });
                    conn.start();
                }
                Connection producerConnection = c.factory(0).createConnection();
                connections.add(producerConnection);
                Session ps = producerConnection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer p = ps.createProducer(ps.createQueue("orders"));
                int keys = 30;
                int perKey = 20;
                for (int seq = 0; seq < perKey; seq++) {
                    for (int k = 0; k < keys; k++) {
                        TextMessage m = ps.createTextMessage("x");
                        m.setStringProperty("JMSXGroupID", "key-" + k);
                        m.setIntProperty("seq", seq);
                        p.send(m);
                    }
                }
                await().atMost(Duration.ofSeconds(60)).until(() -> receivedOn.size() >= keys * perKey);
                for (Map.Entry<String, List<Integer>> e : byKey.entrySet()) {
                    List<Integer> expected = new ArrayList<>();
                    for (int i = 0; i < perKey; i++) {
                        expected.add(i);
                    }
                    assertEquals(expected, e.getValue(), "order of " + e.getKey());
                }
                Map<String, Integer> perNode = new HashMap<>();
                receivedOn.forEach(n -> perNode.merge(n, 1, Integer::sum));
                System.out.println("received per node: " + perNode);
                assertEquals(3, perNode.size(), "consumers on every node received: " + perNode);
                try (org.partita.jms.api.PartitaAdmin admin = org.partita.jms.api.PartitaAdmin.connect(c.factory(1))) {
                    Map<String, String> status = admin.clusterStatus();
                    assertEquals("node2", status.get("node"));
                    assertEquals("up", status.get("member.node1").split(" ")[0], status.toString());
                    assertEquals("up", status.get("member.node3").split(" ")[0], status.toString());
                    assertEquals("node3", status.get("queue.orders.partition.5.host"), status.toString());
                    assertEquals("node1", status.get("queue.orders.partition.3.host"), status.toString());
                    for (int partition = 0; partition < 6; partition++) {
                        String prefix = "queue.orders.partition." + partition + ".";
                        // asked of each partition's host: drained, and owned by that host's own consumer
                        assertEquals("0", status.get(prefix + "depth"), status.toString());
                        assertTrue(status.get(prefix + "owner").startsWith("consumer "), status.toString());
                        assertEquals(status.get(prefix + "host"), status.get(prefix + "ownerNode"), status.toString());
                    }
                }
            } finally {
                for (Connection conn : connections) {
                    conn.close();
                }
            }
        }
    }

    /**
     * One consumer on node1 with a byte window of one message takes the partitions of all three nodes:
     * node2 and node3 deliver to it over their links within the window, and go on only as the room of
     * their own deliveries comes back (a credit lost on the way would stall their keys).
     */
    @Test
    void aConsumerWithASmallByteWindowIsFedLargeMessagesByEveryNode() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3).startAll()) {
            String queue = "large?partitions=6&hosts=node1,node2,node3&replicas=1";
            int size = 1 << 20;
            try (Connection consumerConnection = new org.partita.jms.client.PartitaConnectionFactory(
                                    c.factory(0).getUrl() + "?prefetchBytes=" + size)
                            .createConnection();
                    Connection producerConnection = c.factory(1).createConnection()) {
                Session s = consumerConnection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageConsumer consumer = s.createConsumer(s.createQueue(queue));
                consumerConnection.start();
                Session ps = producerConnection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer p = ps.createProducer(ps.createQueue("large"));
                int keys = 12;
                int perKey = 3;
                for (int seq = 0; seq < perKey; seq++) {
                    for (int k = 0; k < keys; k++) {
                        jakarta.jms.BytesMessage m = ps.createBytesMessage();
                        m.writeBytes(new byte[size]);
                        m.setStringProperty("JMSXGroupID", "key-" + k);
                        m.setIntProperty("seq", seq);
                        p.send(m);
                    }
                }
                Map<String, List<Integer>> byKey = new HashMap<>();
                java.util.Set<Integer> partitions = new java.util.TreeSet<>();
                for (int i = 0; i < keys * perKey; i++) {
                    Message m = consumer.receive(30_000);
                    assertTrue(m != null, "message " + i + " of " + keys * perKey);
                    byKey.computeIfAbsent(m.getStringProperty("JMSXGroupID"), k -> new ArrayList<>())
                            .add(m.getIntProperty("seq"));
                    partitions.add(m.getIntProperty(org.partita.jms.api.PartitaProperties.PARTITION));
                }
                byKey.forEach((key, seqs) -> assertEquals(List.of(0, 1, 2), seqs, "order of " + key));
                // the 12 keys fall in all 6 partitions, two on each node
                assertEquals(java.util.Set.of(0, 1, 2, 3, 4, 5), partitions, "every node's partitions");
            }
        }
    }

    /**
     * A clustered queue keeps messages whole on its partitions' nodes: a large message (sent in parts)
     * has its body put back in by the node that took it when the whole fits that node's
     * {@code limits.messageBytes}, and is delivered whole on another node; a larger one is refused,
     * saying why, and no node keeps a body of either.
     */
    @Test
    void aLargeMessageToAClusteredQueueTravelsWholeWhenItFitsAndIsRefusedOtherwise() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3).startAll()) {
            String queue = "bulky?partitions=3&hosts=node1,node2,node3&replicas=1";
            byte[] fits = new byte[3 << 20];
            java.util.Arrays.fill(fits, (byte) 7);
            int tooLarge = c.node(0).config().limits().messageBytes() + (1 << 20);
            try (Connection producerConnection = c.factory(0).createConnection();
                    Connection consumerConnection = c.factory(2).createConnection()) {
                Session ps = producerConnection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer p = ps.createProducer(ps.createQueue(queue));
                for (int k = 0; k < 6; k++) {
                    jakarta.jms.BytesMessage m = ps.createBytesMessage();
                    m.writeBytes(fits);
                    m.setStringProperty("JMSXGroupID", "key-" + k); // the 6 keys fall on every node's partitions
                    p.send(m);
                }
                jakarta.jms.BytesMessage big = ps.createBytesMessage();
                big.writeBytes(new byte[tooLarge]);
                jakarta.jms.ResourceAllocationException refused = org.junit.jupiter.api.Assertions.assertThrows(
                        jakarta.jms.ResourceAllocationException.class, () -> p.send(big));
                assertTrue(refused.getMessage().contains("clustered queue bulky"), refused.getMessage());
                assertTrue(refused.getMessage().contains("limits.messageBytes"), refused.getMessage());

                consumerConnection.start();
                Session s = consumerConnection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageConsumer consumer = s.createConsumer(s.createQueue(queue));
                for (int i = 0; i < 6; i++) {
                    jakarta.jms.BytesMessage m = (jakarta.jms.BytesMessage) consumer.receive(30_000);
                    assertTrue(m != null, "message " + i + " of 6");
                    org.junit.jupiter.api.Assertions.assertArrayEquals(fits, m.getBody(byte[].class));
                    assertTrue(
                            !m.propertyExists(org.partita.jms.api.PartitaProperties.LARGE_BODY_BYTES),
                            "delivered as a whole message");
                }
                for (int i = 0; i < 3; i++) {
                    int node = i;
                    await().atMost(Duration.ofSeconds(20))
                            .until(() -> c.node(node).largeBodies().count() == 0);
                }
            }
        }
    }

    /**
     * An option other than the layout, changed through PartitaAdmin on node2, is agreed and applied
     * by all three nodes; the JMX attribute {@code ClusterStatus} of a node shows the cluster.
     */
    @Test
    void anOptionChangedOnNode2IsAppliedOnEveryNodeAndJmxShowsTheCluster() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3).startAll()) {
            try (org.partita.jms.api.PartitaAdmin admin = org.partita.jms.api.PartitaAdmin.connect(c.factory(1))) {
                admin.updateQueue("plant", Map.of("partitions", "6", "hosts", "*", "replicas", "1"));
                assertEquals(
                        "5",
                        admin.updateQueue("plant", Map.of("maxDepthMessages", "5"))
                                .get("maxDepthMessages"));
            }
            for (int i = 0; i < 3; i++) {
                int node = i;
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    try (org.partita.jms.api.PartitaAdmin admin =
                            org.partita.jms.api.PartitaAdmin.connect(c.factory(node))) {
                        Map<String, String> options = admin.queueOptions("plant");
                        assertEquals("5", options.get("maxDepthMessages"), "node" + (node + 1) + ": " + options);
                        assertEquals("6", options.get("partitions"), "node" + (node + 1) + ": " + options);
                    }
                });
            }

            javax.management.MBeanServer server = java.lang.management.ManagementFactory.getPlatformMBeanServer();
            javax.management.ObjectName name = new javax.management.ObjectName(
                    "org.partita:type=Node,name=" + javax.management.ObjectName.quote("node3"));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                List<String> lines = List.of((String[]) server.getAttribute(name, "ClusterStatus"));
                assertTrue(lines.contains("cluster=test"), lines.toString());
                assertTrue(lines.contains("node=node3"), lines.toString());
                assertTrue(lines.stream().anyMatch(l -> l.startsWith("member.node1=up ")), lines.toString());
                assertTrue(lines.stream().anyMatch(l -> l.startsWith("member.node2=up ")), lines.toString());
                assertTrue(lines.stream().anyMatch(l -> l.startsWith("member.node3=self ")), lines.toString());
                assertTrue(lines.contains("queue.plant.partition.4.host=node2"), lines.toString());
                assertTrue(lines.contains("queue.plant.partition.5.host=node3"), lines.toString());
                assertTrue(lines.contains("queue.plant.partition.5.depth=0"), lines.toString());
                assertTrue(
                        lines.stream()
                                .anyMatch(
                                        l -> l.startsWith("queue.plant.options=") && l.contains("maxDepthMessages=5")),
                        lines.toString());
            });
        }
    }

    /**
     * A node that restarts after a crash forwards again what its log still holds, and may repeat a
     * message the hosting node already stored: the hosting node takes each forwarded message id once.
     */
    @Test
    void aForwardRepeatedByANodeIsStoredOnce() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 2).startAll()) {
            org.partita.jms.transport.NettyBrokerConnection link = plantLinkToNode2(c);
            try {
                byte[] first = message("ID:forwarded-1");
                link.forward("plant", null, 0, first).get(5, java.util.concurrent.TimeUnit.SECONDS);
                link.forward("plant", null, 1, first)
                        .get(5, java.util.concurrent.TimeUnit.SECONDS); // again after a crash
                link.forward("plant", null, 0, first).get(5, java.util.concurrent.TimeUnit.SECONDS);
                link.forward("plant", null, 0, message("ID:forwarded-2")).get(5, java.util.concurrent.TimeUnit.SECONDS);
            } finally {
                link.abort();
            }
            assertEquals(2, c.node(1).broker().existingQueue("plant").depth(), "each forwarded message id stored once");
        }
    }

    /**
     * A node that applied a layout change before another forwards by the new layout at once: the
     * other node, whose layout does not host that partition yet, refuses the forward (the sender keeps
     * it and tries again) instead of storing it where no consumer is ever served it.
     */
    @Test
    void aForwardForAPartitionTheNodeDoesNotHostIsRefusedAndNotStored() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 2).startAll()) {
            org.partita.jms.transport.NettyBrokerConnection link = plantLinkToNode2(c);
            try {
                assertRefused(
                        link,
                        null,
                        message("ID:keyed-elsewhere", keyOn(0)),
                        "no partition for this message on node node2");
                link.forward("plant", null, 0, message("ID:keyed-here", keyOn(1)))
                        .get(5, java.util.concurrent.TimeUnit.SECONDS);
            } finally {
                link.abort();
            }
            assertEquals(
                    1,
                    c.node(1).broker().existingQueue("plant").depth(),
                    "only the message of node2's partition stored");
        }
    }

    /**
     * A forward says the layout its sender routed it by. A node on another layout refuses it, storing
     * nothing, even when its own layout hosts the partition the message falls in: the sender applied
     * a change first, and stored here the message would sit in a partition of the old layout that no
     * one serves once this node applies the change too (a confirmed message lost to its consumers).
     */
    @Test
    void aForwardRoutedByAnotherLayoutIsRefusedEvenWhenTheMessagesPartitionIsHostedHere() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 2).startAll()) {
            org.partita.jms.transport.NettyBrokerConnection link = plantLinkToNode2(c);
            String layout = c.node(1).cluster().layoutOf("plant");
            assertEquals(layout, c.node(0).cluster().layoutOf("plant"), "both nodes applied the same definition");
            try {
                assertRefused(
                        link,
                        "4 partitions on node1,node2, 1 replicas, 2 leaders",
                        message("ID:newer-layout", keyOn(1)),
                        "not as the sender routed the message");
                link.forward("plant", layout, 0, message("ID:same-layout", keyOn(1)))
                        .get(5, java.util.concurrent.TimeUnit.SECONDS);
            } finally {
                link.abort();
            }
            assertEquals(
                    List.of("ID:same-layout"),
                    c
                            .node(1)
                            .broker()
                            .existingQueue("plant")
                            .browse(org.partita.protocol.selector.Selector.matchAll())
                            .get(5, java.util.concurrent.TimeUnit.SECONDS)
                            .stream()
                            .map(m -> m.wire().messageId())
                            .toList(),
                    "only the message routed by node2's own layout stored");
        }
    }

    /**
     * A consumer on node1 (client-acknowledged, or transacted) receives a message of node2's
     * partition, then closes: its session still owns the message (JMS), so acknowledging or committing
     * it afterwards works and it is not redelivered; the session node1 opened on node2 for that
     * consumer ends once nothing is left.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "transacted: {0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void aMessageFromAnotherNodeIsStillSettledAfterItsConsumerClosed(boolean transacted) throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 2).startAll()) {
            try (org.partita.jms.api.PartitaAdmin admin = org.partita.jms.api.PartitaAdmin.connect(c.factory(0))) {
                admin.updateQueue("plant", Map.of("partitions", "2", "hosts", "node1,node2", "replicas", "1"));
            }
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> c.node(1).broker().existingQueue("plant") != null);
            try (Connection in = c.factory(0).createConnection();
                    Connection out = c.factory(1).createConnection();
                    org.partita.jms.api.PartitaAdmin onNode2 = org.partita.jms.api.PartitaAdmin.connect(c.factory(1))) {
                Session ps = out.createSession(false, Session.AUTO_ACKNOWLEDGE);
                TextMessage sent = ps.createTextMessage("from node2's partition");
                sent.setStringProperty("JMSXGroupID", keyOn(1));
                ps.createProducer(ps.createQueue("plant")).send(sent);
                int before = linkSessions(onNode2);
                Session s = transacted
                        ? in.createSession(true, Session.SESSION_TRANSACTED)
                        : in.createSession(false, Session.CLIENT_ACKNOWLEDGE);
                MessageConsumer consumer = s.createConsumer(s.createQueue("plant"));
                in.start();
                Message m = consumer.receive(10_000);
                org.junit.jupiter.api.Assertions.assertNotNull(m);
                assertEquals(before + 1, linkSessions(onNode2), "node1 opened a session on node2 for the consumer");
                consumer.close();
                if (transacted) {
                    s.commit(); // the session still owns it
                } else {
                    m.acknowledge();
                }
                await().atMost(Duration.ofSeconds(10)).until(() -> linkSessions(onNode2) == before);
                MessageConsumer again = s.createConsumer(s.createQueue("plant"));
                org.junit.jupiter.api.Assertions.assertNull(again.receive(1_000), "acknowledged, so not redelivered");
            }
        }
    }

    /** A forward to {@code plant} on node2 refused, storing nothing, with an answer that contains {@code why}. */
    private static void assertRefused(
            org.partita.jms.transport.NettyBrokerConnection link, String layout, byte[] message, String why) {
        java.util.concurrent.ExecutionException refused = org.junit.jupiter.api.Assertions.assertThrows(
                java.util.concurrent.ExecutionException.class,
                () -> link.forward("plant", layout, 0, message).get(5, java.util.concurrent.TimeUnit.SECONDS));
        assertTrue(
                String.valueOf(refused.getCause().getMessage()).contains(why),
                refused.getCause().toString());
    }

    /** Sessions node1's links hold open on node2. */
    private static int linkSessions(org.partita.jms.api.PartitaAdmin node2) throws Exception {
        int n = 0;
        for (Map<String, String> conn : node2.connections()) {
            if ("$node:node1".equals(conn.get("user"))) {
                n += Integer.parseInt(conn.get("sessions"));
            }
        }
        return n;
    }

    /** Defines {@code plant} over both nodes (partition 0 on node1, 1 on node2), and links to node2 as node1 does. */
    private static org.partita.jms.transport.NettyBrokerConnection plantLinkToNode2(EmbeddedCluster c)
            throws Exception {
        try (org.partita.jms.api.PartitaAdmin admin = org.partita.jms.api.PartitaAdmin.connect(c.factory(0))) {
            admin.updateQueue("plant", Map.of("partitions", "2", "hosts", "node1,node2", "replicas", "1"));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> c.node(1).broker().existingQueue("plant") != null);
        org.partita.jms.transport.NettyBrokerConnection link = org.partita.jms.transport.NettyBrokerConnection.connect(
                "127.0.0.1", c.config().members().get(1).port(), c.config(1).maxFrameSize(), 5_000);
        try {
            link.open("$node:node1", "", null).get(5, java.util.concurrent.TimeUnit.SECONDS);
        } catch (Exception e) {
            link.abort();
            throw e;
        }
        return link;
    }

    private static String keyOn(int partition) {
        for (int i = 0; ; i++) {
            if (org.partita.protocol.PartitionKeys.partition("k" + i, 2) == partition) {
                return "k" + i;
            }
        }
    }

    private static byte[] message(String id) {
        return message(id, null);
    }

    private static byte[] message(String id, String key) {
        return org.partita.protocol.MessageCodec.encode(new org.partita.protocol.WireMessage(
                id,
                System.currentTimeMillis(),
                null,
                null,
                "queue:plant",
                null,
                org.partita.protocol.WireMessage.PERSISTENT,
                4,
                0,
                0,
                key == null ? Map.of() : Map.of("JMSXGroupID", key),
                org.partita.protocol.WireMessage.BODY_TEXT,
                "state".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }
}
