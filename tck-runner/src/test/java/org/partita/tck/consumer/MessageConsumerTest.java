package org.partita.tck.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageListener;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.partita.tck.support.TckTest;

/** Jakarta Messaging 3.1, chapter 8 (receiving messages) and queue semantics (4.1). */
class MessageConsumerTest extends TckTest {

    @Test
    @DisplayName("8.5: receive(timeout) returns null when no message arrives in time")
    void receiveTimeoutReturnsNull() throws JMSException {
        MessageConsumer consumer = session().createConsumer(queue());
        long start = System.nanoTime();
        assertNull(consumer.receive(300));
        assertTrue((System.nanoTime() - start) / 1_000_000 >= 250, "receive(300) returned too early");
    }

    @Test
    @DisplayName("8.5: receiveNoWait returns null when no message is available")
    void receiveNoWaitEmpty() throws JMSException {
        assertNull(session().createConsumer(queue()).receiveNoWait());
    }

    @Test
    @DisplayName("8.5: receiveNoWait returns a message once one is available")
    void receiveNoWaitAvailable() throws JMSException {
        Queue q = queue();
        MessageConsumer consumer = session().createConsumer(q);
        send(q, "ready");
        long deadline = System.currentTimeMillis() + RECEIVE_TIMEOUT;
        Message m = null;
        while (m == null && System.currentTimeMillis() < deadline) {
            m = consumer.receiveNoWait();
            if (m == null) {
                sleep(20);
            }
        }
        assertNotNull(m);
        assertEquals("ready", ((TextMessage) m).getText());
    }

    @Test
    @DisplayName("8.5: receive() blocks until a message arrives")
    void receiveBlocksUntilMessage() throws Exception {
        Queue q = queue();
        MessageConsumer consumer = session().createConsumer(q);
        Thread sender = new Thread(() -> {
            sleep(300);
            try {
                send(q, "late");
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
        });
        sender.start();
        Message m = consumer.receive();
        assertEquals("late", ((TextMessage) m).getText());
        sender.join();
    }

    @Test
    @DisplayName("4.1.8: a queue keeps messages sent while no consumer exists")
    void queueRetainsMessagesWithoutConsumer() throws JMSException {
        Queue q = queue();
        send(q, "kept");
        sleep(200);
        assertReceivesText(session().createConsumer(q), "kept");
    }

    @Test
    @DisplayName("4.1.2: with several consumers on a queue each message goes to exactly one of them")
    void eachMessageToOneConsumer() throws Exception {
        Queue q = queue();
        Connection c = startedConnection();
        Set<String> seen = Collections.synchronizedSet(new HashSet<>());
        List<String> duplicates = new CopyOnWriteArrayList<>();
        CountDownLatch all = new CountDownLatch(40);
        MessageListener l = m -> {
            try {
                if (!seen.add(((TextMessage) m).getText())) {
                    duplicates.add(((TextMessage) m).getText());
                }
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
            all.countDown();
        };
        c.createSession().createConsumer(q).setMessageListener(l);
        c.createSession().createConsumer(q).setMessageListener(l);
        startedConnection().createSession().createConsumer(q).setMessageListener(l);
        send(q, texts(40));
        assertTrue(all.await(RECEIVE_TIMEOUT * 2, TimeUnit.MILLISECONDS), "missing: " + (40 - seen.size()));
        sleep(ABSENCE_TIMEOUT);
        assertEquals(40, seen.size());
        assertTrue(duplicates.isEmpty(), "delivered twice: " + duplicates);
    }

    @Test
    @DisplayName("4.1.2 / 6.2.9: a consumer that gets only some messages of a queue gets them in order")
    void competingConsumersSeeOrderedSubsequences() throws JMSException {
        Queue q = queue();
        Connection c = startedConnection();
        MessageConsumer a = c.createSession().createConsumer(q);
        MessageConsumer b = c.createSession().createConsumer(q);
        send(q, texts(20));
        List<Integer> fromA = new ArrayList<>();
        List<Integer> fromB = new ArrayList<>();
        int total = 0;
        long deadline = System.currentTimeMillis() + RECEIVE_TIMEOUT * 2;
        while (total < 20 && System.currentTimeMillis() < deadline) {
            Message m = a.receive(50);
            if (m != null) {
                fromA.add(Integer.parseInt(((TextMessage) m).getText().substring(1)));
                total++;
            }
            m = b.receive(50);
            if (m != null) {
                fromB.add(Integer.parseInt(((TextMessage) m).getText().substring(1)));
                total++;
            }
        }
        assertEquals(20, total);
        assertEquals(fromA.stream().sorted().toList(), fromA);
        assertEquals(fromB.stream().sorted().toList(), fromB);
    }

    @Test
    @DisplayName("8.7: a message listener receives the messages sent to its consumer, in order")
    void messageListenerReceives() throws Exception {
        Queue q = queue();
        Session s = session();
        List<String> got = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(10);
        s.createConsumer(q).setMessageListener(m -> {
            try {
                got.add(((TextMessage) m).getText());
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
            done.countDown();
        });
        send(q, texts(10));
        assertTrue(done.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS));
        assertEquals(List.of(texts(10)), got);
    }

    @Test
    @DisplayName("8.7: getMessageListener returns the listener set, null when none")
    void messageListenerRoundTrip() throws JMSException {
        MessageConsumer consumer = connection().createSession().createConsumer(queue());
        assertNull(consumer.getMessageListener());
        MessageListener l = m -> {};
        consumer.setMessageListener(l);
        assertSame(l, consumer.getMessageListener());
    }

    @Test
    @DisplayName("8.7: a listener is not called on a connection that was never started")
    void listenerNotCalledBeforeStart() throws Exception {
        Queue q = queue();
        send(q, "waiting");
        Connection c = connection();
        CountDownLatch called = new CountDownLatch(1);
        c.createSession().createConsumer(q).setMessageListener(m -> called.countDown());
        assertFalse(called.await(ABSENCE_TIMEOUT, TimeUnit.MILLISECONDS));
        c.start();
        assertTrue(called.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS));
    }

    @Test
    @DisplayName("MessageConsumer.getMessageSelector: the selector given, null when none or empty")
    void messageSelectorRoundTrip() throws JMSException {
        Session s = connection().createSession();
        Queue q = queue();
        assertEquals("a = 1", s.createConsumer(q, "a = 1").getMessageSelector());
        assertNull(s.createConsumer(q).getMessageSelector());
        assertNull(s.createConsumer(q, null).getMessageSelector());
        String empty = s.createConsumer(q, "").getMessageSelector();
        assertTrue(empty == null || empty.isEmpty(), "'" + empty + "'");
    }

    @Test
    @DisplayName("8.2 / Session.createConsumer: a null destination is refused with InvalidDestinationException")
    void nullDestinationRefused() throws JMSException {
        Session s = connection().createSession();
        assertThrows(InvalidDestinationException.class, () -> s.createConsumer(null));
    }

    @Test
    @DisplayName("3.4.7 / 3.5.11: a first delivery has JMSRedelivered=false and JMSXDeliveryCount=1")
    void firstDeliveryCounters() throws JMSException {
        Queue q = queue();
        send(q, "fresh");
        Message m = receive(session().createConsumer(q));
        assertFalse(m.getJMSRedelivered());
        assertEquals(1, m.getIntProperty("JMSXDeliveryCount"));
    }

    @Test
    @DisplayName("8.8: close() makes a blocked receive in another thread return null")
    void closeReleasesBlockedReceive() throws Exception {
        MessageConsumer consumer = session().createConsumer(queue());
        CountDownLatch done = new CountDownLatch(1);
        AtomicReference<Object> result = new AtomicReference<>("not returned");
        startBlocked(() -> {
            try {
                result.set(consumer.receive());
            } catch (JMSException e) {
                result.set(e);
            }
            done.countDown();
        });
        consumer.close();
        assertTrue(done.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS), "receive() still blocked after close()");
        assertNull(result.get());
    }

    @Test
    @DisplayName("8.8: a closed consumer refuses receive with IllegalStateException; closing twice is fine")
    void closedConsumer() throws JMSException {
        MessageConsumer consumer = session().createConsumer(queue());
        consumer.close();
        consumer.close();
        assertThrows(IllegalStateException.class, () -> consumer.receive(100));
    }

    @Test
    @DisplayName("8.8: closing a consumer does not stop acknowledging its CLIENT_ACKNOWLEDGE messages later")
    void acknowledgeAfterConsumerClose() throws JMSException {
        Queue q = queue();
        send(q, "ack me later");
        Connection c = startedConnection();
        Session s = c.createSession(Session.CLIENT_ACKNOWLEDGE);
        MessageConsumer consumer = s.createConsumer(q);
        Message m = receive(consumer);
        consumer.close();
        m.acknowledge();
        s.close();
        assertNoMessage(c.createSession().createConsumer(q));
    }

    @Test
    @DisplayName("8.8: closing a consumer leaves the transaction open: commit afterwards consumes the message")
    void commitAfterConsumerClose() throws JMSException {
        Queue q = queue();
        send(q, "commit later");
        Connection c = startedConnection();
        Session s = c.createSession(Session.SESSION_TRANSACTED);
        MessageConsumer consumer = s.createConsumer(q);
        assertReceivesText(consumer, "commit later");
        consumer.close();
        s.commit();
        s.close();
        assertNoMessage(c.createSession().createConsumer(q));
    }

    @Test
    @DisplayName("8.8: closing a consumer leaves the transaction open: rollback afterwards redelivers")
    void rollbackAfterConsumerClose() throws JMSException {
        Queue q = queue();
        send(q, "roll back later");
        Connection c = startedConnection();
        Session s = c.createSession(Session.SESSION_TRANSACTED);
        MessageConsumer consumer = s.createConsumer(q);
        assertReceivesText(consumer, "roll back later");
        consumer.close();
        s.rollback();
        Message again = receive(s.createConsumer(q));
        assertTrue(again.getJMSRedelivered());
        s.commit();
    }

    @Test
    @DisplayName("8.8: in AUTO_ACKNOWLEDGE, messages delivered before a consumer closes stay acknowledged")
    void autoAckSurvivesConsumerClose() throws JMSException {
        Queue q = queue();
        send(q, "one", "two");
        Connection c = startedConnection();
        Session s = c.createSession();
        MessageConsumer consumer = s.createConsumer(q);
        assertReceivesText(consumer, "one");
        consumer.close();
        assertReceivesText(s.createConsumer(q), "two");
    }

    @Test
    @DisplayName("8.8: a listener may close its own consumer; onMessage then completes normally")
    void listenerClosesOwnConsumer() throws Exception {
        Queue q = queue();
        Session s = session();
        MessageConsumer consumer = s.createConsumer(q);
        CountDownLatch completed = new CountDownLatch(1);
        AtomicReference<Throwable> error = new AtomicReference<>();
        consumer.setMessageListener(m -> {
            try {
                consumer.close();
            } catch (Throwable e) {
                error.set(e);
            }
            completed.countDown();
        });
        send(q, "close yourself");
        assertTrue(completed.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS));
        assertNull(error.get());
    }

    @Test
    @DisplayName("8.8: consumer close() waits for its running listener to return")
    void closeWaitsForListener() throws Exception {
        Queue q = queue();
        MessageConsumer consumer = session().createConsumer(q);
        CountDownLatch entered = new CountDownLatch(1);
        AtomicBoolean finished = new AtomicBoolean();
        consumer.setMessageListener(m -> {
            entered.countDown();
            sleep(400);
            finished.set(true);
        });
        send(q, "slow");
        assertTrue(entered.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS));
        consumer.close();
        assertTrue(finished.get());
    }

    @Test
    @DisplayName("8.7: a listener that throws in AUTO_ACKNOWLEDGE gets the message again, marked redelivered "
            + "with JMSXDeliveryCount incremented")
    void listenerThrowsAutoAck() throws Exception {
        Queue q = queue();
        Session s = session();
        List<Message> deliveries = new CopyOnWriteArrayList<>();
        CountDownLatch twice = new CountDownLatch(2);
        s.createConsumer(q).setMessageListener(m -> {
            deliveries.add(m);
            twice.countDown();
            if (deliveries.size() == 1) {
                throw new RuntimeException("deliberate listener failure");
            }
        });
        send(q, "fails once");
        assertTrue(twice.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS), "the message was not redelivered");
        Message second = deliveries.get(1);
        assertEquals("fails once", ((TextMessage) second).getText());
        assertTrue(second.getJMSRedelivered());
        assertEquals(2, second.getIntProperty("JMSXDeliveryCount"));
    }

    @Test
    @DisplayName("8.7: a listener that throws in CLIENT_ACKNOWLEDGE gets the next message, not the same again")
    void listenerThrowsClientAck() throws Exception {
        Queue q = queue();
        Session s = startedConnection().createSession(Session.CLIENT_ACKNOWLEDGE);
        List<String> got = new CopyOnWriteArrayList<>();
        CountDownLatch two = new CountDownLatch(2);
        s.createConsumer(q).setMessageListener(m -> {
            try {
                got.add(((TextMessage) m).getText());
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
            two.countDown();
            throw new RuntimeException("deliberate listener failure");
        });
        send(q, "first", "second");
        assertTrue(two.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS));
        sleep(ABSENCE_TIMEOUT);
        assertEquals(List.of("first", "second"), got);
    }

    @Test
    @DisplayName("8.7: a listener that throws in a transacted session gets the next message; the transaction "
            + "is not rolled back")
    void listenerThrowsTransacted() throws Exception {
        Queue q = queue();
        Connection c = startedConnection();
        Session s = c.createSession(Session.SESSION_TRANSACTED);
        List<String> got = new CopyOnWriteArrayList<>();
        CountDownLatch two = new CountDownLatch(2);
        s.createConsumer(q).setMessageListener(m -> {
            try {
                got.add(((TextMessage) m).getText());
                if (got.size() == 2) {
                    s.commit();
                }
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
            two.countDown();
            if (got.size() == 1) {
                throw new RuntimeException("deliberate listener failure");
            }
        });
        send(q, "first", "second");
        assertTrue(two.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS));
        sleep(ABSENCE_TIMEOUT);
        assertEquals(List.of("first", "second"), got);
        s.close();
        assertNoMessage(c.createSession().createConsumer(q));
    }

    @Test
    @DisplayName("3.10: a received message's header fields can be changed")
    void receivedHeadersWritable() throws JMSException {
        Queue q = queue();
        send(q, "x");
        Message m = receive(session().createConsumer(q));
        m.setJMSCorrelationID("changed-by-receiver");
        m.setJMSType("t");
        assertEquals("changed-by-receiver", m.getJMSCorrelationID());
        assertEquals("t", m.getJMSType());
    }

    @Test
    @DisplayName("8.1: a consumer receives only from its own destination")
    void consumerReceivesOnlyItsDestination() throws JMSException {
        Queue mine = queue("mine");
        Queue other = queue("other");
        send(other, "not for me");
        send(mine, "for me");
        MessageConsumer consumer = session().createConsumer(mine);
        assertReceivesText(consumer, "for me");
        assertNoMessage(consumer);
    }
}
