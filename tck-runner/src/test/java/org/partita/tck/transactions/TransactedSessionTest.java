package org.partita.tck.transactions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.partita.tck.support.TckTest;

/** Jakarta Messaging 3.1, section 6.2.7: local transactions of a transacted session. */
class TransactedSessionTest extends TckTest {

    private Session transacted(Connection c) throws JMSException {
        return c.createSession(Session.SESSION_TRANSACTED);
    }

    @Test
    @DisplayName("6.2.7: messages sent in a transaction are not delivered before commit")
    void sendsInvisibleUntilCommit() throws JMSException {
        Queue q = queue();
        Session tx = transacted(connection());
        MessageProducer p = tx.createProducer(q);
        p.send(tx.createTextMessage("one"));
        p.send(tx.createTextMessage("two"));
        MessageConsumer reader = session().createConsumer(q);
        assertNoMessage(reader);
        tx.commit();
        assertEquals(List.of("one", "two"), receiveTexts(reader, 2));
    }

    @Test
    @DisplayName("6.2.7: rollback destroys the messages sent in the transaction")
    void rollbackDiscardsSends() throws JMSException {
        Queue q = queue();
        Session tx = transacted(connection());
        MessageProducer p = tx.createProducer(q);
        p.send(tx.createTextMessage("discarded"));
        tx.rollback();
        p.send(tx.createTextMessage("kept"));
        tx.commit();
        MessageConsumer reader = session().createConsumer(q);
        assertReceivesText(reader, "kept");
        assertNoMessage(reader);
    }

    @Test
    @DisplayName("6.2.7: rollback recovers consumed messages, redelivered with JMSRedelivered and an "
            + "incremented JMSXDeliveryCount")
    void rollbackRedeliversReceives() throws JMSException {
        Queue q = queue();
        send(q, "again");
        Session tx = transacted(startedConnection());
        MessageConsumer consumer = tx.createConsumer(q);
        Message first = receive(consumer);
        assertEquals(1, first.getIntProperty("JMSXDeliveryCount"));
        tx.rollback();
        Message second = receive(consumer);
        assertEquals("again", ((TextMessage) second).getText());
        assertTrue(second.getJMSRedelivered());
        assertEquals(2, second.getIntProperty("JMSXDeliveryCount"));
        tx.commit();
    }

    @Test
    @DisplayName("6.2.7: commit acknowledges the consumed messages: they are not delivered again")
    void commitAcknowledgesReceives() throws JMSException {
        Queue q = queue();
        send(q, "consumed");
        Connection c = startedConnection();
        Session tx = transacted(c);
        assertReceivesText(tx.createConsumer(q), "consumed");
        tx.commit();
        tx.close();
        assertNoMessage(c.createSession().createConsumer(q));
    }

    @Test
    @DisplayName("6.2.7: receives and sends in one transaction commit together")
    void receiveAndSendCommitTogether() throws JMSException {
        Queue in = queue("in");
        Queue out = queue("out");
        send(in, "work");
        Connection c = startedConnection();
        Session tx = transacted(c);
        String work = receiveText(tx.createConsumer(in));
        tx.createProducer(out).send(tx.createTextMessage(work + " done"));
        tx.commit();
        Session reader = c.createSession();
        assertReceivesText(reader.createConsumer(out), "work done");
        assertNoMessage(reader.createConsumer(in));
    }

    @Test
    @DisplayName("6.2.7: receives and sends in one transaction roll back together")
    void receiveAndSendRollBackTogether() throws JMSException {
        Queue in = queue("in");
        Queue out = queue("out");
        send(in, "work");
        Connection c = startedConnection();
        Session tx = transacted(c);
        MessageConsumer consumer = tx.createConsumer(in);
        String work = receiveText(consumer);
        tx.createProducer(out).send(tx.createTextMessage(work + " done"));
        tx.rollback();
        consumer.close();
        Session reader = c.createSession();
        assertNoMessage(reader.createConsumer(out));
        assertReceivesText(reader.createConsumer(in), "work");
    }

    @Test
    @DisplayName("6.2.7: finishing a transaction begins the next: successive commits each deliver their own sends")
    void successiveTransactions() throws JMSException {
        Queue q = queue();
        Session tx = transacted(connection());
        MessageProducer p = tx.createProducer(q);
        MessageConsumer reader = session().createConsumer(q);
        for (int i = 0; i < 3; i++) {
            p.send(tx.createTextMessage("batch" + i));
            tx.commit();
            assertReceivesText(reader, "batch" + i);
        }
        p.send(tx.createTextMessage("rolled back"));
        tx.rollback();
        assertNoMessage(reader);
    }

    @Test
    @DisplayName("6.2.9.2: the order of a transaction's messages to one destination is kept")
    void orderWithinTransaction() throws JMSException {
        Queue q = queue();
        Session tx = transacted(connection());
        MessageProducer p = tx.createProducer(q);
        for (String t : texts(20)) {
            p.send(tx.createTextMessage(t));
        }
        tx.commit();
        assertEquals(List.of(texts(20)), receiveTexts(session().createConsumer(q), 20));
    }

    @Test
    @DisplayName("6.2.7: redelivered messages come back in their original order after rollback")
    void rollbackKeepsOrder() throws JMSException {
        Queue q = queue();
        send(q, texts(5));
        Session tx = transacted(startedConnection());
        MessageConsumer consumer = tx.createConsumer(q);
        assertEquals(List.of(texts(5)), receiveTexts(consumer, 5));
        tx.rollback();
        assertEquals(List.of(texts(5)), receiveTexts(consumer, 5));
        tx.commit();
    }

    @Test
    @DisplayName("6.2.7: a rollback covers the messages of every consumer of the session")
    void rollbackCoversAllConsumers() throws JMSException {
        Queue q1 = queue("a");
        Queue q2 = queue("b");
        send(q1, "from a");
        send(q2, "from b");
        Session tx = transacted(startedConnection());
        MessageConsumer c1 = tx.createConsumer(q1);
        MessageConsumer c2 = tx.createConsumer(q2);
        assertReceivesText(c1, "from a");
        assertReceivesText(c2, "from b");
        tx.rollback();
        assertTrue(receive(c1).getJMSRedelivered());
        assertTrue(receive(c2).getJMSRedelivered());
        tx.commit();
    }

    @Test
    @DisplayName("6.2.7 / 3.6: acknowledge() is ignored in a transacted session; rollback still redelivers")
    void acknowledgeIgnoredInTransaction() throws JMSException {
        Queue q = queue();
        send(q, "x");
        Session tx = transacted(startedConnection());
        MessageConsumer consumer = tx.createConsumer(q);
        receive(consumer).acknowledge();
        tx.rollback();
        assertTrue(receive(consumer).getJMSRedelivered());
        tx.commit();
    }

    @Test
    @DisplayName("6.2.7: a transacted session publishes to a topic only on commit")
    void topicPublishOnCommit() throws JMSException {
        Topic t = topic();
        MessageConsumer sub = session().createConsumer(t);
        Session tx = transacted(connection());
        tx.createProducer(t).send(tx.createTextMessage("news"));
        assertNoMessage(sub);
        tx.commit();
        assertReceivesText(sub, "news");
    }

    @Test
    @DisplayName("6.2.7: a listener may commit its transacted session; committed messages are not redelivered")
    void commitFromListener() throws Exception {
        Queue q = queue();
        Connection c = startedConnection();
        Session tx = transacted(c);
        CountDownLatch done = new CountDownLatch(3);
        tx.createConsumer(q).setMessageListener(m -> {
            try {
                tx.commit();
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
            done.countDown();
        });
        send(q, texts(3));
        assertTrue(done.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS));
        tx.close();
        assertNoMessage(c.createSession().createConsumer(q));
    }

    @Test
    @DisplayName("6.2.7: a listener may roll back its transacted session; the message is redelivered")
    void rollbackFromListener() throws Exception {
        Queue q = queue();
        Session tx = transacted(startedConnection());
        CountDownLatch redelivered = new CountDownLatch(1);
        tx.createConsumer(q).setMessageListener(m -> {
            try {
                if (m.getJMSRedelivered()) {
                    tx.commit();
                    redelivered.countDown();
                } else {
                    tx.rollback();
                }
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
        });
        send(q, "retry");
        assertTrue(redelivered.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS));
    }

    @Test
    @DisplayName("10.3: commit on a non-transacted session throws IllegalStateException")
    void commitOnNonTransacted() throws JMSException {
        Session s = connection().createSession();
        assertThrows(IllegalStateException.class, s::commit);
    }

    @Test
    @DisplayName("Session.rollback: rollback on a non-transacted session throws IllegalStateException")
    void rollbackOnNonTransacted() throws JMSException {
        Session s = connection().createSession(Session.CLIENT_ACKNOWLEDGE);
        assertThrows(IllegalStateException.class, s::rollback);
    }

    @Test
    @DisplayName("Session.recover: recover on a transacted session throws IllegalStateException")
    void recoverOnTransacted() throws JMSException {
        Session tx = transacted(connection());
        assertThrows(IllegalStateException.class, tx::recover);
    }

    @Test
    @DisplayName("6.2.15: commit on a closed transacted session throws IllegalStateException")
    void commitOnClosedSession() throws JMSException {
        Session tx = transacted(connection());
        tx.close();
        assertThrows(IllegalStateException.class, tx::commit);
    }

    @Test
    @DisplayName("6.2.7: an empty transaction commits and rolls back without error")
    void emptyTransaction() throws JMSException {
        Session tx = transacted(connection());
        tx.commit();
        tx.rollback();
        tx.commit();
    }

    @Test
    @DisplayName("9.1: messages produced and consumed in transactions pass exactly once through a chain of queues")
    void exactlyOnceThroughChain() throws JMSException {
        Queue a = queue("a");
        Queue b = queue("b");
        send(a, texts(10));
        Connection c = startedConnection();
        Session tx = transacted(c);
        MessageConsumer fromA = tx.createConsumer(a);
        MessageProducer toB = tx.createProducer(b);
        for (int i = 0; i < 10; i++) {
            String t = receiveText(fromA);
            toB.send(tx.createTextMessage(t));
            if (i % 3 == 0) {
                tx.rollback();
                String again = receiveText(fromA);
                assertEquals(t, again);
                toB.send(tx.createTextMessage(again));
            }
            tx.commit();
        }
        MessageConsumer fromB = c.createSession().createConsumer(b);
        assertEquals(List.of(texts(10)), receiveTexts(fromB, 10));
        assertNoMessage(fromB);
    }
}
