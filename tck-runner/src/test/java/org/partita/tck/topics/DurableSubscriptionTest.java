package org.partita.tck.topics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import jakarta.jms.TopicSubscriber;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.partita.tck.support.KnownDeviation;
import org.partita.tck.support.TckTest;

/** Jakarta Messaging 3.1, sections 4.2.2, 4.2.4 and 8.3.3: unshared durable subscriptions. */
class DurableSubscriptionTest extends TckTest {

    /** A started connection with a fresh client id, and the id. */
    private record Client(Connection connection, String id) {
        Session session() throws JMSException {
            return connection.createSession();
        }
    }

    private Client client() throws JMSException {
        String id = uniqueClientId();
        Connection c = connection(id);
        c.start();
        return new Client(c, id);
    }

    private Client reconnect(String id) throws JMSException {
        Connection c = connection(id);
        c.start();
        return new Client(c, id);
    }

    @Test
    @DisplayName("8.3.3: a durable subscription keeps messages published while it has no consumer")
    void retainsWhileInactive() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        Client client = client();
        Session s = client.session();
        s.createDurableConsumer(t, name).close();
        send(t, "while away");
        assertReceivesText(s.createDurableConsumer(t, name), "while away");
    }

    @Test
    @DisplayName("8.3.3: a durable subscription survives its connection: a new connection with the same client "
            + "id resumes it")
    void resumedByNewConnection() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        Client first = client();
        first.session().createDurableConsumer(t, name);
        first.connection().close();
        send(t, "one", "two");
        Client second = reconnect(first.id());
        MessageConsumer resumed = second.session().createDurableConsumer(t, name);
        assertEquals(List.of("one", "two"), receiveTexts(resumed, 2));
        resumed.close();
        second.session().unsubscribe(name);
    }

    @Test
    @DisplayName("Session.createDurableConsumer / 8.3.3: an unshared durable subscription needs a client id "
            + "(IllegalStateException without one)")
    void needsClientId() throws JMSException {
        Session s = connection().createSession();
        Topic t = topic();
        assertThrows(IllegalStateException.class, () -> s.createDurableConsumer(t, uniqueSubscriptionName()));
    }

    @Test
    @DisplayName("8.3.3: a second active consumer on an unshared durable subscription is refused with JMSException")
    void onlyOneActiveConsumer() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        Client client = client();
        client.session().createDurableConsumer(t, name);
        Session other = client.session();
        assertThrows(JMSException.class, () -> other.createDurableConsumer(t, name));
    }

    @Test
    @DisplayName("8.3.3: unsubscribe deletes the subscription and the messages it held")
    void unsubscribeDeletes() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        Client client = client();
        Session s = client.session();
        s.createDurableConsumer(t, name).close();
        send(t, "dropped with the subscription");
        s.unsubscribe(name);
        MessageConsumer fresh = s.createDurableConsumer(t, name);
        assertNoMessage(fresh);
        send(t, "new");
        assertReceivesText(fresh, "new");
    }

    @Test
    @DisplayName(
            "Session.unsubscribe / 8.3.3: deleting a subscription that has an active consumer throws " + "JMSException")
    void unsubscribeWhileActive() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        Session s = client().session();
        s.createDurableConsumer(t, name);
        assertThrows(JMSException.class, () -> s.unsubscribe(name));
    }

    @Test
    @DisplayName("Session.unsubscribe: an unknown subscription name throws InvalidDestinationException")
    void unsubscribeUnknown() throws JMSException {
        Session s = client().session();
        assertThrows(InvalidDestinationException.class, () -> s.unsubscribe(uniqueSubscriptionName()));
    }

    @Test
    @DisplayName("8.3.3: re-creating an inactive subscription with another selector replaces it (old messages "
            + "are dropped)")
    void changedSelectorReplaces() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        Session s = client().session();
        s.createDurableConsumer(t, name, "kind = 'a'", false).close();
        Session sender = connection().createSession();
        TextMessage m = sender.createTextMessage("old a");
        m.setStringProperty("kind", "a");
        sender.createProducer(t).send(m);
        MessageConsumer replaced = s.createDurableConsumer(t, name, "kind = 'b'", false);
        assertNoMessage(replaced);
        TextMessage b = sender.createTextMessage("new b");
        b.setStringProperty("kind", "b");
        sender.createProducer(t).send(b);
        assertReceivesText(replaced, "new b");
    }

    @Test
    @DisplayName("8.3.3: re-creating an inactive subscription on another topic replaces it")
    void changedTopicReplaces() throws JMSException {
        Topic t1 = topic("one");
        Topic t2 = topic("two");
        String name = uniqueSubscriptionName();
        Session s = client().session();
        s.createDurableConsumer(t1, name).close();
        send(t1, "old topic");
        MessageConsumer replaced = s.createDurableConsumer(t2, name);
        assertNoMessage(replaced);
        send(t2, "new topic");
        assertReceivesText(replaced, "new topic");
    }

    @Test
    @DisplayName("8.3.3: a durable subscription with a selector only retains matching messages")
    void durableSelector() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        Session s = client().session();
        s.createDurableConsumer(t, name, "n > 1", false).close();
        Session sender = connection().createSession();
        for (int i = 0; i < 4; i++) {
            TextMessage m = sender.createTextMessage("n" + i);
            m.setIntProperty("n", i);
            sender.createProducer(t).send(m);
        }
        MessageConsumer consumer = s.createDurableConsumer(t, name, "n > 1", false);
        assertEquals(List.of("n2", "n3"), receiveTexts(consumer, 2));
        assertNoMessage(consumer);
    }

    @Test
    @DisplayName("8.3.3: noLocal=true keeps the own connection's messages out of the durable subscription")
    void durableNoLocal() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        Client client = client();
        Session s = client.session();
        MessageConsumer consumer = s.createDurableConsumer(t, name, null, true);
        s.createProducer(t).send(s.createTextMessage("local"));
        send(t, "remote");
        assertReceivesText(consumer, "remote");
        assertNoMessage(consumer);
    }

    @Test
    @DisplayName("8.3.3: the legacy createDurableSubscriber returns a TopicSubscriber on the subscription")
    void legacyDurableSubscriber() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        Session s = client().session();
        TopicSubscriber sub = s.createDurableSubscriber(t, name);
        assertEquals(t, sub.getTopic());
        send(t, "legacy");
        assertReceivesText(sub, "legacy");
    }

    @Test
    @DisplayName("4.2.4: subscription names may use letters, digits, '_', '.', '-' and have 128 characters")
    void subscriptionNameCharacters() throws JMSException {
        Topic t = topic();
        String base = "Az09_.-" + java.util.UUID.randomUUID().toString().replace("-", "");
        StringBuilder name = new StringBuilder(base);
        while (name.length() < 128) {
            name.append('x');
        }
        String n = name.substring(0, 128);
        Session s = client().session();
        MessageConsumer consumer = s.createDurableConsumer(t, n);
        send(t, "named");
        assertReceivesText(consumer, "named");
        consumer.close();
        s.unsubscribe(n);
    }

    @Test
    @DisplayName("4.2.11: a durable subscription gets all PERSISTENT messages published while inactive, in order")
    void durableGetsAllInOrder() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        Client client = client();
        client.session().createDurableConsumer(t, name).close();
        send(t, texts(20));
        assertEquals(List.of(texts(20)), receiveTexts(client.session().createDurableConsumer(t, name), 20));
    }

    @Test
    @DisplayName("8.3.3: the same subscription name under two client ids names two separate subscriptions")
    void nameScopedByClientId() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        MessageConsumer a = client().session().createDurableConsumer(t, name);
        MessageConsumer b = client().session().createDurableConsumer(t, name);
        send(t, "to both");
        assertReceivesText(a, "to both");
        assertReceivesText(b, "to both");
    }

    @Test
    @KnownDeviation(
            provider = "artemis",
            reason = "8.3.4: Artemis opens a shared durable consumer on an existing unshared durable "
                    + "subscription of the same name and client id instead of throwing JMSException")
    @DisplayName("8.3.3 / 8.3.4: an unshared durable subscription cannot be opened as shared with the same name "
            + "and client id (JMSException)")
    void unsharedThenSharedRefused() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        Client client = client();
        client.session().createDurableConsumer(t, name);
        Session other = client.session();
        assertThrows(JMSException.class, () -> other.createSharedDurableConsumer(t, name));
    }

    @Test
    @DisplayName("8.3.3: a shared durable subscription cannot be opened as unshared with the same name and client "
            + "id (JMSException)")
    void sharedThenUnsharedRefused() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        Client client = client();
        client.session().createSharedDurableConsumer(t, name);
        Session other = client.session();
        assertThrows(JMSException.class, () -> other.createDurableConsumer(t, name));
    }

    @Test
    @DisplayName("8.3.3: messages published after unsubscribe are not kept for the deleted subscription")
    void nothingKeptAfterUnsubscribe() throws JMSException {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        Client client = client();
        Session s = client.session();
        s.createDurableConsumer(t, name).close();
        s.unsubscribe(name);
        send(t, "after unsubscribe");
        MessageConsumer later = s.createDurableConsumer(t, name);
        assertNoMessage(later);
    }
}
