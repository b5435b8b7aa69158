package org.partita.tck.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.partita.tck.support.KnownDeviation;
import org.partita.tck.support.TckTest;

/**
 * Jakarta Messaging 3.1, 6.1.3 and 6.1.4: a connection that is not started, or stopped, delivers no
 * messages to its consumers, so a queue's messages go to a consumer that can take them.
 */
class StoppedConnectionDeliveryTest extends TckTest {

    @Test
    @DisplayName(
            "6.1.3 / a consumer on a connection not yet started takes nothing: a started consumer on the same queue receives every message")
    void consumerOnUnstartedConnectionHoldsNothing() throws JMSException {
        Queue q = queue();
        Connection idle = connection();
        Session idleSession = idle.createSession(false, Session.AUTO_ACKNOWLEDGE);
        idleSession.createConsumer(q);
        Connection active = startedConnection();
        MessageConsumer consumer =
                active.createSession(false, Session.AUTO_ACKNOWLEDGE).createConsumer(q);
        send(q, texts(20));
        List<String> got = receiveTexts(consumer, 20);
        assertEquals(List.of(texts(20)), got);
    }

    @Test
    @KnownDeviation(
            provider = "artemis",
            reason = "6.1.4 asks only that delivery stops; Artemis keeps what a stopped"
                    + " consumer prefetched, so it waits for the restart instead of going to another consumer")
    @DisplayName(
            "6.1.4 / Connection.stop(): a stopped connection's consumer gives up what it buffered; a started consumer receives it")
    void stoppedConnectionGivesBackItsMessages() throws JMSException {
        Queue q = queue();
        Connection first = startedConnection();
        MessageConsumer firstConsumer =
                first.createSession(false, Session.AUTO_ACKNOWLEDGE).createConsumer(q);
        send(q, texts(10));
        assertEquals("m0", receiveText(firstConsumer));
        first.stop();
        MessageConsumer second = startedConnection()
                .createSession(false, Session.AUTO_ACKNOWLEDGE)
                .createConsumer(q);
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            Message m = receive(second);
            String text = ((TextMessage) m).getText();
            rest.add(text);
            // a buffered message the stopped consumer never handed to the application was not delivered (3.5.11)
            assertFalse(m.getJMSRedelivered(), text + " was given back, not delivered, so it is not redelivered");
            assertEquals(1, m.getIntProperty("JMSXDeliveryCount"), text + ": first delivery");
        }
        assertEquals(List.of(texts(10)).subList(1, 10), rest);
        assertNoMessage(second);
    }

    @Test
    @DisplayName("6.1.4 / Connection.start() after stop(): the consumer receives again")
    void restartedConnectionDeliversAgain() throws JMSException {
        Queue q = queue();
        Connection c = startedConnection();
        MessageConsumer consumer =
                c.createSession(false, Session.AUTO_ACKNOWLEDGE).createConsumer(q);
        c.stop();
        send(q, texts(3));
        assertEquals(null, consumer.receive(ABSENCE_TIMEOUT), "a stopped connection delivers nothing");
        c.start();
        assertEquals(List.of(texts(3)), receiveTexts(consumer, 3));
    }
}
