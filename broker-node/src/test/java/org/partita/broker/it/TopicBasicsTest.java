package org.partita.broker.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

@Tag("slow")
class TopicBasicsTest {
    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    @Test
    void aTopicNameWithOptionsIsRefusedForPublishingAndSubscribing() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic withOptions = s.createTopic("news?partitions=4");
            jakarta.jms.JMSException sub = org.junit.jupiter.api.Assertions.assertThrows(
                    jakarta.jms.JMSException.class, () -> s.createConsumer(withOptions));
            org.junit.jupiter.api.Assertions.assertTrue(
                    sub.getMessage().contains("topic names take no options"), sub.getMessage());
            jakarta.jms.JMSException pub = org.junit.jupiter.api.Assertions.assertThrows(
                    jakarta.jms.JMSException.class,
                    () -> s.createProducer(withOptions).send(s.createTextMessage("x")));
            org.junit.jupiter.api.Assertions.assertTrue(
                    pub.getMessage().contains("subscriptions=news"), pub.getMessage());
            // the connection is still usable
            MessageConsumer ok = s.createConsumer(s.createTopic("news"));
            c.start();
            s.createProducer(s.createTopic("news")).send(s.createTextMessage("fine"));
            assertEquals("fine", ((TextMessage) ok.receive(2000)).getText());
        }
    }

    @Test
    void everySubscriberGetsEveryMessageAndWildcardsMatchLevels() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer exact = s.createConsumer(s.createTopic("mfg/machine/m-001/state"));
            MessageConsumer one = s.createConsumer(s.createTopic("mfg/machine/*/state"));
            MessageConsumer tail = s.createConsumer(s.createTopic("mfg/>"));
            MessageConsumer other = s.createConsumer(s.createTopic("mfg/line/>"));
            MessageProducer p = s.createProducer(s.createTopic("mfg/machine/m-001/state"));
            p.send(s.createTextMessage("Running"));
            for (MessageConsumer consumer : new MessageConsumer[] {exact, one, tail}) {
                TextMessage m = (TextMessage) consumer.receive(5000);
                assertNotNull(m);
                assertEquals("Running", m.getText());
            }
            // published after "Running" on the same session: other's next message, had "Running" matched it
            Absence.assertNothingAhead(
                    s, s.createTopic("mfg/line/1/state"), other, "mfg/line/> does not match mfg/machine/m-001/state");
        }
    }

    @Test
    void durableSubscriptionKeepsMessagesWhileAwayAndAcrossRestart() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            c.setClientID("durable-client");
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic t = s.createTopic("prices");
            s.createDurableSubscriber(t, "sub1").close();
            s.createProducer(t).send(s.createTextMessage("p1"));
        }
        node.restart();
        try (Connection c = node.factory().createConnection()) {
            c.setClientID("durable-client");
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic t = s.createTopic("prices");
            MessageConsumer sub = s.createDurableSubscriber(t, "sub1");
            assertEquals("p1", ((TextMessage) sub.receive(5000)).getText());
            sub.close();
            s.unsubscribe("sub1");
        }
    }

    @Test
    void noLocalSubscriberDoesNotSeeItsOwnConnectionsMessages() throws Exception {
        try (Connection mine = node.factory().createConnection();
                Connection theirs = node.factory().createConnection()) {
            mine.start();
            Session s = mine.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic t = s.createTopic("chat");
            MessageConsumer consumer = s.createConsumer(t, null, true);
            s.createProducer(t).send(s.createTextMessage("own"));
            Session s2 = theirs.createSession(false, Session.AUTO_ACKNOWLEDGE);
            s2.createProducer(t).send(s2.createTextMessage("foreign"));
            assertEquals("foreign", ((TextMessage) consumer.receive(5000)).getText());
            Absence.assertNothingAhead(s2, t, consumer, "the subscriber's own message never comes");
        }
    }

    @Test
    void sharedSubscriptionSplitsMessagesBetweenItsConsumers() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            c.start();
            Session s1 = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Session s2 = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic t = s1.createTopic("jobs/new");
            MessageConsumer a = s1.createSharedConsumer(t, "workers");
            MessageConsumer b = s2.createSharedConsumer(t, "workers");
            MessageProducer p = s1.createProducer(t);
            for (int i = 0; i < 20; i++) {
                p.send(s1.createTextMessage("j" + i));
            }
            int got = 0;
            while (a.receive(300) != null) {
                got++;
            }
            while (b.receive(300) != null) {
                got++;
            }
            assertEquals(20, got, "each message once across the shared subscription");
        }
    }
}
