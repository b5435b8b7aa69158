package org.partita.tck.asyncsend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.CompletionListener;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.partita.tck.support.KnownDeviation;
import org.partita.tck.support.TckTest;

/** Jakarta Messaging 3.1, section 7.3: asynchronous send with a CompletionListener. */
class AsyncSendTest extends TckTest {

    /** Records completions and failures, in order, with the thread that called back. */
    static final class Recorder implements CompletionListener {
        final List<Message> completed = new CopyOnWriteArrayList<>();
        final List<Exception> failed = new CopyOnWriteArrayList<>();
        final List<Thread> threads = new CopyOnWriteArrayList<>();
        final CountDownLatch latch;
        volatile long delayMillis;

        Recorder(int expected) {
            latch = new CountDownLatch(expected);
        }

        @Override
        public void onCompletion(Message message) {
            threads.add(Thread.currentThread());
            if (delayMillis > 0) {
                sleep(delayMillis);
            }
            completed.add(message);
            latch.countDown();
        }

        @Override
        public void onException(Message message, Exception exception) {
            threads.add(Thread.currentThread());
            failed.add(exception);
            latch.countDown();
        }

        void await() throws InterruptedException {
            assertTrue(latch.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS), "completion listener not called");
            assertTrue(failed.isEmpty(), "onException: " + failed);
        }
    }

    @Test
    @DisplayName("7.3: onCompletion is called for an asynchronous send and the message is then delivered")
    void completionCalled() throws Exception {
        Queue q = queue();
        Session s = session();
        Recorder r = new Recorder(1);
        TextMessage m = s.createTextMessage("async");
        s.createProducer(q).send(m, r);
        r.await();
        assertReceivesText(s.createConsumer(q), "async");
    }

    @Test
    @DisplayName("7.3.8: the CompletionListener is not called on the thread that called send")
    void notCalledOnSendingThread() throws Exception {
        Session s = connection().createSession();
        Recorder r = new Recorder(1);
        s.createProducer(queue()).send(s.createTextMessage("x"), r);
        r.await();
        assertNotSame(Thread.currentThread(), r.threads.get(0));
    }

    @Test
    @DisplayName("7.3.6: after onCompletion the message carries the headers set by send")
    void headersSetOnCompletion() throws Exception {
        Session s = connection().createSession();
        Recorder r = new Recorder(1);
        TextMessage m = s.createTextMessage("x");
        long before = System.currentTimeMillis();
        s.createProducer(queue()).send(m, DeliveryMode.NON_PERSISTENT, 6, 60_000, r);
        r.await();
        Message done = r.completed.get(0);
        assertNotNull(done.getJMSMessageID());
        assertTrue(done.getJMSMessageID().startsWith("ID:"));
        assertEquals(6, done.getJMSPriority());
        assertEquals(DeliveryMode.NON_PERSISTENT, done.getJMSDeliveryMode());
        assertTrue(done.getJMSExpiration() >= before + 60_000);
        assertNotNull(done.getJMSDestination());
    }

    @Test
    @DisplayName("7.3.8: callbacks for one producer come in the order of the sends")
    void callbacksInSendOrder() throws Exception {
        Session s = connection().createSession();
        MessageProducer p = s.createProducer(queue());
        Recorder r = new Recorder(30);
        for (String t : texts(30)) {
            p.send(s.createTextMessage(t), r);
        }
        r.await();
        List<String> order = new java.util.ArrayList<>();
        for (Message m : r.completed) {
            order.add(((TextMessage) m).getText());
        }
        assertEquals(List.of(texts(30)), order);
    }

    @Test
    @DisplayName("7.3.3: message order is kept across a mix of synchronous and asynchronous sends")
    void mixedSyncAsyncOrder() throws Exception {
        Queue q = queue();
        Session s = session();
        MessageProducer p = s.createProducer(q);
        Recorder r = new Recorder(10);
        for (int i = 0; i < 20; i++) {
            if (i % 2 == 0) {
                p.send(s.createTextMessage("m" + i), r);
            } else {
                p.send(s.createTextMessage("m" + i));
            }
        }
        r.await();
        assertEquals(List.of(texts(20)), receiveTexts(s.createConsumer(q), 20));
    }

    @Test
    @DisplayName("7.3.8: a session invokes one CompletionListener callback at a time")
    void callbacksSerialized() throws Exception {
        Session s = connection().createSession();
        MessageProducer p = s.createProducer(queue());
        java.util.concurrent.atomic.AtomicInteger running = new java.util.concurrent.atomic.AtomicInteger();
        AtomicBoolean overlap = new AtomicBoolean();
        CountDownLatch done = new CountDownLatch(10);
        CompletionListener l = new CompletionListener() {
            @Override
            public void onCompletion(Message message) {
                if (running.incrementAndGet() > 1) {
                    overlap.set(true);
                }
                sleep(10);
                running.decrementAndGet();
                done.countDown();
            }

            @Override
            public void onException(Message message, Exception exception) {
                done.countDown();
            }
        };
        for (int i = 0; i < 10; i++) {
            p.send(s.createTextMessage("m" + i), l);
        }
        assertTrue(done.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS));
        assertFalse(overlap.get());
    }

    @Test
    @KnownDeviation(
            provider = "artemis",
            reason = "7.3.4: Artemis returns from MessageProducer.close()"
                    + " while the outstanding CompletionListener callbacks have not returned (none had)")
    @DisplayName("7.3.4: producer close blocks until the outstanding callbacks have returned")
    void producerCloseWaits() throws Exception {
        Session s = connection().createSession();
        MessageProducer p = s.createProducer(queue());
        Recorder r = new Recorder(3);
        r.delayMillis = 200;
        for (int i = 0; i < 3; i++) {
            p.send(s.createTextMessage("m" + i), r);
        }
        p.close();
        assertEquals(3, r.completed.size(), "close() returned before the callbacks finished");
    }

    @Test
    @KnownDeviation(
            provider = "artemis",
            reason = "7.3.4: Artemis returns from Session.close()"
                    + " while the outstanding CompletionListener callbacks have not returned (none had)")
    @DisplayName("7.3.4: session close blocks until the outstanding callbacks have returned")
    void sessionCloseWaits() throws Exception {
        Session s = connection().createSession();
        MessageProducer p = s.createProducer(queue());
        Recorder r = new Recorder(3);
        r.delayMillis = 200;
        for (int i = 0; i < 3; i++) {
            p.send(s.createTextMessage("m" + i), r);
        }
        s.close();
        assertEquals(3, r.completed.size(), "close() returned before the callbacks finished");
    }

    @Test
    @KnownDeviation(
            provider = "artemis",
            reason = "7.3.4: Artemis returns from Connection.close()"
                    + " while the outstanding CompletionListener callbacks have not returned (none had)")
    @DisplayName("7.3.4: connection close blocks until the outstanding callbacks have returned")
    void connectionCloseWaits() throws Exception {
        Connection c = connection();
        Session s = c.createSession();
        MessageProducer p = s.createProducer(queue());
        Recorder r = new Recorder(3);
        r.delayMillis = 200;
        for (int i = 0; i < 3; i++) {
            p.send(s.createTextMessage("m" + i), r);
        }
        c.close();
        assertEquals(3, r.completed.size(), "close() returned before the callbacks finished");
    }

    @Test
    @KnownDeviation(
            provider = "artemis",
            reason = "7.3.4: Artemis returns from Session.commit()"
                    + " while the outstanding CompletionListener callbacks have not returned (none had)")
    @DisplayName("7.3.4: commit blocks until the outstanding callbacks have returned, then commits the sends")
    void commitWaits() throws Exception {
        Queue q = queue();
        Session tx = connection().createSession(Session.SESSION_TRANSACTED);
        MessageProducer p = tx.createProducer(q);
        Recorder r = new Recorder(3);
        r.delayMillis = 150;
        for (int i = 0; i < 3; i++) {
            p.send(tx.createTextMessage("m" + i), r);
        }
        tx.commit();
        assertEquals(3, r.completed.size(), "commit() returned before the callbacks finished");
        assertEquals(List.of(texts(3)), receiveTexts(session().createConsumer(q), 3));
    }

    @Test
    @KnownDeviation(
            provider = "artemis",
            reason = "7.3.4: Artemis returns from Session.rollback()"
                    + " while the outstanding CompletionListener callbacks have not returned (none had)")
    @DisplayName("7.3.4: rollback waits for the callbacks, then discards the sends")
    void rollbackWaits() throws Exception {
        Queue q = queue();
        Session tx = connection().createSession(Session.SESSION_TRANSACTED);
        Recorder r = new Recorder(2);
        r.delayMillis = 150;
        MessageProducer p = tx.createProducer(q);
        p.send(tx.createTextMessage("a"), r);
        p.send(tx.createTextMessage("b"), r);
        tx.rollback();
        assertEquals(2, r.completed.size(), "rollback() returned before the callbacks finished");
        assertNoMessage(session().createConsumer(q));
    }

    private void assertCallbackCallIsRefused(String what, CallbackAction action) throws Exception {
        Connection c = connection();
        Session s = c.createSession(what.equals("commit") ? Session.SESSION_TRANSACTED : Session.AUTO_ACKNOWLEDGE);
        MessageProducer p = s.createProducer(queue());
        CallbackOutcome outcome = new CallbackOutcome(() -> action.run(c, s, p));
        p.send(s.createTextMessage("x"), outcome);
        assertInstanceOf(IllegalStateException.class, outcome.await(), what + " from the callback must be refused");
    }

    @FunctionalInterface
    interface CallbackAction {
        void run(Connection c, Session s, MessageProducer p) throws Exception;
    }

    @Test
    @DisplayName("7.3.4: a CompletionListener closing its own producer gets IllegalStateException")
    void callbackClosingProducer() throws Exception {
        assertCallbackCallIsRefused("producer close", (c, s, p) -> p.close());
    }

    @Test
    @DisplayName("7.3.4: a CompletionListener closing its own session gets IllegalStateException")
    void callbackClosingSession() throws Exception {
        assertCallbackCallIsRefused("session close", (c, s, p) -> s.close());
    }

    @Test
    @DisplayName("7.3.4: a CompletionListener closing its own connection gets IllegalStateException")
    void callbackClosingConnection() throws Exception {
        assertCallbackCallIsRefused("connection close", (c, s, p) -> c.close());
    }

    @Test
    @KnownDeviation(
            provider = "artemis",
            reason = "7.3.4: Artemis lets a CompletionListener commit its own session instead of "
                    + "throwing IllegalStateException (close from the callback is refused as required)")
    @DisplayName("7.3.4: a CompletionListener committing its own session gets IllegalStateException")
    void callbackCommitting() throws Exception {
        assertCallbackCallIsRefused("commit", (c, s, p) -> s.commit());
    }

    /** A completion listener that runs an action in onCompletion and records what it threw, or the send's failure. */
    static final class CallbackOutcome implements CompletionListener {
        private final CallbackBody action;
        private final AtomicReference<Throwable> thrown = new AtomicReference<>();
        private final CountDownLatch done = new CountDownLatch(1);

        CallbackOutcome(CallbackBody action) {
            this.action = action;
        }

        @Override
        public void onCompletion(Message message) {
            try {
                action.run();
            } catch (Throwable e) {
                thrown.set(e);
            }
            done.countDown();
        }

        @Override
        public void onException(Message message, Exception exception) {
            thrown.set(exception);
            done.countDown();
        }

        /** What the action threw, or null; fails if the listener was not called. */
        Throwable await() throws InterruptedException {
            assertTrue(done.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS), "completion listener not called");
            return thrown.get();
        }
    }

    @FunctionalInterface
    interface CallbackBody {
        void run() throws Exception;
    }

    @Test
    @DisplayName("7.3.4, 6.1.4: a CompletionListener may stop its own connection (only close, commit and rollback "
            + "are forbidden in a callback)")
    void callbackMayStopConnection() throws Exception {
        Queue q = queue();
        Connection c = connection();
        c.start();
        Session s = c.createSession();
        MessageProducer p = s.createProducer(q);
        CallbackOutcome outcome = new CallbackOutcome(c::stop);
        p.send(s.createTextMessage("x"), outcome);
        assertNull(outcome.await(), "stop() from the callback failed");
        MessageConsumer consumer = s.createConsumer(q);
        assertNull(consumer.receive(ABSENCE_TIMEOUT), "the connection was stopped: nothing is delivered");
        c.start();
        assertReceivesText(consumer, "x");
    }

    @Test
    @DisplayName("7.3.4, 6.1.4: a CompletionListener may stop its own JMSContext")
    void callbackMayStopContext() throws Exception {
        JMSContext ctx = context();
        CallbackOutcome outcome = new CallbackOutcome(ctx::stop);
        ctx.createProducer().setAsync(outcome).send(queue(), "x");
        assertNull(outcome.await(), "JMSContext.stop() from the callback failed");
    }

    @Test
    @DisplayName("7.3.8: an asynchronous send from a MessageListener gets its callback on another thread, so the "
            + "listener may wait for it")
    void callbackOfSendFromMessageListenerRunsElsewhere() throws Exception {
        Queue in = queue("in");
        Queue out = queue("out");
        Connection c = connection();
        Session s = c.createSession();
        MessageProducer forward = s.createProducer(out);
        AtomicReference<Object> outcome = new AtomicReference<>();
        CountDownLatch handled = new CountDownLatch(1);
        s.createConsumer(in).setMessageListener(m -> {
            Thread listenerThread = Thread.currentThread();
            CountDownLatch completed = new CountDownLatch(1);
            AtomicReference<Thread> callbackThread = new AtomicReference<>();
            try {
                forward.send(m, new CompletionListener() {
                    @Override
                    public void onCompletion(Message message) {
                        callbackThread.set(Thread.currentThread());
                        completed.countDown();
                    }

                    @Override
                    public void onException(Message message, Exception exception) {
                        outcome.set(exception);
                        completed.countDown();
                    }
                });
                if (!completed.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS)) {
                    outcome.compareAndSet(null, "the callback did not run while the listener waited for it");
                } else if (callbackThread.get() == listenerThread) {
                    outcome.compareAndSet(null, "the callback ran on the message listener's thread");
                }
            } catch (Exception e) {
                outcome.set(e);
            }
            handled.countDown();
        });
        c.start();
        send(in, "forward me");
        assertTrue(handled.await(2 * RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS), "listener not called");
        assertNull(outcome.get(), () -> "outcome: " + outcome.get());
        assertReceivesText(session().createConsumer(out), "forward me");
    }

    @Test
    @DisplayName("MessageProducer.send(..., CompletionListener): a null listener throws IllegalArgumentException")
    void nullListenerRefused() throws JMSException {
        Session s = connection().createSession();
        MessageProducer p = s.createProducer(queue());
        assertThrows(IllegalArgumentException.class, () -> p.send(s.createTextMessage("x"), null));
    }

    @Test
    @DisplayName("7.3: an anonymous producer sends asynchronously to the destination given")
    void anonymousProducerAsync() throws Exception {
        Queue q = queue();
        Session s = session();
        Recorder r = new Recorder(1);
        s.createProducer(null).send(q, s.createTextMessage("anon"), r);
        r.await();
        assertEquals(q, r.completed.get(0).getJMSDestination());
        assertReceivesText(s.createConsumer(q), "anon");
    }

    @Test
    @DisplayName("7.3.2: an exception detected in send is thrown to the caller; the listener is not called")
    void synchronousErrorNotReportedToListener() throws Exception {
        Session s = connection().createSession();
        MessageProducer p = s.createProducer(null);
        Recorder r = new Recorder(1);
        assertThrows(UnsupportedOperationException.class, () -> p.send(s.createTextMessage("x"), r));
        assertFalse(r.latch.await(ABSENCE_TIMEOUT, TimeUnit.MILLISECONDS), "listener called for a refused send");
    }

    @Test
    @DisplayName("7.3: JMSProducer.setAsync sends asynchronously and calls the listener")
    void jmsProducerAsync() throws Exception {
        Queue q = queue();
        JMSContext ctx = context();
        Recorder r = new Recorder(1);
        JMSProducer p = ctx.createProducer().setAsync(r);
        assertSame(r, p.getAsync());
        p.send(q, "async context");
        r.await();
        assertNotSame(Thread.currentThread(), r.threads.get(0));
        assertEquals("async context", ctx.createConsumer(q).receiveBody(String.class, RECEIVE_TIMEOUT));
    }

    @Test
    @DisplayName("7.3.8: JMSProducer async callbacks come in send order")
    void jmsProducerAsyncOrder() throws Exception {
        Queue q = queue();
        JMSContext ctx = context();
        Recorder r = new Recorder(20);
        JMSProducer p = ctx.createProducer().setAsync(r);
        for (String t : texts(20)) {
            p.send(q, t);
        }
        r.await();
        List<String> order = new java.util.ArrayList<>();
        for (Message m : r.completed) {
            order.add(m.getBody(String.class));
        }
        assertEquals(List.of(texts(20)), order);
    }

    @Test
    @DisplayName("7.3: JMSProducer.setAsync(null) makes later sends synchronous again")
    void jmsProducerBackToSync() throws Exception {
        JMSContext ctx = context();
        JMSProducer p = ctx.createProducer().setAsync(new Recorder(1));
        p.setAsync(null);
        assertNull(p.getAsync());
        Queue q = queue();
        p.send(q, "sync");
        assertEquals("sync", ctx.createConsumer(q).receiveBody(String.class, RECEIVE_TIMEOUT));
    }

    @Test
    @DisplayName("7.3.1: an asynchronous PERSISTENT send is, once completed, as safe as a synchronous one: "
            + "another connection receives it")
    void completedSendIsDurable() throws Exception {
        Queue q = queue();
        Connection c = connection();
        Session s = c.createSession();
        Recorder r = new Recorder(1);
        s.createProducer(q).send(s.createTextMessage("safe"), r);
        r.await();
        c.close();
        MessageConsumer consumer = session().createConsumer(q);
        assertReceivesText(consumer, "safe");
    }
}
