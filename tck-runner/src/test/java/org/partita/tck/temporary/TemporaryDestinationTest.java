package org.partita.tck.temporary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.QueueConnection;
import jakarta.jms.QueueConnectionFactory;
import jakarta.jms.QueueReceiver;
import jakarta.jms.QueueRequestor;
import jakarta.jms.QueueSession;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicConnectionFactory;
import jakarta.jms.TopicRequestor;
import jakarta.jms.TopicSession;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.partita.tck.support.KnownDeviation;
import org.partita.tck.support.TckTest;

/** Jakarta Messaging 3.1, sections 2.16, 4.1.5, 4.1.7, 4.2.7, 4.2.10 and 6.2.2: temporary destinations. */
class TemporaryDestinationTest extends TckTest {

    @Test
    @DisplayName("6.2.2: a temporary queue receives what is sent to it")
    void temporaryQueueRoundTrip() throws JMSException {
        Session s = session();
        TemporaryQueue tq = s.createTemporaryQueue();
        assertNotNull(tq.getQueueName());
        s.createProducer(tq).send(s.createTextMessage("temp"));
        assertReceivesText(s.createConsumer(tq), "temp");
    }

    @Test
    @DisplayName("6.2.2: each temporary queue is unique")
    void temporaryQueuesUnique() throws JMSException {
        Session s = session();
        TemporaryQueue a = s.createTemporaryQueue();
        TemporaryQueue b = s.createTemporaryQueue();
        assertNotEquals(a.getQueueName(), b.getQueueName());
        s.createProducer(a).send(s.createTextMessage("for a"));
        assertNoMessage(s.createConsumer(b));
        assertReceivesText(s.createConsumer(a), "for a");
    }

    @Test
    @DisplayName("6.2.2: any session of the creating connection may consume from a temporary queue")
    void otherSessionOfSameConnection() throws JMSException {
        Connection c = startedConnection();
        TemporaryQueue tq = c.createSession().createTemporaryQueue();
        Session other = c.createSession();
        other.createProducer(tq).send(other.createTextMessage("same connection"));
        assertReceivesText(other.createConsumer(tq), "same connection");
    }

    @Test
    @DisplayName("4.1.5 / 6.2.2: another connection may not consume from a temporary queue (JMSException)")
    void otherConnectionCannotConsume() throws JMSException {
        TemporaryQueue tq = session().createTemporaryQueue();
        Session other = session();
        assertThrows(JMSException.class, () -> other.createConsumer(tq));
    }

    @Test
    @DisplayName("2.16 / 6.2.2: another connection may send to a temporary queue it was given")
    void otherConnectionCanSend() throws JMSException {
        Session owner = session();
        TemporaryQueue tq = owner.createTemporaryQueue();
        Session other = session();
        other.createProducer(tq).send(other.createTextMessage("reply"));
        assertReceivesText(owner.createConsumer(tq), "reply");
    }

    @Test
    @DisplayName("TemporaryQueue.delete: deleting a temporary queue that has a consumer throws JMSException")
    void deleteWithConsumer() throws JMSException {
        Session s = session();
        TemporaryQueue tq = s.createTemporaryQueue();
        s.createConsumer(tq);
        assertThrows(JMSException.class, tq::delete);
    }

    @Test
    @DisplayName("TemporaryQueue.delete: a temporary queue without consumers can be deleted")
    void deleteWithoutConsumer() throws JMSException {
        Session s = session();
        TemporaryQueue tq = s.createTemporaryQueue();
        MessageConsumer consumer = s.createConsumer(tq);
        consumer.close();
        tq.delete();
    }

    @Test
    @KnownDeviation(
            provider = "artemis",
            reason =
                    "10.3: for a consumer on a deleted temporary queue Artemis throws a plain "
                            + "JMSException, not the InvalidDestinationException the spec requires for a destination no longer valid")
    @DisplayName("10.3: a deleted temporary queue is no longer valid: creating a consumer on it throws "
            + "InvalidDestinationException")
    void deletedIsInvalid() throws JMSException {
        Session s = session();
        TemporaryQueue tq = s.createTemporaryQueue();
        tq.delete();
        assertThrows(InvalidDestinationException.class, () -> s.createConsumer(tq));
    }

    @Test
    @KnownDeviation(
            provider = "artemis",
            reason = "6.2.2 / 10.3: Artemis accepts a send from another connection to a "
                    + "temporary queue whose connection has closed, instead of throwing InvalidDestinationException")
    @DisplayName("6.2.2: a temporary queue is deleted with its connection: it can no longer be sent to "
            + "(InvalidDestinationException)")
    void deletedWithConnection() throws JMSException {
        Connection owner = connection();
        TemporaryQueue tq = owner.createSession().createTemporaryQueue();
        owner.close();
        Session other = session();
        assertThrows(
                InvalidDestinationException.class,
                () -> other.createProducer(tq).send(other.createTextMessage("too late")));
    }

    @Test
    @DisplayName("4.2.7: a temporary topic delivers to subscribers of its connection")
    void temporaryTopicRoundTrip() throws JMSException {
        Session s = session();
        TemporaryTopic tt = s.createTemporaryTopic();
        assertNotNull(tt.getTopicName());
        MessageConsumer sub = s.createConsumer(tt);
        s.createProducer(tt).send(s.createTextMessage("temp topic"));
        assertReceivesText(sub, "temp topic");
    }

    @Test
    @DisplayName("4.2.7: another connection may not subscribe to a temporary topic (JMSException)")
    void temporaryTopicOtherConnection() throws JMSException {
        TemporaryTopic tt = session().createTemporaryTopic();
        Session other = session();
        assertThrows(JMSException.class, () -> other.createConsumer(tt));
    }

    @Test
    @DisplayName("4.2.7: another connection may publish to a temporary topic it was given")
    void temporaryTopicOtherConnectionPublishes() throws JMSException {
        Session owner = session();
        TemporaryTopic tt = owner.createTemporaryTopic();
        MessageConsumer sub = owner.createConsumer(tt);
        Session other = session();
        other.createProducer(tt).send(other.createTextMessage("from outside"));
        assertReceivesText(sub, "from outside");
    }

    @Test
    @DisplayName("TemporaryTopic.delete: deleting a temporary topic that has a subscriber throws JMSException")
    void deleteTopicWithSubscriber() throws JMSException {
        Session s = session();
        TemporaryTopic tt = s.createTemporaryTopic();
        s.createConsumer(tt);
        assertThrows(JMSException.class, tt::delete);
    }

    @Test
    @DisplayName("TemporaryTopic.delete: a temporary topic without subscribers can be deleted")
    void deleteTopicWithoutSubscriber() throws JMSException {
        TemporaryTopic tt = session().createTemporaryTopic();
        tt.delete();
    }

    @Test
    @DisplayName("2.16 / 3.4.5 / 3.4.6: request/reply with a temporary queue as JMSReplyTo and the request's "
            + "JMSMessageID as JMSCorrelationID")
    void requestReply() throws Exception {
        Queue service = queue("service");
        Session serverSession = session();
        MessageConsumer requests = serverSession.createConsumer(service);
        var serverProducer = serverSession.createProducer(null);
        Thread server = new Thread(() -> {
            try {
                Message request = requests.receive(RECEIVE_TIMEOUT);
                TextMessage reply = serverSession.createTextMessage("echo: " + ((TextMessage) request).getText());
                reply.setJMSCorrelationID(request.getJMSMessageID());
                serverProducer.send(request.getJMSReplyTo(), reply);
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
        });
        server.start();
        Session client = session();
        TemporaryQueue replies = client.createTemporaryQueue();
        TextMessage request = client.createTextMessage("ping");
        request.setJMSReplyTo(replies);
        client.createProducer(service).send(request);
        Message reply = receive(client.createConsumer(replies));
        assertEquals("echo: ping", ((TextMessage) reply).getText());
        assertEquals(request.getJMSMessageID(), reply.getJMSCorrelationID());
        server.join(RECEIVE_TIMEOUT);
    }

    @Test
    @DisplayName("2.16: request/reply with a temporary topic as JMSReplyTo")
    void requestReplyTemporaryTopic() throws Exception {
        Queue service = queue("service");
        Session serverSession = session();
        serverSession.createConsumer(service).setMessageListener(m -> {
            try {
                serverSession.createProducer(m.getJMSReplyTo()).send(serverSession.createTextMessage("pong"));
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
        });
        Session client = session();
        TemporaryTopic replies = client.createTemporaryTopic();
        MessageConsumer replyConsumer = client.createConsumer(replies);
        TextMessage request = client.createTextMessage("ping");
        request.setJMSReplyTo(replies);
        client.createProducer(service).send(request);
        assertReceivesText(replyConsumer, "pong");
    }

    @Test
    @DisplayName("4.1.7: QueueRequestor sends a request and waits for the reply on a temporary queue")
    void queueRequestor() throws Exception {
        Queue service = queue("service");
        Session serverSession = session();
        CountDownLatch served = new CountDownLatch(1);
        serverSession.createConsumer(service).setMessageListener(m -> {
            try {
                serverSession
                        .createProducer(m.getJMSReplyTo())
                        .send(serverSession.createTextMessage("answer to " + ((TextMessage) m).getText()));
                served.countDown();
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
        });
        QueueConnection qc = track(((QueueConnectionFactory) connectionFactory()).createQueueConnection());
        qc.start();
        QueueSession qs = qc.createQueueSession(false, Session.AUTO_ACKNOWLEDGE);
        QueueRequestor requestor = new QueueRequestor(qs, service);
        Message reply = requestor.request(qs.createTextMessage("question"));
        assertEquals("answer to question", ((TextMessage) reply).getText());
        assertTrue(served.await(1, TimeUnit.SECONDS));
        requestor.close();
    }

    @Test
    @DisplayName("4.2.10: TopicRequestor publishes a request and waits for the reply on a temporary topic")
    void topicRequestor() throws Exception {
        Topic service = topic("service");
        Session serverSession = session();
        serverSession.createConsumer(service).setMessageListener(m -> {
            try {
                serverSession.createProducer(m.getJMSReplyTo()).send(serverSession.createTextMessage("reply"));
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
        });
        TopicConnection tc = track(((TopicConnectionFactory) connectionFactory()).createTopicConnection());
        tc.start();
        TopicSession ts = tc.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
        TopicRequestor requestor = new TopicRequestor(ts, service);
        Message reply = requestor.request(ts.createTextMessage("question"));
        assertEquals("reply", ((TextMessage) reply).getText());
        requestor.close();
    }

    @Test
    @DisplayName("4.1.5: a QueueSession creates temporary queues usable with QueueReceiver")
    void legacyTemporaryQueue() throws JMSException {
        QueueConnection qc = track(((QueueConnectionFactory) connectionFactory()).createQueueConnection());
        qc.start();
        QueueSession qs = qc.createQueueSession(false, Session.AUTO_ACKNOWLEDGE);
        TemporaryQueue tq = qs.createTemporaryQueue();
        qs.createSender(tq).send(qs.createTextMessage("legacy temp"));
        QueueReceiver receiver = qs.createReceiver(tq);
        assertEquals(tq, receiver.getQueue());
        assertReceivesText(receiver, "legacy temp");
    }
}
