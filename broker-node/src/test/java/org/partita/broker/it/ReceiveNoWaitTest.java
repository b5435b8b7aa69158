package org.partita.broker.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import jakarta.jms.Connection;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * receiveNoWait with the default prefetch window: a message the queue already holds when the call is
 * made is returned, even when it was sent a moment before and its delivery is still on the way.
 */
@Timeout(60)
@Tag("slow")
class ReceiveNoWaitTest {
    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    @Test
    void aMessageSentJustBeforeIsReturned() throws Exception {
        int n = 200;
        try (Connection sender = node.factory().createConnection();
                Connection receiver = node.factory().createConnection()) {
            Session ps = sender.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Session cs = receiver.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = cs.createQueue("polled");
            MessageConsumer consumer = cs.createConsumer(q);
            receiver.start();
            assertNull(consumer.receiveNoWait(), "nothing sent yet");
            MessageProducer producer = ps.createProducer(q);
            for (int i = 0; i < n; i++) {
                producer.send(ps.createTextMessage("m" + i));
                Message m = consumer.receiveNoWait();
                assertNotNull(m, "message " + i + " was stored before receiveNoWait was called");
                assertEquals("m" + i, ((TextMessage) m).getText());
            }
            assertNull(consumer.receiveNoWait());
        }
    }

    @Test
    void receiveBodyNoWaitOnAJmsContextToo() {
        try (JMSContext producer = node.factory().createContext();
                JMSContext receiver = node.factory().createContext()) {
            Queue q = receiver.createQueue("polled-context");
            JMSConsumer consumer = receiver.createConsumer(q);
            for (int i = 0; i < 200; i++) {
                producer.createProducer().send(q, "b" + i);
                assertEquals("b" + i, consumer.receiveBodyNoWait(String.class));
            }
            assertNull(consumer.receiveBodyNoWait(String.class));
        }
    }

    @Test
    void aStoppedConnectionStillReceivesNothing() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = s.createQueue("held");
            MessageConsumer consumer = s.createConsumer(q);
            s.createProducer(q).send(s.createTextMessage("later"));
            assertNull(consumer.receiveNoWait(), "the connection is not started");
            c.start();
            assertEquals("later", ((TextMessage) consumer.receiveNoWait()).getText());
        }
    }
}
