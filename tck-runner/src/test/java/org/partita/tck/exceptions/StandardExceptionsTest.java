package org.partita.tck.exceptions;

import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.jms.BytesMessage;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotReadableException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.Queue;
import jakarta.jms.QueueConnection;
import jakarta.jms.QueueConnectionFactory;
import jakarta.jms.QueueSession;
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicConnectionFactory;
import jakarta.jms.TopicSession;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.partita.tck.support.KnownDeviation;
import org.partita.tck.support.TckTest;

/**
 * Jakarta Messaging 3.1, chapter 10 (the standard exceptions, in the cases where the spec says
 * "must be") and section 9.2 (methods a domain-specific session must refuse).
 */
class StandardExceptionsTest extends TckTest {

    /** A queue session whose connection has a client id, so that topic methods fail for the domain only. */
    private QueueSession queueSession() throws JMSException {
        QueueConnection c = track(((QueueConnectionFactory) connectionFactory()).createQueueConnection());
        c.setClientID(uniqueClientId());
        return c.createQueueSession(false, Session.AUTO_ACKNOWLEDGE);
    }

    private TopicSession topicSession() throws JMSException {
        TopicConnection c = track(((TopicConnectionFactory) connectionFactory()).createTopicConnection());
        return c.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
    }

    @Test
    @DisplayName("10.3: an invalid selector on createConsumer throws InvalidSelectorException")
    void invalidSelectorConsumer() throws JMSException {
        Session s = connection().createSession();
        Queue q = queue();
        assertThrows(InvalidSelectorException.class, () -> s.createConsumer(q, "color = "));
    }

    @Test
    @DisplayName("10.3: an invalid selector on a topic subscription throws InvalidSelectorException")
    void invalidSelectorTopic() throws JMSException {
        Session s = connection().createSession();
        Topic t = topic();
        assertThrows(InvalidSelectorException.class, () -> s.createConsumer(t, "x IN 3", false));
    }

    @Test
    @DisplayName("10.3: an invalid selector on a shared subscription throws InvalidSelectorException")
    void invalidSelectorShared() throws JMSException {
        Session s = connection().createSession();
        Topic t = topic();
        assertThrows(
                InvalidSelectorException.class, () -> s.createSharedConsumer(t, uniqueSubscriptionName(), "((a = 1)"));
    }

    @Test
    @DisplayName("10.3: an invalid selector on a durable subscription throws InvalidSelectorException")
    void invalidSelectorDurable() throws JMSException {
        Session s = connection(uniqueClientId()).createSession();
        Topic t = topic();
        assertThrows(
                InvalidSelectorException.class,
                () -> s.createDurableConsumer(t, uniqueSubscriptionName(), "a LIKE", false));
    }

    @Test
    @DisplayName("10.3: a null destination on a topic session subscription throws InvalidDestinationException")
    void invalidDestinationSubscriber() throws JMSException {
        TopicSession s = topicSession();
        assertThrows(InvalidDestinationException.class, () -> s.createSubscriber(null));
    }

    @Test
    @DisplayName("10.3: a null topic for a durable subscription throws InvalidDestinationException")
    void invalidDestinationDurable() throws JMSException {
        Session s = connection(uniqueClientId()).createSession();
        assertThrows(InvalidDestinationException.class, () -> s.createDurableConsumer(null, uniqueSubscriptionName()));
    }

    @Test
    @DisplayName("10.3: writing to a received message body throws MessageNotWriteableException")
    void messageNotWriteable() throws JMSException {
        Session s = session();
        TextMessage r = roundTrip(s, s.createTextMessage("read only"));
        assertThrows(MessageNotWriteableException.class, () -> r.setText("x"));
    }

    @Test
    @DisplayName("10.3: reading a BytesMessage in write-only mode throws MessageNotReadableException")
    void messageNotReadable() throws JMSException {
        BytesMessage m = connection().createSession().createBytesMessage();
        assertThrows(MessageNotReadableException.class, m::readByte);
    }

    @Test
    @DisplayName("10.3: reading past the end of a StreamMessage throws MessageEOFException")
    void messageEof() throws JMSException {
        StreamMessage m = connection().createSession().createStreamMessage();
        m.reset();
        assertThrows(MessageEOFException.class, m::readBoolean);
    }

    @Test
    @DisplayName("10.3: StreamMessage.readShort of a boolean throws MessageFormatException")
    void messageFormatReadShort() throws JMSException {
        StreamMessage m = connection().createSession().createStreamMessage();
        m.writeBoolean(false);
        m.reset();
        assertThrows(MessageFormatException.class, m::readShort);
    }

    @Test
    @DisplayName("10.3: StreamMessage.writeObject of an unsupported class throws MessageFormatException")
    void messageFormatWriteObject() throws JMSException {
        StreamMessage m = connection().createSession().createStreamMessage();
        assertThrows(MessageFormatException.class, () -> m.writeObject(new Object()));
    }

    @Test
    @DisplayName("10.3: reading a non-numeric String property as a number throws NumberFormatException")
    void numberFormat() throws JMSException {
        TextMessage m = connection().createSession().createTextMessage();
        m.setStringProperty("n", "abc");
        assertThrows(NumberFormatException.class, () -> m.getShortProperty("n"));
    }

    @Test
    @DisplayName("10.3: Session.commit on a non-transacted session throws IllegalStateException")
    void commitNonTransacted() throws JMSException {
        Session s = connection().createSession(Session.DUPS_OK_ACKNOWLEDGE);
        assertThrows(IllegalStateException.class, s::commit);
    }

    @Test
    @DisplayName("9.2 / 10.3: TopicSession.createBrowser throws IllegalStateException")
    void topicSessionCreateBrowser() throws JMSException {
        TopicSession s = topicSession();
        Queue q = queue();
        assertThrows(IllegalStateException.class, () -> s.createBrowser(q));
    }

    @Test
    @DisplayName("9.2: TopicSession.createQueue throws IllegalStateException")
    void topicSessionCreateQueue() throws JMSException {
        TopicSession s = topicSession();
        assertThrows(IllegalStateException.class, () -> s.createQueue("q"));
    }

    @Test
    @DisplayName("9.2: TopicSession.createTemporaryQueue throws IllegalStateException")
    void topicSessionCreateTemporaryQueue() throws JMSException {
        TopicSession s = topicSession();
        assertThrows(IllegalStateException.class, s::createTemporaryQueue);
    }

    @Test
    @DisplayName("9.2: QueueSession.createTopic throws IllegalStateException")
    void queueSessionCreateTopic() throws JMSException {
        QueueSession s = queueSession();
        assertThrows(IllegalStateException.class, () -> s.createTopic("t"));
    }

    @Test
    @DisplayName("9.2: QueueSession.createTemporaryTopic throws IllegalStateException")
    void queueSessionCreateTemporaryTopic() throws JMSException {
        QueueSession s = queueSession();
        assertThrows(IllegalStateException.class, s::createTemporaryTopic);
    }

    @Test
    @DisplayName("9.2: QueueSession.createDurableSubscriber throws IllegalStateException")
    void queueSessionCreateDurableSubscriber() throws JMSException {
        QueueSession s = queueSession();
        Topic t = topic();
        assertThrows(IllegalStateException.class, () -> s.createDurableSubscriber(t, "sub"));
    }

    @Test
    @DisplayName("9.2: QueueSession.createDurableConsumer throws IllegalStateException")
    void queueSessionCreateDurableConsumer() throws JMSException {
        QueueSession s = queueSession();
        Topic t = topic();
        assertThrows(IllegalStateException.class, () -> s.createDurableConsumer(t, "sub"));
    }

    @Test
    @DisplayName("9.2: QueueSession.createSharedConsumer throws IllegalStateException")
    void queueSessionCreateSharedConsumer() throws JMSException {
        QueueSession s = queueSession();
        Topic t = topic();
        assertThrows(IllegalStateException.class, () -> s.createSharedConsumer(t, "sub"));
    }

    @Test
    @DisplayName("9.2: QueueSession.createSharedDurableConsumer throws IllegalStateException")
    void queueSessionCreateSharedDurableConsumer() throws JMSException {
        QueueSession s = queueSession();
        Topic t = topic();
        assertThrows(IllegalStateException.class, () -> s.createSharedDurableConsumer(t, "sub"));
    }

    @Test
    @DisplayName("9.2: QueueSession.unsubscribe throws IllegalStateException")
    void queueSessionUnsubscribe() throws JMSException {
        QueueSession s = queueSession();
        assertThrows(IllegalStateException.class, () -> s.unsubscribe("sub"));
    }

    @Test
    @KnownDeviation(
            provider = "artemis",
            reason = "9.2: Artemis does not throw IllegalStateException from "
                    + "QueueConnection.createSharedConnectionConsumer")
    @DisplayName("9.2: QueueConnection.createSharedConnectionConsumer throws IllegalStateException")
    void queueConnectionSharedConnectionConsumer() throws JMSException {
        QueueConnection c = track(((QueueConnectionFactory) connectionFactory()).createQueueConnection());
        Topic t = topic();
        assertThrows(IllegalStateException.class, () -> c.createSharedConnectionConsumer(t, "sub", null, null, 1));
    }

    @Test
    @DisplayName("9.2: QueueConnection.createDurableConnectionConsumer throws IllegalStateException")
    void queueConnectionDurableConnectionConsumer() throws JMSException {
        QueueConnection c = track(((QueueConnectionFactory) connectionFactory()).createQueueConnection());
        Topic t = topic();
        assertThrows(IllegalStateException.class, () -> c.createDurableConnectionConsumer(t, "sub", null, null, 1));
    }

    @Test
    @KnownDeviation(
            provider = "artemis",
            reason = "9.2: Artemis does not throw IllegalStateException from "
                    + "QueueConnection.createSharedDurableConnectionConsumer")
    @DisplayName("9.2: QueueConnection.createSharedDurableConnectionConsumer throws IllegalStateException")
    void queueConnectionSharedDurableConnectionConsumer() throws JMSException {
        QueueConnection c = track(((QueueConnectionFactory) connectionFactory()).createQueueConnection());
        Topic t = topic();
        assertThrows(
                IllegalStateException.class, () -> c.createSharedDurableConnectionConsumer(t, "sub", null, null, 1));
    }

    @Test
    @DisplayName("10.2: every standard exception is a JMSException; a failing call names a reason")
    void standardExceptionsAreJmsExceptions() throws JMSException {
        Session s = connection().createSession();
        JMSException e = assertThrows(JMSException.class, s::commit);
        org.junit.jupiter.api.Assertions.assertNotNull(e.getMessage());
    }
}
