package org.partita.broker.it.cluster;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.jms.api.PartitaConsumer;
import org.partita.protocol.PartitionKeys;

/**
 * Who consumes which partition of a clustered queue, and what happens while a hosting node is down:
 * no partition is stranded while a consumer exists anywhere (unless localOnly), and a keyed message
 * for a node that is down waits in the sender's store-and-forward log, then arrives in order.
 */
@Tag("slow")
@Timeout(180)
class ClusterTopologyTest {
    @TempDir
    Path tmp;

    private static String keyOn(int partition, int partitions, int n) {
        int found = 0;
        for (int i = 0; ; i++) {
            if (PartitionKeys.partition("k" + i, partitions) == partition && found++ == n) {
                return "k" + i;
            }
        }
    }

    private static void send(Session s, String queue, String key, String text) throws Exception {
        MessageProducer p = s.createProducer(s.createQueue(queue));
        TextMessage m = s.createTextMessage(text);
        if (key != null) {
            m.setStringProperty("JMSXGroupID", key);
        }
        p.send(m);
        p.close();
    }

    @Test
    void aLoneConsumerOnOneNodeIsGivenEveryPartitionOfTheCluster() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3).startAll();
                Connection consumerConnection = c.factory(0).createConnection();
                Connection producerConnection = c.factory(2).createConnection()) {
            Session cs = consumerConnection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = cs.createConsumer(cs.createQueue("spread?partitions=3&hosts=*&replicas=1"));
            consumerConnection.start();
            await().atMost(Duration.ofSeconds(20))
                    .until(() ->
                            ((PartitaConsumer) consumer).getOwnedPartitions().equals(Set.of(0, 1, 2)));
            Session ps = producerConnection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            for (int p = 0; p < 3; p++) {
                send(ps, "spread", keyOn(p, 3, 0), "to partition " + p);
            }
            List<String> got = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Message m = consumer.receive(10_000);
                assertNotNull(m, "message " + i + ": no partition is stranded");
                got.add(((TextMessage) m).getText());
                // forwarded to its partition's node, relayed to this one: still a first delivery
                assertEquals(1, m.getIntProperty("JMSXDeliveryCount"), ((TextMessage) m).getText());
                assertFalse(m.getJMSRedelivered(), ((TextMessage) m).getText());
            }
            assertEquals(3, got.size());
        }
    }

    @Test
    void localOnlyLeavesAnotherNodesPartitionsToItsOwnConsumers() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3).startAll();
                Connection consumerConnection = c.factory(0).createConnection()) {
            Session cs = consumerConnection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer =
                    cs.createConsumer(cs.createQueue("local?partitions=3&hosts=*&replicas=1&localOnly=true"));
            consumerConnection.start();
            await().atMost(Duration.ofSeconds(20))
                    .until(() ->
                            ((PartitaConsumer) consumer).getOwnedPartitions().equals(Set.of(0)));
            Session ps = cs;
            send(ps, "local", keyOn(1, 3, 0), "hosted by node2");
            assertNull(consumer.receive(1_000), "with localOnly, node2's partition waits for a consumer of node2");
            try (Connection node2 = c.factory(1).createConnection()) {
                Session s2 = node2.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageConsumer local = s2.createConsumer(s2.createQueue("local"));
                node2.start();
                Message m = local.receive(10_000);
                assertNotNull(m, "node2's own consumer takes it");
                assertEquals("hosted by node2", ((TextMessage) m).getText());
            }
        }
    }

    @Test
    void keyedMessagesForANodeThatIsDownWaitAndArriveInOrderWhenItReturns() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3).startAll()) {
            String queue = "saf?partitions=3&hosts=*&replicas=1";
            String key = keyOn(1, 3, 0); // partition 1: hosted by node2
            try (Connection conn = c.factory(0).createConnection()) {
                Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                s.createProducer(s.createQueue(queue)).close(); // defines the queue everywhere
            }
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> c.node(1).broker().existingQueue("saf") != null);
            c.stop(1);
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> c.node(0).cluster().status().format().contains("member.node2=down"));
            try (Connection conn = c.factory(0).createConnection()) {
                Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                for (int i = 0; i < 50; i++) {
                    send(s, "saf", key, "m" + i); // confirmed once in node1's store-and-forward log
                }
            }
            assertTrue(
                    c.node(0).cluster().status().format().contains("queue.saf.forwardBacklog.node2=50"),
                    c.node(0).cluster().status().format());
            c.start(1);
            try (Connection conn = c.factory(1).createConnection()) {
                Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageConsumer consumer = s.createConsumer(s.createQueue("saf"));
                conn.start();
                Map<String, Integer> seen = new HashMap<>();
                for (int i = 0; i < 50; i++) {
                    Message m = consumer.receive(20_000);
                    assertNotNull(m, "message " + i + " arrives once node2 is back");
                    assertEquals("m" + i, ((TextMessage) m).getText(), "in order");
                    seen.merge(((TextMessage) m).getText(), 1, Integer::sum);
                }
                assertNull(consumer.receive(1_000), "each once");
            }
        }
    }

    @Test
    void aNodeDownForAMinuteGetsItsBacklogInOrderWhenItReturns() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3).startAll()) {
            String queue = "minute?partitions=3&hosts=*&replicas=1";
            try (Connection conn = c.factory(0).createConnection()) {
                conn.createSession()
                        .createProducer(conn.createSession().createQueue(queue))
                        .close();
            }
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> c.node(1).broker().existingQueue("minute") != null);
            c.stop(1);
            List<String> keys = List.of(keyOn(1, 3, 0), keyOn(1, 3, 1), keyOn(0, 3, 0));
            int sent = 0;
            long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            try (Connection conn = c.factory(0).createConnection()) {
                Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer p = s.createProducer(s.createQueue("minute"));
                while (System.nanoTime() < until) { // a steady trickle the whole minute node2 is down
                    for (String key : keys) {
                        TextMessage m = s.createTextMessage(key);
                        m.setStringProperty("JMSXGroupID", key);
                        m.setIntProperty("seq", sent / keys.size());
                        p.send(m);
                    }
                    sent += keys.size();
                    Thread.sleep(200); // the trickle's pace: a pause on purpose
                }
            }
            c.start(1);
            Map<String, Integer> next = new HashMap<>();
            try (Connection conn = c.factory(2).createConnection()) {
                Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageConsumer consumer = s.createConsumer(s.createQueue("minute"));
                conn.start();
                for (int i = 0; i < sent; i++) {
                    Message m = consumer.receive(30_000);
                    assertNotNull(m, "message " + i + " of " + sent);
                    String key = m.getStringProperty("JMSXGroupID");
                    int seq = m.getIntProperty("seq");
                    assertEquals(next.getOrDefault(key, 0), seq, "order of " + key);
                    next.put(key, seq + 1);
                }
            }
        }
    }

    @Test
    void aPlainNameUsedOnAnotherNodeRightAfterTheDefinitionIsTheClusteredQueue() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3).startAll();
                Connection a = c.factory(0).createConnection();
                Connection b = c.factory(1).createConnection()) {
            Session sa = a.createSession();
            MessageConsumer ca = sa.createConsumer(sa.createQueue("shared?partitions=8&hosts=*&replicas=1"));
            a.start();
            Session sb = b.createSession();
            MessageConsumer cb = sb.createConsumer(sb.createQueue("shared")); // at once, on node2
            b.start();
            // node1 and node2 keep their own partitions; node3's two go one to each
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> ((PartitaConsumer) ca).getOwnedPartitions().size() == 4
                            && ((PartitaConsumer) cb).getOwnedPartitions().size() == 4);
            assertTrue(((PartitaConsumer) cb).getOwnedPartitions().containsAll(Set.of(1, 4, 7)));
        }
    }

    @Test
    void consumersSpreadOverTheClusterOnePartitionEachWhenTheirNodesHostFewerOrMore() throws Exception {
        // 8 partitions: node1 hosts 3, node2 3, node3 2. Consumers 2, 3 and 3: node1 has a partition
        // more than consumers, node3 a consumer more than partitions. That consumer takes node1's
        // third partition, so every one of the 8 works on one, none idles while another holds two.
        int[] consumersPerNode = {2, 3, 3};
        List<Connection> connections = new ArrayList<>();
        List<MessageConsumer> consumers = new ArrayList<>();
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3).startAll()) {
            try {
                for (int n = 0; n < 3; n++) {
                    for (int i = 0; i < consumersPerNode[n]; i++) {
                        Connection conn = c.factory(n).createConnection();
                        connections.add(conn);
                        Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                        consumers.add(s.createConsumer(s.createQueue("work?partitions=8&hosts=*&replicas=1")));
                        conn.start();
                    }
                }
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    Set<Integer> all = new java.util.TreeSet<>();
                    for (MessageConsumer mc : consumers) {
                        Set<Integer> owned = ((PartitaConsumer) mc).getOwnedPartitions();
                        assertEquals(1, owned.size(), "partitions of each consumer: " + owned(consumers));
                        all.addAll(owned);
                    }
                    assertEquals(Set.of(0, 1, 2, 3, 4, 5, 6, 7), all);
                });
                try (Connection producer = c.factory(0).createConnection()) {
                    Session ps = producer.createSession(false, Session.AUTO_ACKNOWLEDGE);
                    for (int p = 0; p < 8; p++) {
                        send(ps, "work", keyOn(p, 8, 0), "to partition " + p);
                    }
                }
                for (MessageConsumer mc : consumers) {
                    Message m = mc.receive(10_000);
                    assertNotNull(m, "every consumer gets the message of its partition: " + owned(consumers));
                    assertEquals(
                            "to partition "
                                    + ((PartitaConsumer) mc)
                                            .getOwnedPartitions()
                                            .iterator()
                                            .next(),
                            ((TextMessage) m).getText());
                }
            } finally {
                for (Connection conn : connections) {
                    conn.close();
                }
            }
        }
    }

    private static List<Set<Integer>> owned(List<MessageConsumer> consumers) throws jakarta.jms.JMSException {
        List<Set<Integer>> out = new ArrayList<>();
        for (MessageConsumer mc : consumers) {
            out.add(((PartitaConsumer) mc).getOwnedPartitions());
        }
        return out;
    }
}
