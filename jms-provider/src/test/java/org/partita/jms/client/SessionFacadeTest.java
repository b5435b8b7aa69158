package org.partita.jms.client;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The session, producer and consumer facade over a network-free transport. */
class SessionFacadeTest {
    private final FacadeFixture f;

    SessionFacadeTest() throws JMSException {
        f = new FacadeFixture();
    }

    @AfterEach
    void close() throws JMSException {
        f.close();
    }

    @Test
    void aNullSessionListenerIsTheNoListenerStateAndALaterListenerIsRefused() throws JMSException {
        Session s = f.connection.createSession();
        s.setMessageListener(null);
        assertNull(s.getMessageListener());
        assertThrows(JMSException.class, () -> s.setMessageListener(m -> {}));
        s.close();
        assertThrows(jakarta.jms.IllegalStateException.class, () -> s.setMessageListener(null));
    }

    @Test
    void sentMessagesAreReceivedInOrderAndAcknowledged() throws JMSException {
        Session s = f.connection.createSession();
        Queue q = s.createQueue("q");
        MessageProducer p = s.createProducer(q);
        p.send(s.createTextMessage("one"));
        p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
        p.send(s.createTextMessage("two"));
        MessageConsumer c = s.createConsumer(q);
        assertNull(c.receiveNoWait(), "a stopped connection delivers nothing");
        f.connection.start();
        assertEquals("one", ((TextMessage) c.receive(5_000)).getText());
        assertEquals("two", ((TextMessage) c.receive(5_000)).getText());
        await("the acknowledgements").atMost(Duration.ofSeconds(5)).until(() -> f.transport.unsettled() == 0);
    }

    @Test
    void clientAcknowledgeSettlesOnlyOnAcknowledgeAndRecoverRedelivers() throws JMSException {
        Session s = f.connection.createSession(Session.CLIENT_ACKNOWLEDGE);
        Queue q = s.createQueue("q");
        s.createProducer(q).send(s.createTextMessage("x"));
        MessageConsumer c = s.createConsumer(q);
        f.connection.start();
        Message m = c.receive(5_000);
        assertNotNull(m);
        assertEquals(1, f.transport.unsettled());
        s.recover();
        Message again = c.receive(5_000);
        assertEquals("x", ((TextMessage) again).getText());
        again.acknowledge();
        assertEquals(0, f.transport.unsettled());
    }

    @Test
    void aListenerGetsWhatIsSentOnceTheConnectionStarts() throws Exception {
        Session s = f.connection.createSession();
        Queue q = s.createQueue("q");
        List<String> got = new CopyOnWriteArrayList<>();
        s.createConsumer(q).setMessageListener(m -> {
            try {
                got.add(((TextMessage) m).getText());
            } catch (JMSException e) {
                throw new AssertionError(e);
            }
        });
        MessageProducer p = s.createProducer(q);
        for (int i = 0; i < 20; i++) {
            p.send(s.createTextMessage("m" + i));
        }
        f.connection.start();
        await("20 messages").atMost(Duration.ofSeconds(5)).until(() -> got.size() == 20);
        assertEquals("m0", got.get(0));
        assertEquals("m19", got.get(19));
    }

    @Test
    void aProducerOnAQueueNameWithOptionsDeclaresTheQueueAndAPlainOneDoesNot() throws JMSException {
        Session s = f.connection.createSession();
        s.createProducer(s.createQueue("plain"));
        s.createProducer(null);
        s.createProducer(s.createQueue("fan?mode=fanout&appIds=a,b"));
        assertEquals(1, f.transport.declared().size(), "declared: " + f.transport.declared());
        assertEquals(
                ((org.partita.jms.destination.PartitaDestination) s.createQueue("fan?mode=fanout&appIds=a,b")).encode(),
                f.transport.declared().get(0));
    }

    @Test
    void closingASessionClosesItOnTheNode() throws JMSException {
        Session s = f.connection.createSession();
        assertEquals(1, f.transport.openSessions().size());
        s.close();
        assertEquals(List.of(), f.transport.openSessions());
    }
}
