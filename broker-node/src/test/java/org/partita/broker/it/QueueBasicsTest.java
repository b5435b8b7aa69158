package org.partita.broker.it;

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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

@Tag("slow")
class QueueBasicsTest {
    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    @Test
    void persistentAndNonPersistentMessagesArriveInOrder() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = s.createQueue("orders");
            MessageProducer p = s.createProducer(q);
            for (int i = 0; i < 10; i++) {
                p.setDeliveryMode(i % 2 == 0 ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT);
                p.send(s.createTextMessage("m" + i));
            }
            MessageConsumer consumer = s.createConsumer(q);
            for (int i = 0; i < 10; i++) {
                TextMessage m = (TextMessage) consumer.receive(5000);
                assertNotNull(m, "message " + i);
                assertEquals(
                        i % 2 == 0 ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT, m.getJMSDeliveryMode());
            }
            Absence.assertNothingAhead(s, q, consumer, "each message is delivered once");
        }
    }

    @Test
    void higherPriorityFirstThenArrival() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = s.createQueue("prio");
            MessageProducer p = s.createProducer(q);
            int[] priorities = {1, 9, 4, 9, 0};
            for (int i = 0; i < priorities.length; i++) {
                p.send(s.createTextMessage("m" + i), DeliveryMode.PERSISTENT, priorities[i], 0);
            }
            c.start();
            MessageConsumer consumer = s.createConsumer(q);
            String[] expected = {"m1", "m3", "m2", "m0", "m4"};
            for (String e : expected) {
                assertEquals(e, ((TextMessage) consumer.receive(5000)).getText());
            }
        }
    }

    @Test
    void unacknowledgedMessagesComeBackRedeliveredWhenSessionCloses() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            Queue q = s.createQueue("client-ack");
            s.createProducer(q).send(s.createTextMessage("hello"));
            Message first = s.createConsumer(q).receive(5000);
            assertNotNull(first);
            assertFalse(first.getJMSRedelivered());
            assertEquals(1, first.getIntProperty("JMSXDeliveryCount"));
            s.close();

            Session s2 = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            Message again = s2.createConsumer(q).receive(5000);
            assertNotNull(again);
            assertTrue(again.getJMSRedelivered());
            assertEquals(2, again.getIntProperty("JMSXDeliveryCount"));
            again.acknowledge();
            s2.close();

            Session s3 = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Absence.assertNothingAhead(s3, q, s3.createConsumer(q), "the acknowledged message does not come back");
        }
    }

    @Test
    void transactedSendsAndReceivesCommitAndRollBack() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            c.start();
            Session tx = c.createSession(true, Session.SESSION_TRANSACTED);
            Queue q = tx.createQueue("tx");
            MessageProducer p = tx.createProducer(q);
            p.send(tx.createTextMessage("a"));
            p.send(tx.createTextMessage("b"));
            Session plain = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer watcher = plain.createConsumer(q);
            Absence.assertNothingAhead(plain, q, watcher, "uncommitted sends are invisible");
            watcher.close();
            tx.commit();

            MessageConsumer consumer = tx.createConsumer(q);
            assertEquals("a", ((TextMessage) consumer.receive(5000)).getText());
            tx.rollback();
            TextMessage again = (TextMessage) consumer.receive(5000);
            assertEquals("a", again.getText());
            assertTrue(again.getJMSRedelivered());
            assertEquals("b", ((TextMessage) consumer.receive(5000)).getText());
            tx.commit();
            Absence.assertNothingAhead(tx, q, consumer, "committed receives are gone");
            tx.commit();
        }
    }
}
