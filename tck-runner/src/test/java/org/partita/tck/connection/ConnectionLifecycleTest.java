package org.partita.tck.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.partita.tck.support.TckTest;

/** Jakarta Messaging 3.1, section 6.1: starting, stopping and closing a connection. */
class ConnectionLifecycleTest extends TckTest {

    @Test
    @DisplayName("6.1.4: a new connection is stopped: no message is delivered before start()")
    void newConnectionIsStopped() throws JMSException {
        Queue q = queue();
        send(q, "hello");
        Connection c = connection();
        MessageConsumer consumer =
                c.createSession(false, Session.AUTO_ACKNOWLEDGE).createConsumer(q);
        assertNoMessage(consumer);
        c.start();
        assertReceivesText(consumer, "hello");
    }

    @Test
    @DisplayName("6.1.4: a stopped connection can still send messages")
    void stoppedConnectionCanSend() throws JMSException {
        Queue q = queue();
        Connection c = connection();
        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        s.createProducer(q).send(s.createTextMessage("sent while stopped"));
        Session reader = startedConnection().createSession(false, Session.AUTO_ACKNOWLEDGE);
        assertReceivesText(reader.createConsumer(q), "sent while stopped");
    }

    @Test
    @DisplayName("6.1.5: stop() inhibits synchronous receives until start()")
    void stopPausesSynchronousDelivery() throws JMSException {
        Queue q = queue();
        Connection c = startedConnection();
        MessageConsumer consumer =
                c.createSession(false, Session.AUTO_ACKNOWLEDGE).createConsumer(q);
        send(q, "first");
        assertReceivesText(consumer, "first");
        c.stop();
        send(q, "second");
        assertNoMessage(consumer);
        c.start();
        assertReceivesText(consumer, "second");
    }

    @Test
    @DisplayName("6.1.5: stop() inhibits delivery to message listeners until start()")
    void stopPausesAsynchronousDelivery() throws Exception {
        Queue q = queue();
        Connection c = startedConnection();
        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        CountDownLatch first = new CountDownLatch(1);
        CountDownLatch second = new CountDownLatch(2);
        s.createConsumer(q).setMessageListener(m -> {
            first.countDown();
            second.countDown();
        });
        send(q, "a");
        assertTrue(first.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS));
        c.stop();
        send(q, "b");
        assertTrue(!second.await(ABSENCE_TIMEOUT, TimeUnit.MILLISECONDS), "listener called while stopped");
        c.start();
        assertTrue(second.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS));
    }

    @Test
    @DisplayName("6.1.5: stopping a stopped connection and starting a started one are ignored")
    void redundantStartAndStopAreIgnored() throws JMSException {
        Queue q = queue();
        Connection c = connection();
        c.stop();
        c.stop();
        c.start();
        c.start();
        send(q, "x");
        assertReceivesText(c.createSession(false, Session.AUTO_ACKNOWLEDGE).createConsumer(q), "x");
    }

    @Test
    @DisplayName("6.1.5: receive timers keep running while stopped; receive(timeout) returns null")
    void receiveTimesOutWhileStopped() throws JMSException {
        Queue q = queue();
        send(q, "waiting");
        Connection c = connection();
        MessageConsumer consumer =
                c.createSession(false, Session.AUTO_ACKNOWLEDGE).createConsumer(q);
        long start = System.nanoTime();
        assertNull(consumer.receive(300));
        assertTrue((System.nanoTime() - start) / 1_000_000 < RECEIVE_TIMEOUT, "receive(300) did not time out");
    }

    @Test
    @DisplayName("6.1.5: stop() does not return until running message listeners have returned")
    void stopWaitsForRunningListener() throws Exception {
        Queue q = queue();
        Connection c = startedConnection();
        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        CountDownLatch entered = new CountDownLatch(1);
        AtomicBoolean finished = new AtomicBoolean();
        s.createConsumer(q).setMessageListener(m -> {
            entered.countDown();
            sleep(500);
            finished.set(true);
        });
        send(q, "slow");
        assertTrue(entered.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS));
        c.stop();
        assertTrue(finished.get(), "stop() returned while the listener was still running");
    }

    @Test
    @DisplayName("6.1.5: a MessageListener that stops its own connection gets IllegalStateException, and the "
            + "connection keeps delivering")
    void listenerMayNotStopItsOwnConnection() throws Exception {
        Queue q = queue();
        Connection c = startedConnection();
        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        BlockingQueue<String> outcomes = new LinkedBlockingQueue<>();
        s.createConsumer(q).setMessageListener(m -> {
            try {
                c.stop(); // would wait for this very listener to return: the provider must refuse it
                outcomes.add("stop() returned");
            } catch (IllegalStateException expected) {
                outcomes.add("IllegalStateException");
            } catch (Throwable t) {
                outcomes.add(t.toString());
            }
        });
        send(q, "first", "second");
        assertEquals(
                "IllegalStateException",
                outcomes.poll(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS),
                "the listener's stop() neither threw IllegalStateException nor returned (deadlocked?)");
        assertEquals(
                "IllegalStateException",
                outcomes.poll(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS),
                "the connection is still started: the second message reaches the listener");
    }

    @Test
    @DisplayName("6.1.8: closing a closed connection does not throw")
    void closeTwice() throws JMSException {
        Connection c = connection();
        c.close();
        c.close();
    }

    @Test
    @DisplayName("6.1.8: a closed connection refuses createSession with IllegalStateException")
    void closedConnectionRefusesCreateSession() throws JMSException {
        Connection c = connection();
        c.close();
        assertThrows(IllegalStateException.class, () -> c.createSession(false, Session.AUTO_ACKNOWLEDGE));
    }

    @Test
    @DisplayName("6.1.8: a closed connection refuses start with IllegalStateException")
    void closedConnectionRefusesStart() throws JMSException {
        Connection c = connection();
        c.close();
        assertThrows(IllegalStateException.class, c::start);
    }

    @Test
    @DisplayName("6.1.8: sessions of a closed connection throw IllegalStateException")
    void sessionsOfClosedConnectionAreClosed() throws JMSException {
        Connection c = connection();
        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        c.close();
        assertThrows(IllegalStateException.class, () -> s.createProducer(null));
    }

    @Test
    @DisplayName("6.1.8: producers of a closed connection throw IllegalStateException on send")
    void producersOfClosedConnectionAreClosed() throws JMSException {
        Queue q = queue();
        Connection c = connection();
        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageProducer p = s.createProducer(q);
        TextMessage m = s.createTextMessage("late");
        c.close();
        assertThrows(IllegalStateException.class, () -> p.send(m));
    }

    @Test
    @DisplayName("6.1.8: consumers of a closed connection throw IllegalStateException on receive")
    void consumersOfClosedConnectionAreClosed() throws JMSException {
        Queue q = queue();
        Connection c = startedConnection();
        MessageConsumer consumer =
                c.createSession(false, Session.AUTO_ACKNOWLEDGE).createConsumer(q);
        c.close();
        assertThrows(IllegalStateException.class, () -> consumer.receive(100));
    }

    @Test
    @DisplayName("6.1.8: closing a connection rolls back its transacted sessions' sends")
    void closeRollsBackSends() throws JMSException {
        Queue q = queue();
        Connection c = connection();
        Session s = c.createSession(true, Session.SESSION_TRANSACTED);
        s.createProducer(q).send(s.createTextMessage("never committed"));
        c.close();
        assertNoMessage(session().createConsumer(q));
    }

    @Test
    @DisplayName("6.1.8: closing a connection rolls back its transacted sessions' receives")
    void closeRollsBackReceives() throws JMSException {
        Queue q = queue();
        send(q, "consumed then rolled back");
        Connection c = startedConnection();
        Session s = c.createSession(true, Session.SESSION_TRANSACTED);
        assertReceivesText(s.createConsumer(q), "consumed then rolled back");
        c.close();
        Message again = receive(session().createConsumer(q));
        assertTrue(again.getJMSRedelivered(), "a message received again must be marked redelivered");
    }

    @Test
    @DisplayName("6.1.8: closing a connection does not acknowledge CLIENT_ACKNOWLEDGE messages")
    void closeDoesNotAcknowledge() throws JMSException {
        Queue q = queue();
        send(q, "unacknowledged");
        Connection c = startedConnection();
        Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
        assertReceivesText(s.createConsumer(q), "unacknowledged");
        c.close();
        Message again = receive(session().createConsumer(q));
        assertEquals("unacknowledged", ((TextMessage) again).getText());
        assertTrue(again.getJMSRedelivered());
    }

    @Test
    @DisplayName("6.1.8: acknowledge() on a message from a closed connection throws IllegalStateException")
    void acknowledgeAfterCloseThrows() throws JMSException {
        Queue q = queue();
        send(q, "m");
        Connection c = startedConnection();
        Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
        Message m = receive(s.createConsumer(q));
        c.close();
        assertThrows(IllegalStateException.class, m::acknowledge);
    }

    @Test
    @DisplayName("6.1.8: messages received through a closed connection stay readable")
    void messagesStayUsableAfterClose() throws JMSException {
        Queue q = queue();
        send(q, "still readable");
        Connection c = startedConnection();
        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        TextMessage m = (TextMessage) receive(s.createConsumer(q));
        TextMessage created = s.createTextMessage("created");
        c.close();
        assertEquals("still readable", m.getText());
        assertEquals("created", created.getText());
        assertNotNull(m.getJMSMessageID());
    }

    @Test
    @DisplayName("6.1.8: close() terminates a pending receive, which returns")
    void closeTerminatesPendingReceive() throws Exception {
        Queue q = queue();
        Connection c = startedConnection();
        MessageConsumer consumer =
                c.createSession(false, Session.AUTO_ACKNOWLEDGE).createConsumer(q);
        CountDownLatch returned = new CountDownLatch(1);
        AtomicReference<Object> result = new AtomicReference<>("not returned");
        startBlocked(() -> {
            try {
                result.set(consumer.receive());
            } catch (JMSException e) {
                result.set(e);
            }
            returned.countDown();
        });
        c.close();
        assertTrue(returned.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS), "receive() did not return on close");
        assertTrue(result.get() == null || result.get() instanceof JMSException, "receive() returned " + result.get());
    }

    @Test
    @DisplayName("6.1.8: close() does not return until running message listeners have returned")
    void closeWaitsForRunningListener() throws Exception {
        Queue q = queue();
        Connection c = startedConnection();
        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        CountDownLatch entered = new CountDownLatch(1);
        AtomicBoolean finished = new AtomicBoolean();
        s.createConsumer(q).setMessageListener(m -> {
            entered.countDown();
            sleep(500);
            finished.set(true);
        });
        send(q, "slow");
        assertTrue(entered.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS));
        c.close();
        assertTrue(finished.get(), "close() returned while the listener was still running");
    }
}
