package org.partita.broker.admin;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.broker.it.NodeExtension;
import org.partita.jms.api.PartitaAdmin;

/** Purging, moving dead letters back, and the listings of connections, subscriptions and the node. */
@Tag("slow")
@Timeout(60)
class AdminChangesTest {
    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    @Test
    void purgeRemovesWaitingMessagesAndTheyStayGoneAfterARestart() throws Exception {
        try (Connection c = node.factory().createConnection();
                PartitaAdmin admin = PartitaAdmin.on(c)) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("old"));
            for (int i = 0; i < 7; i++) {
                p.send(s.createTextMessage("x" + i));
            }
            assertEquals(7, admin.purgeQueue("old"));
            assertEquals(0, admin.queueStats("old").depth());
            assertThrows(InvalidDestinationException.class, () -> admin.purgeQueue("nope"));
        }
        node.restart();
        try (Connection c = node.factory().createConnection();
                PartitaAdmin admin = PartitaAdmin.on(c)) {
            assertEquals(0, admin.queueStats("old").depth());
        }
    }

    @Test
    void deadLettersGoBackToTheQueueTheyWereSentTo() throws Exception {
        try (Connection c = node.factory().createConnection();
                PartitaAdmin admin = PartitaAdmin.on(c)) {
            Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("work?maxDeliveryAttempts=1"));
            p.send(s.createTextMessage("poison"));
            p.send(s.createTextMessage("also poison"));
            c.start();
            MessageConsumer consumer = s.createConsumer(s.createQueue("work"));
            assertNotNull(consumer.receive(5000));
            assertNotNull(consumer.receive(5000));
            s.recover(); // both seen once: maxDeliveryAttempts=1 sends them to the DLQ
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> admin.queueStats("DLQ").depth() == 2);
            assertEquals(2, admin.queueStats("work").deadLettered());
            consumer.close();

            PartitaAdmin.Moved moved = admin.moveMessages("DLQ", null, List.of());
            assertEquals(2, moved.moved());
            assertEquals(0, moved.left());
            assertEquals(0, admin.queueStats("DLQ").depth());
            MessageConsumer again = s.createConsumer(s.createQueue("work"));
            Message back = again.receive(5000);
            assertNotNull(back, "the message is back in its queue");
            assertEquals(1, back.getIntProperty("JMSXDeliveryCount"), "moved back, it starts afresh");
            back.acknowledge();
        }
    }

    @Test
    void movingToAFanOutQueueOrAMissingQueueIsRefusedWithAClearMessage() throws Exception {
        try (Connection c = node.factory().createConnection();
                PartitaAdmin admin = PartitaAdmin.on(c)) {
            admin.updateQueue("events", Map.of("mode", "fanout", "appIds", "billing"));
            admin.updateQueue("DLQ", Map.of());
            JMSException fan = assertThrows(JMSException.class, () -> admin.moveMessages("DLQ", "events", List.of()));
            assertTrue(fan.getMessage().contains("events#billing"), fan.getMessage());
            assertThrows(InvalidDestinationException.class, () -> admin.moveMessages("DLQ", "nowhere", List.of()));
        }
    }

    @Test
    void connectionsSubscriptionsAndNodeStatusAreListed() throws Exception {
        try (Connection c = node.factory().createConnection();
                PartitaAdmin admin = PartitaAdmin.on(c)) {
            c.setClientID("lister");
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            s.createDurableSubscriber(s.createTopic("news/>"), "all-news");
            List<Map<String, String>> conns = admin.connections();
            assertEquals(1, conns.size(), conns.toString());
            assertEquals("lister", conns.get(0).get("clientId"));
            assertEquals("1", conns.get(0).get("sessions"));
            assertTrue(Long.parseLong(conns.get(0).get("bytesIn")) > 0, conns.toString());
            List<Map<String, String>> subs = admin.subscriptions();
            Map<String, String> sub = subs.stream()
                    .filter(m -> m.get("subscription").equals("durable:lister:all-news"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(subs.toString()));
            assertEquals("durable", sub.get("kind"));
            assertEquals("news/>", sub.get("topic"));
            assertEquals("1", sub.get("consumers"));
            Map<String, String> status = admin.nodeStatus();
            assertEquals("node1", status.get("node"));
            assertEquals("off", status.get("authentication"));
            assertEquals("1", status.get("connections"));
            assertTrue(Long.parseLong(status.get("storeBytes")) > 0, status.toString());
            assertNull(status.get("metricsPort"), "metrics are off: " + status);
        }
    }
}
