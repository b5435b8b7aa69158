package org.partita.tck.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.partita.tck.support.TckTest;

/** Jakarta Messaging 3.1, section 6.2: sessions. */
class SessionTest extends TckTest {

    @Test
    @DisplayName("6.2 / Connection.createSession(): no argument gives a non-transacted AUTO_ACKNOWLEDGE session")
    void defaultSession() throws JMSException {
        Session s = connection().createSession();
        assertFalse(s.getTransacted());
        assertEquals(Session.AUTO_ACKNOWLEDGE, s.getAcknowledgeMode());
    }

    @Test
    @DisplayName("6.2 / Connection.createSession(int): SESSION_TRANSACTED gives a transacted session")
    void transactedBySessionMode() throws JMSException {
        Session s = connection().createSession(Session.SESSION_TRANSACTED);
        assertTrue(s.getTransacted());
        assertEquals(Session.SESSION_TRANSACTED, s.getAcknowledgeMode());
    }

    @Test
    @DisplayName("6.2 / Connection.createSession(boolean, int): transacted=true ignores the acknowledge mode")
    void transactedIgnoresAckMode() throws JMSException {
        Session s = connection().createSession(true, Session.CLIENT_ACKNOWLEDGE);
        assertTrue(s.getTransacted());
        assertEquals(Session.SESSION_TRANSACTED, s.getAcknowledgeMode());
    }

    @Test
    @DisplayName("Session.setMessageListener / getMessageListener: null, the state of every session, can be set "
            + "and is what getMessageListener returns; the session stays usable")
    void nullSessionListener() throws JMSException {
        Queue q = queue();
        Session s = session();
        s.setMessageListener(null);
        assertNull(s.getMessageListener());
        s.createProducer(q).send(s.createTextMessage("still usable"));
        assertReceivesText(s.createConsumer(q), "still usable");
    }

    @Test
    @DisplayName("6.2.10: a CLIENT_ACKNOWLEDGE session reports its mode")
    void clientAcknowledgeMode() throws JMSException {
        Session s = connection().createSession(Session.CLIENT_ACKNOWLEDGE);
        assertFalse(s.getTransacted());
        assertEquals(Session.CLIENT_ACKNOWLEDGE, s.getAcknowledgeMode());
    }

    @Test
    @DisplayName("6.2.10: a DUPS_OK_ACKNOWLEDGE session reports its mode")
    void dupsOkAcknowledgeMode() throws JMSException {
        Session s = connection().createSession(false, Session.DUPS_OK_ACKNOWLEDGE);
        assertEquals(Session.DUPS_OK_ACKNOWLEDGE, s.getAcknowledgeMode());
    }

    @Test
    @DisplayName("6.2.4: the session's message factories create each message type")
    void messageFactories() throws JMSException {
        Session s = connection().createSession();
        assertInstanceOf(Message.class, s.createMessage());
        assertInstanceOf(TextMessage.class, s.createTextMessage());
        assertInstanceOf(BytesMessage.class, s.createBytesMessage());
        assertInstanceOf(MapMessage.class, s.createMapMessage());
        assertInstanceOf(ObjectMessage.class, s.createObjectMessage());
        assertInstanceOf(StreamMessage.class, s.createStreamMessage());
    }

    @Test
    @DisplayName("6.2.4: createTextMessage(String) and createObjectMessage(Serializable) set the body")
    void messageFactoriesWithBody() throws JMSException {
        Session s = connection().createSession();
        assertEquals("body", s.createTextMessage("body").getText());
        assertEquals(42, s.createObjectMessage(42).getObject());
    }

    @Test
    @DisplayName("6.2.4: a message created by one session may be sent by another session's producer")
    void sendMessageCreatedByAnotherSession() throws JMSException {
        Queue q = queue();
        Connection c = startedConnection();
        Session creator = c.createSession();
        Session sender = c.createSession();
        TextMessage m = creator.createTextMessage("made elsewhere");
        sender.createProducer(q).send(m);
        assertReceivesText(sender.createConsumer(q), "made elsewhere");
    }

    @Test
    @DisplayName("6.2.4: a message created on one connection may be sent on another connection")
    void sendMessageCreatedByAnotherConnection() throws JMSException {
        Queue q = queue();
        TextMessage m = connection().createSession().createTextMessage("from connection 1");
        Session other = session();
        other.createProducer(q).send(m);
        assertReceivesText(other.createConsumer(q), "from connection 1");
    }

    @Test
    @DisplayName("6.2.3: Session.createQueue names the same queue as the administered object of that name")
    void createQueueMatchesAdministeredQueue() throws JMSException {
        Queue administered = queue();
        send(administered, "via JNDI");
        Session s = session();
        Queue created = s.createQueue(administered.getQueueName());
        assertEquals(administered.getQueueName(), created.getQueueName());
        assertReceivesText(s.createConsumer(created), "via JNDI");
    }

    @Test
    @DisplayName("6.2.3: Session.createTopic names the same topic as the administered object of that name")
    void createTopicMatchesAdministeredTopic() throws JMSException {
        Topic administered = topic();
        Session s = session();
        Topic created = s.createTopic(administered.getTopicName());
        assertEquals(administered.getTopicName(), created.getTopicName());
        MessageConsumer sub = s.createConsumer(created);
        send(administered, "via JNDI");
        assertReceivesText(sub, "via JNDI");
    }

    @Test
    @DisplayName("6.2.15: closing a closed session does not throw")
    void closeTwice() throws JMSException {
        Session s = connection().createSession();
        s.close();
        s.close();
    }

    @Test
    @DisplayName("6.2.15: a closed session refuses to create producers (IllegalStateException)")
    void closedSessionRefusesProducer() throws JMSException {
        Session s = connection().createSession();
        s.close();
        assertThrows(IllegalStateException.class, () -> s.createProducer(queue()));
    }

    @Test
    @DisplayName("6.2.15: a closed session refuses to create consumers (IllegalStateException)")
    void closedSessionRefusesConsumer() throws JMSException {
        Session s = connection().createSession();
        s.close();
        assertThrows(IllegalStateException.class, () -> s.createConsumer(queue()));
    }

    @Test
    @DisplayName("6.2.15: a closed session refuses to create messages (IllegalStateException)")
    void closedSessionRefusesMessages() throws JMSException {
        Session s = connection().createSession();
        s.close();
        assertThrows(IllegalStateException.class, () -> s.createTextMessage("x"));
    }

    @Test
    @DisplayName("6.2.15: a closed session refuses getTransacted (IllegalStateException)")
    void closedSessionRefusesGetTransacted() throws JMSException {
        Session s = connection().createSession();
        s.close();
        assertThrows(IllegalStateException.class, s::getTransacted);
    }

    @Test
    @DisplayName("6.2.15: producers of a closed session throw IllegalStateException")
    void producerOfClosedSession() throws JMSException {
        Session s = connection().createSession();
        MessageProducer p = s.createProducer(queue());
        TextMessage m = s.createTextMessage("x");
        s.close();
        assertThrows(IllegalStateException.class, () -> p.send(m));
    }

    @Test
    @DisplayName("6.2.15: consumers of a closed session throw IllegalStateException")
    void consumerOfClosedSession() throws JMSException {
        Session s = startedConnection().createSession();
        MessageConsumer consumer = s.createConsumer(queue());
        s.close();
        assertThrows(IllegalStateException.class, consumer::receiveNoWait);
    }

    @Test
    @DisplayName("6.2.15: closing a transacted session rolls back its uncommitted sends")
    void closeTransactedSessionRollsBackSends() throws JMSException {
        Queue q = queue();
        Session s = connection().createSession(Session.SESSION_TRANSACTED);
        s.createProducer(q).send(s.createTextMessage("uncommitted"));
        s.close();
        assertNoMessage(session().createConsumer(q));
    }

    @Test
    @DisplayName("6.2.15: closing a transacted session rolls back its uncommitted receives")
    void closeTransactedSessionRollsBackReceives() throws JMSException {
        Queue q = queue();
        send(q, "taken");
        Connection c = startedConnection();
        Session s = c.createSession(Session.SESSION_TRANSACTED);
        assertReceivesText(s.createConsumer(q), "taken");
        s.close();
        Message again = receive(c.createSession().createConsumer(q));
        assertTrue(again.getJMSRedelivered());
    }

    @Test
    @DisplayName("6.2.15: closing a CLIENT_ACKNOWLEDGE session does not acknowledge; 6.2: the queue retains "
            + "and redelivers")
    void closeClientAckSessionDoesNotAcknowledge() throws JMSException {
        Queue q = queue();
        send(q, "not acknowledged");
        Connection c = startedConnection();
        Session s = c.createSession(Session.CLIENT_ACKNOWLEDGE);
        assertReceivesText(s.createConsumer(q), "not acknowledged");
        s.close();
        Message again = receive(c.createSession().createConsumer(q));
        assertEquals("not acknowledged", ((TextMessage) again).getText());
        assertTrue(again.getJMSRedelivered());
    }

    @Test
    @DisplayName("6.2.15: acknowledge() on a message of a closed session throws IllegalStateException")
    void acknowledgeAfterSessionClose() throws JMSException {
        Queue q = queue();
        send(q, "x");
        Session s = startedConnection().createSession(Session.CLIENT_ACKNOWLEDGE);
        Message m = receive(s.createConsumer(q));
        s.close();
        assertThrows(IllegalStateException.class, m::acknowledge);
    }

    @Test
    @DisplayName("6.2.15: messages created or received by a closed session stay usable")
    void messagesUsableAfterSessionClose() throws JMSException {
        Queue q = queue();
        send(q, "received");
        Session s = startedConnection().createSession();
        TextMessage received = (TextMessage) receive(s.createConsumer(q));
        TextMessage created = s.createTextMessage("created");
        s.close();
        assertEquals("received", received.getText());
        created.setText("changed");
        assertEquals("changed", created.getText());
    }

    @Test
    @DisplayName("6.2.15: session close terminates a pending receive in another thread")
    void closeTerminatesPendingReceive() throws Exception {
        Session s = startedConnection().createSession();
        MessageConsumer consumer = s.createConsumer(queue());
        CountDownLatch done = new CountDownLatch(1);
        AtomicReference<Object> result = new AtomicReference<>("not returned");
        startBlocked(() -> {
            try {
                result.set(consumer.receive());
            } catch (JMSException e) {
                result.set(e);
            }
            done.countDown();
        });
        s.close();
        assertTrue(done.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS), "receive() did not return");
        assertTrue(result.get() == null || result.get() instanceof JMSException, String.valueOf(result.get()));
    }

    @Test
    @DisplayName("6.2.15: session close does not return while one of its listeners is running")
    void closeWaitsForListener() throws Exception {
        Queue q = queue();
        Session s = startedConnection().createSession();
        CountDownLatch entered = new CountDownLatch(1);
        AtomicBoolean finished = new AtomicBoolean();
        s.createConsumer(q).setMessageListener(m -> {
            entered.countDown();
            sleep(500);
            finished.set(true);
        });
        send(q, "slow");
        assertTrue(entered.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS));
        s.close();
        assertTrue(finished.get());
    }

    @Test
    @DisplayName("6.2.13: a session runs its message listeners one at a time")
    void listenersOfOneSessionAreSerialized() throws Exception {
        Queue q1 = queue("a");
        Queue q2 = queue("b");
        Connection c = connection();
        Session s = c.createSession();
        AtomicInteger running = new AtomicInteger();
        AtomicBoolean overlapped = new AtomicBoolean();
        CountDownLatch all = new CountDownLatch(10);
        jakarta.jms.MessageListener listener = m -> {
            if (running.incrementAndGet() > 1) {
                overlapped.set(true);
            }
            sleep(20);
            running.decrementAndGet();
            all.countDown();
        };
        s.createConsumer(q1).setMessageListener(listener);
        s.createConsumer(q2).setMessageListener(listener);
        send(q1, texts(5));
        send(q2, texts(5));
        c.start();
        assertTrue(all.await(RECEIVE_TIMEOUT * 2, TimeUnit.MILLISECONDS));
        assertFalse(overlapped.get(), "two listeners of one session ran at the same time");
    }

    @Test
    @DisplayName("6.2.14: each session delivers to its own listener: several sessions consume concurrently")
    void severalSessionsDeliverIndependently() throws Exception {
        Queue q1 = queue("a");
        Queue q2 = queue("b");
        Connection c = startedConnection();
        CountDownLatch both = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        jakarta.jms.MessageListener blocking = m -> {
            both.countDown();
            try {
                release.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        c.createSession().createConsumer(q1).setMessageListener(blocking);
        c.createSession().createConsumer(q2).setMessageListener(blocking);
        send(q1, "one");
        send(q2, "two");
        boolean concurrent = both.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS);
        release.countDown();
        assertTrue(concurrent, "a listener blocked in one session held up the other session");
    }

    @Test
    @DisplayName("6.2: messages received but not acknowledged when a session ends are redelivered, in order")
    void unacknowledgedRedeliveredInOrder() throws JMSException {
        Queue q = queue();
        send(q, texts(5));
        Connection c = startedConnection();
        Session s = c.createSession(Session.CLIENT_ACKNOWLEDGE);
        MessageConsumer consumer = s.createConsumer(q);
        assertEquals(java.util.List.of(texts(5)), receiveTexts(consumer, 5));
        s.close();
        assertEquals(java.util.List.of(texts(5)), receiveTexts(c.createSession().createConsumer(q), 5));
    }

    @Test
    @DisplayName("6.2.10: recovering one session does not redeliver messages held by another session")
    void sessionsAcknowledgeIndependently() throws JMSException {
        Queue q1 = queue("a");
        Queue q2 = queue("b");
        send(q1, "one");
        send(q2, "two");
        Connection c = startedConnection();
        Session s1 = c.createSession(Session.CLIENT_ACKNOWLEDGE);
        Session s2 = c.createSession(Session.CLIENT_ACKNOWLEDGE);
        MessageConsumer c1 = s1.createConsumer(q1);
        MessageConsumer c2 = s2.createConsumer(q2);
        assertReceivesText(c1, "one");
        Message m2 = receive(c2);
        m2.acknowledge();
        s1.recover();
        Message again = receive(c1);
        assertTrue(again.getJMSRedelivered());
        assertNoMessage(c2);
    }
}
