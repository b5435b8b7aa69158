package org.partita.tck.topics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.partita.tck.support.KnownDeviation;
import org.partita.tck.support.TckTest;

/** Jakarta Messaging 3.1, sections 8.3.2 and 8.3.4: shared non-durable and shared durable subscriptions. */
class SharedSubscriptionTest extends TckTest {

    /** Receives from two consumers until {@code n} messages came; returns the texts per consumer. */
    private static List<List<String>> drainBoth(MessageConsumer a, MessageConsumer b, int n) throws JMSException {
        List<String> fromA = new ArrayList<>();
        List<String> fromB = new ArrayList<>();
        long deadline = System.currentTimeMillis() + RECEIVE_TIMEOUT * 2;
        while (fromA.size() + fromB.size() < n && System.currentTimeMillis() < deadline) {
            Message m = a.receive(50);
            if (m != null) {
                fromA.add(((TextMessage) m).getText());
            }
            m = b.receive(50);
            if (m != null) {
                fromB.add(((TextMessage) m).getText());
            }
        }
        return List.of(fromA, fromB);
    }

    private static void assertSharedOnce(List<List<String>> got, int n) {
        Set<String> all = new HashSet<>(got.get(0));
        all.addAll(got.get(1));
        assertEquals(n, got.get(0).size() + got.get(1).size(), "deliveries: " + got);
        assertEquals(n, all.size(), "a message went to both consumers: " + got);
    }

    @Test
    @DisplayName("8.3.2: consumers of a shared non-durable subscription share its messages, each to one consumer")
    void sharedNonDurableSplits() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        MessageConsumer a = session().createSharedConsumer(t, name);
        MessageConsumer b = session().createSharedConsumer(t, name);
        send(t, texts(20));
        assertSharedOnce(drainBoth(a, b, 20), 20);
        assertNoMessage(a);
        assertNoMessage(b);
    }

    @Test
    @DisplayName("8.3.2: a shared non-durable subscription is a subscription: it gets every message once, "
            + "besides other subscriptions")
    void sharedNonDurableBesidesOthers() throws JMSException {
        Topic t = topic();
        MessageConsumer plain = session().createConsumer(t);
        MessageConsumer shared = session().createSharedConsumer(t, uniqueSubscriptionName());
        send(t, texts(3));
        assertEquals(List.of(texts(3)), receiveTexts(plain, 3));
        assertEquals(List.of(texts(3)), receiveTexts(shared, 3));
    }

    @Test
    @DisplayName("8.3.2: a shared non-durable subscription lives while one consumer is open")
    void sharedNonDurableLivesWithOneConsumer() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        MessageConsumer a = session().createSharedConsumer(t, name);
        MessageConsumer b = session().createSharedConsumer(t, name);
        a.close();
        send(t, "still shared");
        assertReceivesText(b, "still shared");
    }

    @Test
    @DisplayName("8.3.2: a shared non-durable subscription is deleted with its last consumer")
    void sharedNonDurableDeletedWithLastConsumer() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        Session s = session();
        s.createSharedConsumer(t, name).close();
        send(t, "nobody subscribed");
        MessageConsumer again = s.createSharedConsumer(t, name);
        assertNoMessage(again);
    }

    @Test
    @DisplayName("8.3.2: without client id, consumers on different connections share the same subscription")
    void sharedAcrossConnections() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        MessageConsumer a = session().createSharedConsumer(t, name);
        MessageConsumer b = session().createSharedConsumer(t, name);
        send(t, texts(10));
        assertSharedOnce(drainBoth(a, b, 10), 10);
    }

    @Test
    @DisplayName("8.3.2: with different client ids, the same name identifies different subscriptions")
    void sharedScopedByClientId() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        Connection c1 = connection(uniqueClientId());
        Connection c2 = connection(uniqueClientId());
        c1.start();
        c2.start();
        MessageConsumer a = c1.createSession().createSharedConsumer(t, name);
        MessageConsumer b = c2.createSession().createSharedConsumer(t, name);
        send(t, "each gets one");
        assertReceivesText(a, "each gets one");
        assertReceivesText(b, "each gets one");
    }

    @Test
    @DisplayName("8.3.2: an extra consumer with the same name but another topic, while one is active, is refused "
            + "with JMSException")
    void sharedNonDurableOtherTopicRefused() throws JMSException {
        Topic t1 = topic("one");
        Topic t2 = topic("two");
        String name = uniqueSubscriptionName();
        session().createSharedConsumer(t1, name);
        Session s = session();
        assertThrows(JMSException.class, () -> s.createSharedConsumer(t2, name));
    }

    @Test
    @DisplayName("8.3.2: an extra consumer with the same name but another selector, while one is active, is "
            + "refused with JMSException")
    void sharedNonDurableOtherSelectorRefused() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        session().createSharedConsumer(t, name, "a = 1");
        Session s = session();
        assertThrows(JMSException.class, () -> s.createSharedConsumer(t, name, "a = 2"));
    }

    @Test
    @DisplayName("8.3.2: a shared non-durable subscription with a selector only gets matching messages")
    void sharedNonDurableSelector() throws JMSException {
        Topic t = topic();
        Session s = session();
        MessageConsumer consumer = s.createSharedConsumer(t, uniqueSubscriptionName(), "keep = TRUE");
        for (boolean keep : new boolean[] {true, false, true}) {
            TextMessage m = s.createTextMessage("keep=" + keep);
            m.setBooleanProperty("keep", keep);
            s.createProducer(t).send(m);
        }
        assertEquals(List.of("keep=true", "keep=true"), receiveTexts(consumer, 2));
        assertNoMessage(consumer);
    }

    @Test
    @DisplayName("8.3.2 / 8.3.4: a shared non-durable and a durable subscription with the same name are separate")
    void nonDurableAndDurableSameNameSeparate() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        Session s = session();
        MessageConsumer nonDurable = s.createSharedConsumer(t, name);
        MessageConsumer durable = s.createSharedDurableConsumer(t, name);
        send(t, "two subscriptions");
        assertReceivesText(nonDurable, "two subscriptions");
        assertReceivesText(durable, "two subscriptions");
        durable.close();
        s.unsubscribe(name);
    }

    @Test
    @DisplayName("8.3.4 / 1.2: a shared durable subscription does not need a client id")
    void sharedDurableWithoutClientId() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        Session s = session();
        MessageConsumer consumer = s.createSharedDurableConsumer(t, name);
        send(t, "no client id");
        assertReceivesText(consumer, "no client id");
        consumer.close();
        s.unsubscribe(name);
    }

    @Test
    @DisplayName("8.3.4: consumers of a shared durable subscription share its messages, each to one consumer")
    void sharedDurableSplits() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        MessageConsumer a = session().createSharedDurableConsumer(t, name);
        Session sb = session();
        MessageConsumer b = sb.createSharedDurableConsumer(t, name);
        send(t, texts(20));
        assertSharedOnce(drainBoth(a, b, 20), 20);
        a.close();
        b.close();
        sb.unsubscribe(name);
    }

    @Test
    @DisplayName("8.3.4: a shared durable subscription keeps messages while it has no consumer")
    void sharedDurableRetains() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        Session s = session();
        s.createSharedDurableConsumer(t, name).close();
        send(t, "kept", "also kept");
        MessageConsumer consumer = session().createSharedDurableConsumer(t, name);
        assertEquals(List.of("kept", "also kept"), receiveTexts(consumer, 2));
        consumer.close();
        s.unsubscribe(name);
    }

    @Test
    @DisplayName(
            "8.3.4: an extra consumer with another selector, while one is active, is refused with " + "JMSException")
    void sharedDurableOtherSelectorRefused() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        session().createSharedDurableConsumer(t, name, "a = 1");
        Session s = session();
        assertThrows(JMSException.class, () -> s.createSharedDurableConsumer(t, name, "a = 2"));
    }

    @Test
    @DisplayName("8.3.4: an extra consumer on another topic, while one is active, is refused with JMSException")
    void sharedDurableOtherTopicRefused() throws JMSException {
        Topic t1 = topic("one");
        Topic t2 = topic("two");
        String name = uniqueSubscriptionName();
        session().createSharedDurableConsumer(t1, name);
        Session s = session();
        assertThrows(JMSException.class, () -> s.createSharedDurableConsumer(t2, name));
    }

    @Test
    @KnownDeviation(
            provider = "artemis",
            reason = "8.3.4: Artemis refuses (AMQ229083 'different filter') to re-create an "
                    + "inactive shared durable subscription with another selector, which the spec defines as unsubscribe "
                    + "and create")
    @DisplayName("8.3.4: re-creating an inactive shared durable subscription with another selector replaces it")
    void sharedDurableChangedSelectorReplaces() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        Session s = session();
        s.createSharedDurableConsumer(t, name, "v = 1").close();
        Session sender = connection().createSession();
        TextMessage one = sender.createTextMessage("v1");
        one.setIntProperty("v", 1);
        sender.createProducer(t).send(one);
        MessageConsumer replaced = s.createSharedDurableConsumer(t, name, "v = 2");
        assertNoMessage(replaced);
        TextMessage two = sender.createTextMessage("v2");
        two.setIntProperty("v", 2);
        sender.createProducer(t).send(two);
        assertReceivesText(replaced, "v2");
        replaced.close();
        s.unsubscribe(name);
    }

    @Test
    @DisplayName("8.3.4: unsubscribe deletes a shared durable subscription without consumers")
    void sharedDurableUnsubscribe() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        Session s = session();
        s.createSharedDurableConsumer(t, name).close();
        send(t, "gone");
        s.unsubscribe(name);
        MessageConsumer fresh = s.createSharedDurableConsumer(t, name);
        assertNoMessage(fresh);
        fresh.close();
        s.unsubscribe(name);
    }

    @Test
    @DisplayName("8.3.4: unsubscribing a shared durable subscription with an active consumer throws JMSException")
    void sharedDurableUnsubscribeWhileActive() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        session().createSharedDurableConsumer(t, name);
        Session s = session();
        assertThrows(JMSException.class, () -> s.unsubscribe(name));
    }

    @Test
    @DisplayName("8.3.4: a shared durable subscription created under a client id is resumed under the same id")
    void sharedDurableWithClientId() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        String id = uniqueClientId();
        Connection c = connection(id);
        c.createSession().createSharedDurableConsumer(t, name).close();
        c.close();
        send(t, "for the client");
        Connection again = connection(id);
        again.start();
        Session s = again.createSession();
        MessageConsumer consumer = s.createSharedDurableConsumer(t, name);
        assertReceivesText(consumer, "for the client");
        consumer.close();
        s.unsubscribe(name);
    }
}
