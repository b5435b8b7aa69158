package org.partita.tck.topics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicConnectionFactory;
import jakarta.jms.TopicPublisher;
import jakarta.jms.TopicSession;
import jakarta.jms.TopicSubscriber;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.partita.tck.support.TckTest;

/** Jakarta Messaging 3.1, sections 4.2 and 8.3.1: topics and unshared non-durable subscriptions. */
class NonDurableSubscriptionTest extends TckTest {

    @Test
    @DisplayName("4.2.2: a subscription receives the messages sent to the topic after it was created")
    void subscriberReceives() throws JMSException {
        Topic t = topic();
        MessageConsumer sub = session().createConsumer(t);
        send(t, "news");
        assertReceivesText(sub, "news");
    }

    @Test
    @DisplayName("4.2.2 / 8.3.1: messages sent before the subscription existed are not received")
    void noMessagesFromBeforeSubscription() throws JMSException {
        Topic t = topic();
        send(t, "too early");
        MessageConsumer sub = session().createConsumer(t);
        send(t, "in time");
        assertReceivesText(sub, "in time");
        assertNoMessage(sub);
    }

    @Test
    @DisplayName("4.2.2: each subscription gets its own copy of every message")
    void everySubscriberGetsACopy() throws JMSException {
        Topic t = topic();
        MessageConsumer a = session().createConsumer(t);
        MessageConsumer b = session().createConsumer(t);
        MessageConsumer c = session().createConsumer(t);
        send(t, texts(5));
        assertEquals(List.of(texts(5)), receiveTexts(a, 5));
        assertEquals(List.of(texts(5)), receiveTexts(b, 5));
        assertEquals(List.of(texts(5)), receiveTexts(c, 5));
    }

    @Test
    @DisplayName("4.2.2: two subscriptions in the same session each get a copy")
    void twoSubscriptionsOneSession() throws JMSException {
        Topic t = topic();
        Session s = session();
        MessageConsumer a = s.createConsumer(t);
        MessageConsumer b = s.createConsumer(t);
        send(t, "both");
        assertReceivesText(a, "both");
        assertReceivesText(b, "both");
    }

    @Test
    @DisplayName("4.2.2: copies are separate: recovering one copy does not redeliver the other")
    void copiesAcknowledgedSeparately() throws JMSException {
        Topic t = topic();
        Session s1 = startedConnection().createSession(Session.CLIENT_ACKNOWLEDGE);
        Session s2 = startedConnection().createSession(Session.CLIENT_ACKNOWLEDGE);
        MessageConsumer a = s1.createConsumer(t);
        MessageConsumer b = s2.createConsumer(t);
        send(t, "copy");
        receive(a);
        receive(b).acknowledge();
        s1.recover();
        assertTrue(receive(a).getJMSRedelivered());
        assertNoMessage(b);
    }

    @Test
    @DisplayName("8.3.1: closing the consumer deletes the subscription: messages sent meanwhile are lost to it")
    void closedSubscriptionIsGone() throws JMSException {
        Topic t = topic();
        Session s = session();
        MessageConsumer first = s.createConsumer(t);
        first.close();
        send(t, "while closed");
        MessageConsumer second = s.createConsumer(t);
        assertNoMessage(second);
    }

    @Test
    @DisplayName("8.3.1: noLocal=true: messages published by the subscriber's own connection are not added")
    void noLocalSkipsOwnConnection() throws JMSException {
        Topic t = topic();
        Connection c = startedConnection();
        Session s = c.createSession();
        MessageConsumer sub = s.createConsumer(t, null, true);
        s.createProducer(t).send(s.createTextMessage("mine"));
        c.createSession().createProducer(t).send(s.createTextMessage("mine, other session"));
        send(t, "theirs");
        assertReceivesText(sub, "theirs");
        assertNoMessage(sub);
    }

    @Test
    @DisplayName("8.3.1: noLocal=false: messages published by the own connection are received")
    void localMessagesByDefault() throws JMSException {
        Topic t = topic();
        Session s = session();
        MessageConsumer sub = s.createConsumer(t, null, false);
        s.createProducer(t).send(s.createTextMessage("mine"));
        assertReceivesText(sub, "mine");
    }

    @Test
    @DisplayName("4.2: publishing to a topic without subscribers succeeds")
    void publishWithoutSubscribers() throws JMSException {
        Topic t = topic();
        Session s = connection().createSession();
        s.createProducer(t).send(s.createTextMessage("nobody listens"));
    }

    @Test
    @DisplayName("4.2.2: a subscription with a listener receives asynchronously")
    void listenerSubscription() throws Exception {
        Topic t = topic();
        var got = new java.util.concurrent.CountDownLatch(3);
        session().createConsumer(t).setMessageListener(m -> got.countDown());
        send(t, texts(3));
        assertTrue(got.await(RECEIVE_TIMEOUT, java.util.concurrent.TimeUnit.MILLISECONDS));
    }

    @Test
    @DisplayName("6.2.9.1: a subscriber receives one publisher's messages in the order published")
    void orderFromOnePublisher() throws JMSException {
        Topic t = topic();
        MessageConsumer sub = session().createConsumer(t);
        send(t, texts(25));
        assertEquals(List.of(texts(25)), receiveTexts(sub, 25));
    }

    @Test
    @DisplayName("4.2.2: a message is delivered to the subscriptions of the topic only, not of other topics")
    void topicsAreSeparate() throws JMSException {
        Topic a = topic("a");
        Topic b = topic("b");
        MessageConsumer subA = session().createConsumer(a);
        send(b, "for b");
        assertNoMessage(subA);
    }

    @Test
    @DisplayName("4.2.2 / 2.9: the domain-specific TopicPublisher and TopicSubscriber publish and subscribe")
    void legacyTopicApi() throws JMSException {
        Topic t = topic();
        TopicConnection c = track(((TopicConnectionFactory) connectionFactory()).createTopicConnection());
        c.start();
        TopicSession s = c.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
        TopicSubscriber sub = s.createSubscriber(t);
        assertEquals(t, sub.getTopic());
        assertFalse(sub.getNoLocal());
        TopicPublisher pub = s.createPublisher(t);
        assertEquals(t, pub.getTopic());
        pub.publish(s.createTextMessage("legacy"));
        assertReceivesText(sub, "legacy");
    }

    @Test
    @DisplayName("4.2.11: a NON_PERSISTENT message reaches an active non-durable subscriber")
    void nonPersistentToActiveSubscriber() throws JMSException {
        Topic t = topic();
        MessageConsumer sub = session().createConsumer(t);
        sendNonPersistent(t, "fast");
        assertReceivesText(sub, "fast");
    }

    @Test
    @DisplayName("4.2.2: a subscriber on a topic receives messages sent with an anonymous producer")
    void anonymousProducerToTopic() throws JMSException {
        Topic t = topic();
        Session s = session();
        MessageConsumer sub = s.createConsumer(t);
        MessageProducer p = s.createProducer(null);
        p.send(t, s.createTextMessage("anonymous"));
        Message m = receive(sub);
        assertEquals(t, m.getJMSDestination());
    }
}
