package org.partita.tck.acknowledgement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
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

/** Jakarta Messaging 3.1, sections 3.6, 6.2.10 and 6.2.11: message acknowledgment and recovery. */
class AcknowledgementTest extends TckTest {

    @Test
    @DisplayName("6.2.10: AUTO_ACKNOWLEDGE acknowledges a message when receive returns: it is not redelivered")
    void autoAcknowledge() throws JMSException {
        Queue q = queue();
        send(q, "auto");
        Connection c = startedConnection();
        Session s = c.createSession(Session.AUTO_ACKNOWLEDGE);
        assertReceivesText(s.createConsumer(q), "auto");
        s.close();
        assertNoMessage(c.createSession().createConsumer(q));
    }

    @Test
    @DisplayName("6.2.10: AUTO_ACKNOWLEDGE acknowledges when the listener returns: it is not redelivered")
    void autoAcknowledgeListener() throws Exception {
        Queue q = queue();
        Connection c = startedConnection();
        Session s = c.createSession(Session.AUTO_ACKNOWLEDGE);
        CountDownLatch got = new CountDownLatch(1);
        s.createConsumer(q).setMessageListener(m -> got.countDown());
        send(q, "auto");
        assertTrue(got.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS));
        sleep(100);
        s.close();
        assertNoMessage(c.createSession().createConsumer(q));
    }

    @Test
    @DisplayName("6.2.10: CLIENT_ACKNOWLEDGE: acknowledged messages are not redelivered")
    void clientAcknowledge() throws JMSException {
        Queue q = queue();
        send(q, "ack");
        Connection c = startedConnection();
        Session s = c.createSession(Session.CLIENT_ACKNOWLEDGE);
        receive(s.createConsumer(q)).acknowledge();
        s.close();
        assertNoMessage(c.createSession().createConsumer(q));
    }

    @Test
    @DisplayName("6.2.10: CLIENT_ACKNOWLEDGE: acknowledging one message acknowledges every message the session "
            + "has delivered")
    void acknowledgeCoversSessionDeliveries() throws JMSException {
        Queue q = queue();
        send(q, "a", "b", "c");
        Connection c = startedConnection();
        Session s = c.createSession(Session.CLIENT_ACKNOWLEDGE);
        MessageConsumer consumer = s.createConsumer(q);
        Message a = receive(consumer);
        receive(consumer);
        receive(consumer);
        a.acknowledge();
        s.close();
        assertNoMessage(c.createSession().createConsumer(q));
    }

    @Test
    @DisplayName("6.2.10: CLIENT_ACKNOWLEDGE: an acknowledge covers the messages of all the session's consumers")
    void acknowledgeCoversAllConsumers() throws JMSException {
        Queue q1 = queue("a");
        Queue q2 = queue("b");
        send(q1, "one");
        send(q2, "two");
        Connection c = startedConnection();
        Session s = c.createSession(Session.CLIENT_ACKNOWLEDGE);
        Message one = receive(s.createConsumer(q1));
        receive(s.createConsumer(q2));
        one.acknowledge();
        s.close();
        Session check = c.createSession();
        assertNoMessage(check.createConsumer(q1));
        assertNoMessage(check.createConsumer(q2));
    }

    @Test
    @DisplayName("6.2.10: messages delivered after an acknowledge are not covered by it")
    void acknowledgeDoesNotCoverLaterDeliveries() throws JMSException {
        Queue q = queue();
        send(q, "first", "second");
        Connection c = startedConnection();
        Session s = c.createSession(Session.CLIENT_ACKNOWLEDGE);
        MessageConsumer consumer = s.createConsumer(q);
        receive(consumer).acknowledge();
        assertReceivesText(consumer, "second");
        s.close();
        Message again = receive(c.createSession().createConsumer(q));
        assertEquals("second", ((TextMessage) again).getText());
        assertTrue(again.getJMSRedelivered());
    }

    @Test
    @DisplayName("6.2.10: recover() restarts delivery with the first unacknowledged message, marked redelivered")
    void recoverRedelivers() throws JMSException {
        Queue q = queue();
        send(q, "a", "b");
        Session s = startedConnection().createSession(Session.CLIENT_ACKNOWLEDGE);
        MessageConsumer consumer = s.createConsumer(q);
        assertEquals(List.of("a", "b"), receiveTexts(consumer, 2));
        s.recover();
        Message a = receive(consumer);
        Message b = receive(consumer);
        assertEquals("a", ((TextMessage) a).getText());
        assertEquals("b", ((TextMessage) b).getText());
        assertTrue(a.getJMSRedelivered());
        assertTrue(b.getJMSRedelivered());
        assertEquals(2, a.getIntProperty("JMSXDeliveryCount"));
        b.acknowledge();
    }

    @Test
    @DisplayName("6.2.10: recover() only redelivers what was not acknowledged")
    void recoverAfterPartialAcknowledge() throws JMSException {
        Queue q = queue();
        send(q, "a");
        Session s = startedConnection().createSession(Session.CLIENT_ACKNOWLEDGE);
        MessageConsumer consumer = s.createConsumer(q);
        receive(consumer).acknowledge();
        send(q, "b");
        assertReceivesText(consumer, "b");
        s.recover();
        Message again = receive(consumer);
        assertEquals("b", ((TextMessage) again).getText());
        assertTrue(again.getJMSRedelivered());
        assertNoMessage(consumer);
    }

    @Test
    @DisplayName("3.5.11: JMSXDeliveryCount counts every delivery across repeated recovers")
    void deliveryCountIncrements() throws JMSException {
        Queue q = queue();
        send(q, "again and again");
        Session s = startedConnection().createSession(Session.CLIENT_ACKNOWLEDGE);
        MessageConsumer consumer = s.createConsumer(q);
        for (int expected = 1; expected <= 4; expected++) {
            Message m = receive(consumer);
            assertEquals(expected, m.getIntProperty("JMSXDeliveryCount"));
            assertEquals(expected > 1, m.getJMSRedelivered());
            if (expected < 4) {
                s.recover();
            } else {
                m.acknowledge();
            }
        }
    }

    @Test
    @DisplayName("6.2.10: recover() in a listener's session redelivers to the listener")
    void recoverFromListener() throws Exception {
        Queue q = queue();
        Session s = startedConnection().createSession(Session.CLIENT_ACKNOWLEDGE);
        CountDownLatch redelivered = new CountDownLatch(1);
        s.createConsumer(q).setMessageListener(m -> {
            try {
                if (m.getJMSRedelivered()) {
                    m.acknowledge();
                    redelivered.countDown();
                } else {
                    s.recover();
                }
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
        });
        send(q, "recover me");
        assertTrue(redelivered.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS));
    }

    @Test
    @DisplayName("6.2.11: an acknowledged message is never delivered again, even after recover()")
    void acknowledgedNotRedeliveredAfterRecover() throws JMSException {
        Queue q = queue();
        send(q, "once");
        Session s = startedConnection().createSession(Session.CLIENT_ACKNOWLEDGE);
        MessageConsumer consumer = s.createConsumer(q);
        receive(consumer).acknowledge();
        s.recover();
        assertNoMessage(consumer);
    }

    @Test
    @DisplayName("6.2.11: in AUTO_ACKNOWLEDGE a received message is acknowledged: recover() does not return it")
    void autoAckRecover() throws JMSException {
        Queue q = queue();
        send(q, "auto");
        Session s = startedConnection().createSession(Session.AUTO_ACKNOWLEDGE);
        MessageConsumer consumer = s.createConsumer(q);
        assertReceivesText(consumer, "auto");
        s.recover();
        assertNoMessage(consumer);
    }

    @Test
    @DisplayName("3.6: acknowledge() is ignored in AUTO_ACKNOWLEDGE")
    void acknowledgeIgnoredInAutoMode() throws JMSException {
        Queue q = queue();
        send(q, "x");
        Session s = startedConnection().createSession(Session.AUTO_ACKNOWLEDGE);
        receive(s.createConsumer(q)).acknowledge();
    }

    @Test
    @DisplayName("6.2.10: DUPS_OK_ACKNOWLEDGE delivers every message")
    void dupsOkDelivers() throws JMSException {
        Queue q = queue();
        send(q, texts(10));
        Session s = startedConnection().createSession(Session.DUPS_OK_ACKNOWLEDGE);
        assertEquals(List.of(texts(10)), receiveTexts(s.createConsumer(q), 10));
    }

    @Test
    @DisplayName("6.2: a durable subscription retains and redelivers what its closed session did not acknowledge")
    void durableSubscriptionRedelivers() throws JMSException {
        Topic t = topic();
        String sub = uniqueSubscriptionName();
        Connection c = startedConnection();
        Session s = c.createSession(Session.CLIENT_ACKNOWLEDGE);
        MessageConsumer consumer = s.createSharedDurableConsumer(t, sub);
        send(t, "durable");
        Message first = receive(consumer);
        s.close();
        Session s3 = c.createSession(Session.CLIENT_ACKNOWLEDGE);
        MessageConsumer again = s3.createSharedDurableConsumer(t, sub);
        Message m = receive(again);
        assertEquals(first.getJMSMessageID(), m.getJMSMessageID());
        assertTrue(m.getJMSRedelivered());
        m.acknowledge();
        again.close();
        s3.unsubscribe(sub);
    }

    @Test
    @DisplayName("3.5.11: a message with JMSRedelivered set has JMSXDeliveryCount of 2 or more")
    void redeliveredImpliesCountAtLeastTwo() throws JMSException {
        Queue q = queue();
        send(q, "x");
        Connection c = startedConnection();
        Session s = c.createSession(Session.CLIENT_ACKNOWLEDGE);
        receive(s.createConsumer(q));
        s.close();
        Message m = receive(c.createSession().createConsumer(q));
        assertTrue(m.getJMSRedelivered());
        assertTrue(m.getIntProperty("JMSXDeliveryCount") >= 2);
    }

    @Test
    @DisplayName("6.2.15: recover() on a closed session throws IllegalStateException")
    void recoverOnClosedSession() throws JMSException {
        Session s = connection().createSession(Session.CLIENT_ACKNOWLEDGE);
        s.close();
        assertThrows(IllegalStateException.class, s::recover);
    }

    @Test
    @DisplayName("6.2.10: messages a CLIENT_ACKNOWLEDGE listener never acknowledges are redelivered after close")
    void unacknowledgedListenerMessagesRedelivered() throws Exception {
        Queue q = queue();
        Connection c = startedConnection();
        Session s = c.createSession(Session.CLIENT_ACKNOWLEDGE);
        CountDownLatch got = new CountDownLatch(2);
        s.createConsumer(q).setMessageListener(m -> got.countDown());
        send(q, "x", "y");
        assertTrue(got.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS));
        s.close();
        MessageConsumer again = c.createSession().createConsumer(q);
        assertEquals(List.of("x", "y"), receiveTexts(again, 2));
    }

    @Test
    @DisplayName("6.2.10: a CLIENT_ACKNOWLEDGE session's unacknowledged messages are not given to another "
            + "consumer while the session is open")
    void unacknowledgedNotStolen() throws JMSException {
        Queue q = queue();
        send(q, "held");
        Session holder = startedConnection().createSession(Session.CLIENT_ACKNOWLEDGE);
        assertReceivesText(holder.createConsumer(q), "held");
        MessageConsumer other = session().createConsumer(q);
        assertNoMessage(other);
        assertFalse(holder.getTransacted());
    }
}
