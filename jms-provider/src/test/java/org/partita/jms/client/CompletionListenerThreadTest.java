package org.partita.jms.client;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.CompletionListener;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** JMS 7.3.4, 7.3.8, 6.1.4: where completion listeners run, and what they may do there. */
class CompletionListenerThreadTest {
    private final FacadeFixture f;

    CompletionListenerThreadTest() throws JMSException {
        f = new FacadeFixture();
    }

    @AfterEach
    void close() throws JMSException {
        f.close();
    }

    /** Sends asynchronously and completes with what {@code inCallback} threw, or null. */
    private static CompletableFuture<Throwable> sendAndRunInCallback(Session s, MessageProducer p, Action inCallback)
            throws JMSException {
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        p.send(s.createTextMessage("x"), new CompletionListener() {
            @Override
            public void onCompletion(Message message) {
                try {
                    inCallback.run();
                    outcome.complete(null);
                } catch (Throwable t) {
                    outcome.complete(t);
                }
            }

            @Override
            public void onException(Message message, Exception exception) {
                outcome.complete(new AssertionError("send failed", exception));
            }
        });
        return outcome;
    }

    @FunctionalInterface
    interface Action {
        void run() throws Exception;
    }

    @Test
    void aCompletionListenerMayStopTheConnection() throws Exception {
        f.connection.start();
        Session s = f.connection.createSession();
        MessageProducer p = s.createProducer(s.createQueue("q"));
        assertNull(sendAndRunInCallback(s, p, f.connection::stop).get(5, TimeUnit.SECONDS));
        assertFalse(f.connection.isStarted());
    }

    @Test
    void aCompletionListenerMayNotCloseOrCommit() throws Exception {
        Session tx = f.connection.createSession(Session.SESSION_TRANSACTED);
        MessageProducer p = tx.createProducer(tx.createQueue("q"));
        assertInstanceOf(
                IllegalStateException.class,
                sendAndRunInCallback(tx, p, tx::commit).get(5, TimeUnit.SECONDS));
        assertInstanceOf(
                IllegalStateException.class,
                sendAndRunInCallback(tx, p, tx::rollback).get(5, TimeUnit.SECONDS));
        assertInstanceOf(
                IllegalStateException.class,
                sendAndRunInCallback(tx, p, tx::close).get(5, TimeUnit.SECONDS));
        assertInstanceOf(
                IllegalStateException.class,
                sendAndRunInCallback(tx, p, p::close).get(5, TimeUnit.SECONDS));
        assertInstanceOf(
                IllegalStateException.class,
                sendAndRunInCallback(tx, p, f.connection::close).get(5, TimeUnit.SECONDS));
    }

    @Test
    void aSendFromAMessageListenerIsCompletedOnAnotherThreadWhileTheListenerWaits() throws Exception {
        Session s = f.connection.createSession();
        Queue in = s.createQueue("in");
        MessageProducer forward = s.createProducer(s.createQueue("out"));
        CompletableFuture<Object> outcome = new CompletableFuture<>();
        s.createConsumer(in).setMessageListener(m -> {
            Thread listener = Thread.currentThread();
            CompletableFuture<Thread> callback = new CompletableFuture<>();
            try {
                forward.send(m, new CompletionListener() {
                    @Override
                    public void onCompletion(Message message) {
                        callback.complete(Thread.currentThread());
                    }

                    @Override
                    public void onException(Message message, Exception exception) {
                        callback.completeExceptionally(exception);
                    }
                });
                Thread ran = callback.get(5, TimeUnit.SECONDS); // would never come if queued behind this listener
                outcome.complete(ran == listener ? "the callback ran on the listener's thread" : null);
            } catch (Exception e) {
                outcome.complete(e);
            }
        });
        s.createProducer(in).send(s.createTextMessage("forward me"));
        f.connection.start();
        assertNull(outcome.get(10, TimeUnit.SECONDS));
        assertTrue(f.transport.waiting(((org.partita.jms.destination.PartitaDestination) s.createQueue("out")).encode())
                == 1);
    }

    @Test
    void callbacksNeverRunOnTheSendingThread() throws Exception {
        Session s = f.connection.createSession();
        MessageProducer p = s.createProducer(s.createQueue("q"));
        CompletableFuture<Thread> ran = new CompletableFuture<>();
        p.send(s.createTextMessage("x"), new CompletionListener() {
            @Override
            public void onCompletion(Message message) {
                ran.complete(Thread.currentThread());
            }

            @Override
            public void onException(Message message, Exception exception) {
                ran.completeExceptionally(exception);
            }
        });
        assertNotSame(Thread.currentThread(), ran.get(5, TimeUnit.SECONDS));
    }
}
