package org.partita.jms.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.CompletionListener;
import jakarta.jms.DeliveryMode;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.InvalidDestinationRuntimeException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.TextMessage;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.partita.jms.destination.PartitaDestination;

/** The simplified API (JMSContext, JMSProducer, JMSConsumer) over the network-free transport. */
class JMSContextFacadeTest {
    private final FacadeFixture f;
    private final JMSContext ctx;

    JMSContextFacadeTest() throws JMSException {
        f = new FacadeFixture();
        ctx = new PartitaJMSContext(f.connection, JMSContext.AUTO_ACKNOWLEDGE);
    }

    @AfterEach
    void close() throws JMSException {
        ctx.close();
        f.close();
    }

    @Test
    void theSessionIsOpenedOnFirstUseNotWhenTheContextIsMade() {
        assertEquals(List.of(), f.transport.openSessions());
        ctx.createProducer();
        assertEquals(1, f.transport.openSessions().size());
        ctx.createConsumer(ctx.createQueue("q"));
        assertEquals(1, f.transport.openSessions().size(), "one session per context");
    }

    @Test
    void eachBodyKindArrivesAsItsMessageType() {
        Queue q = ctx.createQueue("bodies");
        JMSProducer p = ctx.createProducer();
        p.send(q, "text");
        p.send(q, Map.of("k", 7));
        p.send(q, new byte[] {1, 2, 3});
        p.send(q, Integer.valueOf(42));
        JMSConsumer c = ctx.createConsumer(q);
        assertEquals("text", c.receiveBody(String.class, 5_000));
        assertEquals(7, c.receiveBody(Map.class, 5_000).get("k"));
        assertArrayEquals(new byte[] {1, 2, 3}, c.receiveBody(byte[].class, 5_000));
        assertEquals(42, c.receiveBody(Integer.class, 5_000));
    }

    @Test
    void theProducersPropertiesAndHeadersWinOverTheMessagesOwn() throws JMSException {
        Queue q = ctx.createQueue("headers");
        Queue replies = ctx.createQueue("replies");
        TextMessage m = ctx.createTextMessage("body");
        m.setStringProperty("who", "message");
        m.setStringProperty("kept", "yes");
        m.setJMSType("message-type");
        ctx.createProducer()
                .setProperty("who", "producer")
                .setJMSType("producer-type")
                .setJMSCorrelationID("corr-1")
                .setJMSReplyTo(replies)
                .setDeliveryMode(DeliveryMode.NON_PERSISTENT)
                .setPriority(7)
                .setTimeToLive(60_000)
                .send(q, m);
        Message got = ctx.createConsumer(q).receive(5_000);
        assertNotNull(got);
        assertEquals("producer", got.getStringProperty("who"));
        assertEquals("yes", got.getStringProperty("kept"));
        assertEquals("producer-type", got.getJMSType());
        assertEquals("corr-1", got.getJMSCorrelationID());
        assertEquals(((PartitaDestination) replies).encode(), ((PartitaDestination) got.getJMSReplyTo()).encode());
        assertEquals(DeliveryMode.NON_PERSISTENT, got.getJMSDeliveryMode());
        assertEquals(7, got.getJMSPriority());
        assertTrue(got.getJMSExpiration() > System.currentTimeMillis(), "sixty seconds to live");
    }

    @Test
    void invalidSendOptionsAndDestinationsAreRefusedUnchecked() {
        JMSProducer p = ctx.createProducer();
        assertThrows(JMSRuntimeException.class, () -> p.setDeliveryMode(3));
        assertThrows(JMSRuntimeException.class, () -> p.setPriority(10));
        assertThrows(IllegalArgumentException.class, () -> p.setProperty("", "x"));
        assertThrows(InvalidDestinationRuntimeException.class, () -> p.send(null, "x"));
        assertEquals(DeliveryMode.PERSISTENT, p.getDeliveryMode(), "a refused value changes nothing");
        assertEquals(Message.DEFAULT_PRIORITY, p.getPriority());
    }

    @Test
    void creatingAConsumerStartsTheConnectionUnlessAutoStartIsOff() {
        Queue q = ctx.createQueue("q");
        ctx.createProducer().send(q, "waiting");
        ctx.setAutoStart(false);
        JMSConsumer c = ctx.createConsumer(q);
        assertNull(c.receiveNoWait(), "not started: nothing is delivered");
        assertEquals(1, f.transport.waiting(((PartitaDestination) q).encode()), "and nothing was taken");
        ctx.start();
        assertEquals("waiting", c.receiveBody(String.class, 5_000));

        ctx.stop();
        ctx.setAutoStart(true);
        JMSConsumer second = ctx.createConsumer(ctx.createQueue("q2"));
        ctx.createProducer().send(ctx.createQueue("q2"), "auto");
        assertEquals("auto", second.receiveBody(String.class, 5_000), "creating a consumer started the connection");
    }

    @Test
    void anAsynchronousSendCallsItsListenerAndCloseWaitsForIt() throws Exception {
        CompletableFuture<Message> completed = new CompletableFuture<>();
        CountDownLatch release = new CountDownLatch(1);
        ctx.createProducer()
                .setAsync(new CompletionListener() {
                    @Override
                    public void onCompletion(Message message) {
                        completed.complete(message);
                        try {
                            release.await(5, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }

                    @Override
                    public void onException(Message message, Exception exception) {
                        completed.completeExceptionally(exception);
                    }
                })
                .send(ctx.createQueue("async"), "x");
        Message sent = completed.get(5, TimeUnit.SECONDS);
        assertEquals("x", ((TextMessage) sent).getText());

        Thread closer = new Thread(ctx::close, "closer");
        closer.start();
        // close waits while the listener is still running: the closer thread blocks
        org.awaitility.Awaitility.await("close to wait for the listener")
                .atMost(5, TimeUnit.SECONDS)
                .until(() ->
                        closer.getState() == Thread.State.TIMED_WAITING || closer.getState() == Thread.State.WAITING);
        assertTrue(closer.isAlive(), "close returned while a completion listener was running");
        release.countDown();
        closer.join(5_000);
        assertFalse(closer.isAlive(), "close returned once the listener did");
    }

    @Test
    void aCompletionListenerMayNotCloseItsOwnContext() throws Exception {
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        ctx.createProducer()
                .setAsync(new CompletionListener() {
                    @Override
                    public void onCompletion(Message message) {
                        try {
                            ctx.close();
                            outcome.complete(null);
                        } catch (Throwable t) {
                            outcome.complete(t);
                        }
                    }

                    @Override
                    public void onException(Message message, Exception exception) {
                        outcome.complete(exception);
                    }
                })
                .send(ctx.createQueue("async"), "x");
        assertSame(
                IllegalStateRuntimeException.class,
                outcome.get(5, TimeUnit.SECONDS).getClass());
    }

    @Test
    void aContextMadeFromAnotherSharesItsConnectionWhichTheLastCloseCloses() {
        JMSContext second = ctx.createContext(JMSContext.CLIENT_ACKNOWLEDGE);
        Queue q = ctx.createQueue("shared");
        ctx.createProducer().send(q, "across");
        JMSConsumer c = second.createConsumer(q);
        assertEquals("across", c.receiveBody(String.class, 5_000));
        assertEquals(2, f.transport.openSessions().size(), "a session each");
        ctx.close();
        assertTrue(f.transport.isOpen(), "the second context still uses the connection");
        second.close();
        assertFalse(f.transport.isOpen(), "the last context closed it");
    }
}
