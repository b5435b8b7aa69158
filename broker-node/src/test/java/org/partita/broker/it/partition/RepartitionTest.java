package org.partita.broker.it.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.broker.it.NodeExtension;
import org.partita.jms.api.PartitaAdmin;

/** Changing the partition count of a live queue never breaks a key's order. */
@Tag("slow")
class RepartitionTest {
    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    @Test
    void keysMoveToTheirNewPartitionOnlyOnceTheirOldMessagesAreAcknowledged() throws Exception {
        try (Connection c = node.factory().createConnection();
                PartitaAdmin admin = PartitaAdmin.connect(node.factory())) {
            admin.updateQueue("resize", Map.of("partitions", "2", "rebalanceDelay", "100"));
            Session producerSession = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = producerSession.createProducer(producerSession.createQueue("resize"));
            Map<String, Integer> sent = new HashMap<>();
            send(producerSession, p, sent, 6, 20);

            Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            // capacity 60: the node holds back everything beyond what the consumer holds unacknowledged
            MessageConsumer consumer = s.createConsumer(s.createQueue("resize?capacity=60"));
            c.start();
            Map<String, Integer> next = new HashMap<>();
            for (int i = 0; i < 60; i++) { // take half, unacknowledged, then resize
                receiveInOrder(consumer, next);
            }
            admin.updateQueue("resize", Map.of("partitions", "5"));
            send(producerSession, p, sent, 6, 20);
            // Everything of the old layout comes back; the keys' newer messages, already in the new
            // layout, must still wait for them.
            s.recover();
            next.clear();
            for (int i = 0; i < 240; i++) {
                receiveInOrder(consumer, next).acknowledge();
            }
            assertEquals(sent, next, "every message of every key, in order");
            assertEquals(5, admin.partitions("resize").size());
        }
    }

    @Test
    void messagesHandedBackFromTheOldLayoutStillComeBeforeTheKeysNewerMessages() throws Exception {
        try (Connection producer = node.factory().createConnection();
                Connection b = node.factory().createConnection();
                PartitaAdmin admin = PartitaAdmin.connect(node.factory())) {
            admin.updateQueue("resize2", Map.of("partitions", "2", "rebalanceDelay", "100"));
            Session ps = producer.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = ps.createProducer(ps.createQueue("resize2"));
            Map<String, Integer> sent = new HashMap<>();
            send(ps, p, sent, 6, 10);
            Session sb = b.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageConsumer cb;
            try (Connection a = node.factory().createConnection()) {
                Session sa = a.createSession(false, Session.CLIENT_ACKNOWLEDGE);
                MessageConsumer ca = sa.createConsumer(sa.createQueue("resize2"));
                a.start();
                Map<String, Integer> seenByA = new HashMap<>();
                for (int i = 0; i < 60; i++) {
                    receiveInOrder(ca, seenByA); // A owns everything and holds it unacknowledged
                }
                admin.updateQueue("resize2", Map.of("partitions", "3"));
                send(ps, p, sent, 6, 10);
                // B joins (stopped: what it is given waits in its buffer, in arrival order) and, after
                // the rebalance, owns a partition of the new layout.
                cb = sb.createConsumer(sb.createQueue("resize2"));
                org.awaitility.Awaitility.await()
                        .atMost(java.time.Duration.ofSeconds(10))
                        .until(() -> admin.partitions("resize2").stream()
                                        .map(PartitaAdmin.Partition::owner)
                                        .filter(java.util.Objects::nonNull)
                                        .distinct()
                                        .count()
                                == 2);
            } // A goes away: its 60 come back into the old layout, and its partitions go to B
            b.start();
            Map<String, Integer> next = new HashMap<>();
            for (int i = 0; i < 120; i++) {
                receiveInOrder(cb, next).acknowledge();
            }
            assertEquals(sent, next);
        }
    }

    private static void send(Session s, MessageProducer p, Map<String, Integer> sent, int keys, int perKey)
            throws Exception {
        for (int i = 0; i < perKey; i++) {
            for (int k = 0; k < keys; k++) {
                String key = "key-" + k;
                Message m = s.createTextMessage("x");
                m.setStringProperty("JMSXGroupID", key);
                int seq = sent.merge(key, 1, Integer::sum) - 1;
                m.setIntProperty("seq", seq);
                p.send(m);
            }
        }
        sent.replaceAll((k, v) -> v);
    }

    private static Message receiveInOrder(MessageConsumer consumer, Map<String, Integer> next) throws Exception {
        Message m = consumer.receive(5000);
        assertNotNull(m, "no key may stall across the change");
        String key = m.getStringProperty("JMSXGroupID");
        int expected = next.getOrDefault(key, 0);
        assertEquals(expected, m.getIntProperty("seq"), "order of " + key);
        next.put(key, expected + 1);
        return m;
    }
}
