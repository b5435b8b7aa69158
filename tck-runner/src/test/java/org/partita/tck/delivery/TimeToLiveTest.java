package org.partita.tck.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.partita.tck.support.TckTest;

/** Jakarta Messaging 3.1, sections 3.4.9 and 7.8: time to live and expiration. */
class TimeToLiveTest extends TckTest {

    @Test
    @DisplayName("3.4.9: JMSExpiration is the send time plus the time to live, on send and on receipt")
    void expirationIsSendTimePlusTtl() throws JMSException {
        Queue q = queue();
        Session s = session();
        MessageProducer p = s.createProducer(q);
        p.setTimeToLive(60_000);
        TextMessage m = s.createTextMessage("x");
        long before = System.currentTimeMillis();
        p.send(m);
        long after = System.currentTimeMillis();
        assertTrue(
                m.getJMSExpiration() >= before + 60_000 && m.getJMSExpiration() <= after + 60_000,
                "expiration " + m.getJMSExpiration() + " not within send time + ttl");
        assertEquals(m.getJMSExpiration(), receive(s.createConsumer(q)).getJMSExpiration());
    }

    @Test
    @DisplayName("3.4.9: JMSExpiration equals JMSTimestamp plus the time to live when timestamps are on")
    void expirationFromTimestamp() throws JMSException {
        Session s = connection().createSession();
        MessageProducer p = s.createProducer(queue());
        TextMessage m = s.createTextMessage("x");
        p.send(m, DeliveryMode.PERSISTENT, 4, 30_000);
        long delta = m.getJMSExpiration() - m.getJMSTimestamp();
        assertTrue(delta >= 29_990 && delta <= 30_010, "expiration - timestamp = " + delta);
    }

    @Test
    @DisplayName("7.8: a message whose time to live has passed is not delivered (time to live is not ignored)")
    void expiredNotDelivered() throws JMSException {
        Queue q = queue();
        Session s = connection().createSession();
        s.createProducer(q).send(s.createTextMessage("expires"), DeliveryMode.PERSISTENT, 4, 300);
        sleep(1000);
        assertNoMessage(session().createConsumer(q));
    }

    @Test
    @DisplayName("7.8: an expired NON_PERSISTENT message is not delivered")
    void expiredNonPersistentNotDelivered() throws JMSException {
        Queue q = queue();
        Session s = connection().createSession();
        s.createProducer(q).send(s.createTextMessage("expires"), DeliveryMode.NON_PERSISTENT, 4, 300);
        sleep(1000);
        assertNoMessage(session().createConsumer(q));
    }

    @Test
    @DisplayName("7.8: an expired message does not hide the live messages behind it")
    void liveMessagesAfterExpired() throws JMSException {
        Queue q = queue();
        Session s = connection().createSession();
        MessageProducer p = s.createProducer(q);
        p.send(s.createTextMessage("expires"), DeliveryMode.PERSISTENT, 4, 300);
        p.send(s.createTextMessage("lives"), DeliveryMode.PERSISTENT, 4, 0);
        sleep(1000);
        MessageConsumer consumer = session().createConsumer(q);
        assertReceivesText(consumer, "lives");
        assertNoMessage(consumer);
    }

    @Test
    @DisplayName("7.8: a message still within its time to live is delivered")
    void unexpiredDelivered() throws JMSException {
        Queue q = queue();
        Session s = connection().createSession();
        s.createProducer(q).send(s.createTextMessage("in time"), DeliveryMode.PERSISTENT, 4, 60_000);
        assertReceivesText(session().createConsumer(q), "in time");
    }

    @Test
    @DisplayName("7.8: an expired message on a durable subscription is not delivered")
    void expiredOnDurableSubscription() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        Session sub = session();
        sub.createSharedDurableConsumer(t, name).close();
        Session s = connection().createSession();
        s.createProducer(t).send(s.createTextMessage("expires"), DeliveryMode.PERSISTENT, 4, 300);
        sleep(1000);
        MessageConsumer consumer = sub.createSharedDurableConsumer(t, name);
        assertNoMessage(consumer);
        consumer.close();
        sub.unsubscribe(name);
    }

    @Test
    @DisplayName("3.4.9 / 7.8: in a transaction, expiration counts from the send, not from the commit")
    void transactedExpirationFromSend() throws JMSException {
        Queue q = queue();
        Connection c = connection();
        Session tx = c.createSession(Session.SESSION_TRANSACTED);
        TextMessage m = tx.createTextMessage("x");
        long before = System.currentTimeMillis();
        tx.createProducer(q).send(m, DeliveryMode.PERSISTENT, 4, 60_000);
        long sent = System.currentTimeMillis();
        sleep(500);
        tx.commit();
        assertTrue(
                m.getJMSExpiration() <= sent + 60_000 && m.getJMSExpiration() >= before + 60_000,
                "expiration " + (m.getJMSExpiration() - before) + " ms after the send started");
        Message r = receive(session().createConsumer(q));
        assertEquals(m.getJMSExpiration(), r.getJMSExpiration());
    }

    @Test
    @DisplayName("7.4: a time to live passed to send overrides the producer's")
    void sendTtlOverridesProducer() throws JMSException {
        Queue q = queue();
        Session s = connection().createSession();
        MessageProducer p = s.createProducer(q);
        p.setTimeToLive(60_000);
        p.send(s.createTextMessage("short"), DeliveryMode.PERSISTENT, 4, 200);
        sleep(1000);
        assertNoMessage(session().createConsumer(q));
    }

    @Test
    @DisplayName("7.8: the producer's time to live applies to the messages it sends")
    void producerTtlExpires() throws JMSException {
        Queue q = queue();
        Session s = connection().createSession();
        MessageProducer p = s.createProducer(q);
        p.setTimeToLive(200);
        p.send(s.createTextMessage("short"));
        sleep(1000);
        assertNoMessage(session().createConsumer(q));
    }
}
