package org.partita.broker.it.redelivery;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.Enumeration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.partita.broker.it.Absence;
import org.partita.broker.it.NodeExtension;
import org.partita.jms.api.PartitaAdmin;

/**
 * A message in a dead-letter or expiry queue says where it came from, how many deliveries it had
 * and why it is there (docs/reliability.md, "Dead letters"), keeps its JMS headers and JMSX
 * properties, and counts its deliveries afresh in its new queue.
 */
@Tag("slow")
class DeadLetterPropertiesTest {
    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    @ParameterizedTest
    @ValueSource(strings = {"poison", "poisonParts?partitions=4"})
    void aPoisonMessageReachesTheDeadLetterQueueSayingWhy(String queue) throws Exception {
        String name = queue.contains("?") ? queue.substring(0, queue.indexOf('?')) : queue;
        String messageId;
        long before;
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(true, Session.SESSION_TRANSACTED);
            TextMessage sent = s.createTextMessage("poison");
            sent.setStringProperty("JMSXGroupID", "m-001");
            sent.setIntProperty("seq", 7);
            s.createProducer(s.createQueue(queue + (queue.contains("?") ? "&" : "?") + "maxDeliveryAttempts=3"))
                    .send(sent, DeliveryMode.PERSISTENT, 6, 0);
            s.commit();
            messageId = sent.getJMSMessageID();
            MessageConsumer consumer = s.createConsumer(s.createQueue(name));
            c.start();
            before = System.currentTimeMillis();
            for (int i = 1; i <= 3; i++) {
                Message m = consumer.receive(5_000);
                assertNotNull(m, "delivery " + i);
                s.rollback();
            }
            Absence.awaitQueue(
                    c,
                    name,
                    "after 3 deliveries it left the queue",
                    q -> q.depth() == 0 && q.inFlight() == 0 && q.deadLettered() == 1);
        }
        long after = System.currentTimeMillis();
        node.restart(); // the properties are stored with the dead letter
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(true, Session.SESSION_TRANSACTED);
            // selectors see the properties: a consumer can take one queue's dead letters
            MessageConsumer dlq =
                    s.createConsumer(s.createQueue("DLQ"), "JMS_PARTITA_OriginalDestination = '" + name + "'");
            c.start();
            TextMessage dead = (TextMessage) dlq.receive(5_000);
            assertNotNull(dead, "dead-lettered");
            assertEquals(name, dead.getStringProperty("JMS_PARTITA_OriginalDestination"));
            assertEquals(3, dead.getIntProperty("JMS_PARTITA_DeliveryCount"));
            assertEquals("maxDeliveryAttempts 3 reached", dead.getStringProperty("JMS_PARTITA_DeadLetterReason"));
            long at = dead.getLongProperty("JMS_PARTITA_DeadLetteredAt");
            assertTrue(at >= before && at <= after, "dead-lettered at " + at + ", between " + before + " and " + after);
            // the message itself is as it was sent
            assertEquals("poison", dead.getText());
            assertEquals(messageId, dead.getJMSMessageID());
            assertEquals(name, ((Queue) dead.getJMSDestination()).getQueueName().replaceAll("\\?.*", ""));
            assertEquals("m-001", dead.getStringProperty("JMSXGroupID"));
            assertEquals(7, dead.getIntProperty("seq"));
            assertEquals(6, dead.getJMSPriority());
            // its first delivery from the dead-letter queue is delivery 1 of that queue
            assertEquals(1, dead.getIntProperty("JMSXDeliveryCount"));
            assertFalse(dead.getJMSRedelivered());
            s.rollback();
            Message again = dlq.receive(5_000);
            assertEquals(2, again.getIntProperty("JMSXDeliveryCount"));
            assertTrue(again.getJMSRedelivered());
            assertEquals(3, again.getIntProperty("JMS_PARTITA_DeliveryCount"), "the count it had where it failed");
            s.commit();
        }
    }

    /**
     * A fan-out queue stores a message once for all its AppIds: the dead letter of one AppId is a
     * copy, the other AppId's message is untouched, and moving the dead letter back returns it to the
     * AppId queue it failed in.
     */
    @Test
    void aDeadLetterOfOneAppIdLeavesTheOthersMessageAloneAndMovesBackToItsAppId() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            s.createProducer(s.createQueue("events?mode=fanout&appIds=billing,audit&maxDeliveryAttempts=1"))
                    .send(s.createTextMessage("invoice"));
            MessageConsumer billing = s.createConsumer(s.createQueue("events?appId=billing"));
            c.start();
            assertNotNull(billing.receive(5_000));
            s.recover(); // its one attempt spent: to the dead-letter queue
            Message audited =
                    s.createConsumer(s.createQueue("events?appId=audit")).receive(5_000);
            assertEquals("invoice", ((TextMessage) audited).getText());
            assertFalse(audited.propertyExists("JMS_PARTITA_DeadLetterReason"), "the shared payload is not changed");
            audited.acknowledge();
            Message dead = browseOne(s, "DLQ");
            assertEquals("events#billing", dead.getStringProperty("JMS_PARTITA_OriginalDestination"));
            assertEquals(1, dead.getIntProperty("JMS_PARTITA_DeliveryCount"));

            PartitaAdmin.Moved moved = PartitaAdmin.on(c).moveMessages("DLQ", null, List.of());
            assertEquals(new PartitaAdmin.Moved(1, 0), moved, "back to the AppId queue named in the message");
            Message back = billing.receive(5_000);
            assertEquals("invoice", ((TextMessage) back).getText());
            assertEquals(1, back.getIntProperty("JMSXDeliveryCount"), "a moved message starts afresh");
            back.acknowledge();
        }
    }

    @Test
    void anExpiredMessageInTheExpiryQueueSaysItExpired() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("perish?expiryQueue=spoiled"));
            p.send(s.createTextMessage("milk"), DeliveryMode.PERSISTENT, 4, 100);
            long sentAt = System.currentTimeMillis();
            await().atMost(Duration.ofSeconds(5)).until(() -> System.currentTimeMillis() > sentAt + 150);
            c.start();
            Absence.assertNothingAhead(
                    s, s.createQueue("perish"), s.createConsumer(s.createQueue("perish")), "it expired");
            Message expired = s.createConsumer(s.createQueue("spoiled")).receive(5_000);
            assertNotNull(expired);
            assertEquals("perish", expired.getStringProperty("JMS_PARTITA_OriginalDestination"));
            assertEquals("expired", expired.getStringProperty("JMS_PARTITA_DeadLetterReason"));
            assertEquals(0, expired.getIntProperty("JMS_PARTITA_DeliveryCount"));
            assertTrue(expired.getJMSExpiration() > 0, "JMSExpiration is kept");
        }
    }

    private static Message browseOne(Session s, String queue) throws Exception {
        Message[] found = new Message[1];
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            try (jakarta.jms.QueueBrowser b = s.createBrowser(s.createQueue(queue))) {
                Enumeration<?> e = b.getEnumeration();
                found[0] = e.hasMoreElements() ? (Message) e.nextElement() : null;
            }
            return found[0] != null;
        });
        return found[0];
    }
}
