package org.partita.tck.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
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
import org.partita.tck.support.KnownDeviation;
import org.partita.tck.support.TckTest;

/** Jakarta Messaging 3.1, sections 3.4.13 and 7.9: delivery delay and JMSDeliveryTime. */
class DeliveryDelayTest extends TckTest {

    private static final long DELAY = 1500;

    @Test
    @DisplayName("7.9: a message is not delivered before its delivery delay has passed, and is delivered after")
    void notDeliveredBeforeDelay() throws JMSException {
        Queue q = queue();
        Session s = session();
        MessageProducer p = s.createProducer(q);
        p.setDeliveryDelay(DELAY);
        long sent = System.currentTimeMillis();
        p.send(s.createTextMessage("delayed"));
        MessageConsumer consumer = s.createConsumer(q);
        assertNull(consumer.receive(DELAY / 2), "delivered before the delivery delay");
        Message m = consumer.receive(DELAY + RECEIVE_TIMEOUT);
        assertNotNull(m);
        assertTrue(System.currentTimeMillis() >= sent + DELAY, "delivered early");
    }

    @Test
    @DisplayName("3.4.13: JMSDeliveryTime is the send time plus the delivery delay, on send and on receipt")
    void deliveryTimeHeader() throws JMSException {
        Queue q = queue();
        Session s = session();
        MessageProducer p = s.createProducer(q);
        p.setDeliveryDelay(500);
        TextMessage m = s.createTextMessage("x");
        long before = System.currentTimeMillis();
        p.send(m);
        long after = System.currentTimeMillis();
        assertTrue(
                m.getJMSDeliveryTime() >= before + 500 && m.getJMSDeliveryTime() <= after + 500,
                "delivery time " + (m.getJMSDeliveryTime() - before) + " ms after the send started");
        Message r = receive(s.createConsumer(q));
        assertEquals(m.getJMSDeliveryTime(), r.getJMSDeliveryTime());
    }

    @Test
    @KnownDeviation(
            provider = "artemis",
            reason = "3.4.13: Artemis leaves JMSDeliveryTime at 0 when no delivery delay is set; "
                    + "the spec defines it as the send time plus the delay (0)")
    @DisplayName("3.4.13: without delay, JMSDeliveryTime is the send time")
    void deliveryTimeWithoutDelay() throws JMSException {
        Queue q = queue();
        Session s = session();
        TextMessage m = s.createTextMessage("x");
        long before = System.currentTimeMillis();
        s.createProducer(q).send(m);
        long after = System.currentTimeMillis();
        assertTrue(
                m.getJMSDeliveryTime() >= before && m.getJMSDeliveryTime() <= after,
                "delivery time " + m.getJMSDeliveryTime() + " outside [" + before + ", " + after + "]");
        assertEquals(m.getJMSDeliveryTime(), receive(s.createConsumer(q)).getJMSDeliveryTime());
    }

    @Test
    @DisplayName("6.2.9.2 / 7.9: a later message without delay is delivered before an earlier delayed one")
    void undelayedOvertakesDelayed() throws JMSException {
        Queue q = queue();
        Session s = session();
        MessageProducer delayed = s.createProducer(q);
        delayed.setDeliveryDelay(DELAY);
        delayed.send(s.createTextMessage("delayed"));
        s.createProducer(q).send(s.createTextMessage("immediate"));
        MessageConsumer consumer = s.createConsumer(q);
        assertReceivesText(consumer, "immediate");
        assertEquals("delayed", ((TextMessage) consumer.receive(DELAY + RECEIVE_TIMEOUT)).getText());
    }

    @Test
    @DisplayName("7.9: a delayed message to a topic only goes to subscriptions that existed when it was sent")
    void topicDelayOnlyExistingSubscriptions() throws JMSException {
        Topic t = topic();
        Session s = session();
        MessageConsumer early = s.createConsumer(t);
        MessageProducer p = s.createProducer(t);
        p.setDeliveryDelay(1000);
        p.send(s.createTextMessage("delayed news"));
        MessageConsumer late = session().createConsumer(t);
        assertEquals("delayed news", ((TextMessage) early.receive(1000 + RECEIVE_TIMEOUT)).getText());
        assertNoMessage(late);
    }

    @Test
    @DisplayName("7.9: a delayed message on a durable subscription is held until its delivery time")
    void delayOnDurableSubscription() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        Session s = session();
        MessageConsumer consumer = s.createSharedDurableConsumer(t, name);
        MessageProducer p = s.createProducer(t);
        p.setDeliveryDelay(DELAY);
        p.send(s.createTextMessage("later"));
        assertNull(consumer.receive(DELAY / 2));
        assertNotNull(consumer.receive(DELAY + RECEIVE_TIMEOUT));
        consumer.close();
        s.unsubscribe(name);
    }

    @Test
    @DisplayName("3.4.13 / 7.9: in a transaction, the delivery time counts from the send, not from the commit")
    void transactedDelayFromSend() throws JMSException {
        Queue q = queue();
        Connection c = connection();
        Session tx = c.createSession(Session.SESSION_TRANSACTED);
        MessageProducer p = tx.createProducer(q);
        p.setDeliveryDelay(DELAY);
        TextMessage m = tx.createTextMessage("x");
        long before = System.currentTimeMillis();
        p.send(m);
        long sent = System.currentTimeMillis();
        sleep(300);
        tx.commit();
        assertTrue(
                m.getJMSDeliveryTime() >= before + DELAY && m.getJMSDeliveryTime() <= sent + DELAY,
                "delivery time " + (m.getJMSDeliveryTime() - before) + " ms after the send started");
        Message r = session().createConsumer(q).receive(DELAY + RECEIVE_TIMEOUT);
        assertNotNull(r);
        assertEquals(m.getJMSDeliveryTime(), r.getJMSDeliveryTime());
    }

    @Test
    @DisplayName("7.9: a delayed message arrives with its body and properties intact")
    void delayedMessageIntact() throws JMSException {
        Queue q = queue();
        Session s = session();
        MessageProducer p = s.createProducer(q);
        p.setDeliveryDelay(300);
        TextMessage m = s.createTextMessage("intact");
        m.setStringProperty("k", "v");
        p.send(m);
        TextMessage r = (TextMessage) s.createConsumer(q).receive(RECEIVE_TIMEOUT + 300);
        assertEquals("intact", r.getText());
        assertEquals("v", r.getStringProperty("k"));
    }
}
