package org.partita.tck.jmscontext;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.DeliveryMode;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.InvalidDestinationRuntimeException;
import jakarta.jms.InvalidSelectorRuntimeException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.util.Collections;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.partita.tck.support.KnownDeviation;
import org.partita.tck.support.TckTest;

/** Jakarta Messaging 3.1, sections 2.8, 6.1 and 6.2 for the simplified API: the JMSContext itself. */
class JMSContextTest extends TckTest {

    @Test
    @DisplayName("6.1 / ConnectionFactory.createContext(): the default context is AUTO_ACKNOWLEDGE")
    void defaultSessionMode() {
        JMSContext ctx = context();
        assertEquals(JMSContext.AUTO_ACKNOWLEDGE, ctx.getSessionMode());
        assertFalse(ctx.getTransacted());
    }

    @Test
    @DisplayName("6.1 / createContext(int): each session mode is kept")
    void explicitSessionModes() {
        assertEquals(
                JMSContext.CLIENT_ACKNOWLEDGE,
                context(JMSContext.CLIENT_ACKNOWLEDGE).getSessionMode());
        assertEquals(
                JMSContext.DUPS_OK_ACKNOWLEDGE,
                context(JMSContext.DUPS_OK_ACKNOWLEDGE).getSessionMode());
        JMSContext tx = context(JMSContext.SESSION_TRANSACTED);
        assertEquals(JMSContext.SESSION_TRANSACTED, tx.getSessionMode());
        assertTrue(tx.getTransacted());
    }

    @Test
    @DisplayName("6.1.4 / 8.4: a context starts its connection when the first consumer is created")
    void autoStart() {
        Queue q = queue();
        JMSContext ctx = context();
        assertTrue(ctx.getAutoStart());
        ctx.createProducer().send(q, "auto started");
        assertEquals("auto started", ctx.createConsumer(q).receiveBody(String.class, RECEIVE_TIMEOUT));
    }

    @Test
    @DisplayName("8.4: with setAutoStart(false), nothing is delivered until start()")
    void autoStartDisabled() {
        Queue q = queue();
        JMSContext ctx = context();
        ctx.setAutoStart(false);
        assertFalse(ctx.getAutoStart());
        ctx.createProducer().send(q, "waits for start");
        JMSConsumer consumer = ctx.createConsumer(q);
        assertNoMessage(consumer);
        ctx.start();
        assertEquals("waits for start", consumer.receiveBody(String.class, RECEIVE_TIMEOUT));
    }

    @Test
    @DisplayName("6.1.5 / 8.4: stop() pauses delivery, start() resumes it")
    void stopAndStart() {
        Queue q = queue();
        JMSContext ctx = context();
        JMSConsumer consumer = ctx.createConsumer(q);
        ctx.stop();
        ctx.createProducer().send(q, "paused");
        assertNoMessage(consumer);
        ctx.start();
        assertEquals("paused", consumer.receiveBody(String.class, RECEIVE_TIMEOUT));
    }

    @Test
    @DisplayName("6.1.2: a client id set on a new context is returned by getClientID")
    void clientId() {
        JMSContext ctx = context();
        String id = uniqueClientId();
        ctx.setClientID(id);
        assertEquals(id, ctx.getClientID());
    }

    @Test
    @DisplayName("6.1.2: setting the client id after the context was used throws IllegalStateRuntimeException")
    void clientIdTooLate() {
        JMSContext ctx = context();
        ctx.createConsumer(queue());
        assertThrows(IllegalStateRuntimeException.class, () -> ctx.setClientID(uniqueClientId()));
    }

    @Test
    @DisplayName("6.1.6: a context provides ConnectionMetaData")
    void metaData() throws JMSException {
        assertNotNull(context().getMetaData().getJMSProviderName());
    }

    @Test
    @DisplayName("6.1.7: the context's exception listener can be set and read back")
    void exceptionListener() {
        JMSContext ctx = context();
        jakarta.jms.ExceptionListener l = e -> {};
        ctx.setExceptionListener(l);
        assertSame(l, ctx.getExceptionListener());
    }

    @Test
    @DisplayName("6.2.7: a transacted context delivers its sends on commit only")
    void commit() {
        Queue q = queue();
        JMSContext tx = context(JMSContext.SESSION_TRANSACTED);
        tx.createProducer().send(q, "committed");
        JMSContext reader = context();
        JMSConsumer consumer = reader.createConsumer(q);
        assertNoMessage(consumer);
        tx.commit();
        assertEquals("committed", consumer.receiveBody(String.class, RECEIVE_TIMEOUT));
    }

    @Test
    @DisplayName("6.2.7: rollback on a transacted context discards sends and redelivers receives")
    void rollback() throws JMSException {
        Queue q = queue();
        JMSContext tx = context(JMSContext.SESSION_TRANSACTED);
        tx.createProducer().send(q, "kept");
        tx.commit();
        JMSConsumer consumer = tx.createConsumer(q);
        assertNotNull(consumer.receive(RECEIVE_TIMEOUT));
        tx.createProducer().send(q, "discarded");
        tx.rollback();
        Message again = consumer.receive(RECEIVE_TIMEOUT);
        assertEquals("kept", again.getBody(String.class));
        assertTrue(again.getJMSRedelivered());
        tx.commit();
        assertNoMessage(consumer);
    }

    @Test
    @DisplayName("10.3: commit on a non-transacted context throws IllegalStateRuntimeException")
    void commitNonTransacted() {
        JMSContext ctx = context();
        assertThrows(IllegalStateRuntimeException.class, ctx::commit);
    }

    @Test
    @DisplayName("JMSContext.rollback: rollback on a non-transacted context throws IllegalStateRuntimeException")
    void rollbackNonTransacted() {
        JMSContext ctx = context();
        assertThrows(IllegalStateRuntimeException.class, ctx::rollback);
    }

    @Test
    @DisplayName("JMSContext.acknowledge: in CLIENT_ACKNOWLEDGE, acknowledges every message consumed")
    void acknowledge() {
        Queue q = queue();
        JMSContext ctx = context(JMSContext.CLIENT_ACKNOWLEDGE);
        ctx.createProducer().send(q, "a").send(q, "b");
        JMSConsumer consumer = ctx.createConsumer(q);
        assertNotNull(consumer.receive(RECEIVE_TIMEOUT));
        assertNotNull(consumer.receive(RECEIVE_TIMEOUT));
        ctx.acknowledge();
        ctx.close();
        assertNoMessage(context().createConsumer(q));
    }

    @Test
    @DisplayName("JMSContext.recover: redelivers the unacknowledged messages, marked redelivered")
    void recover() throws JMSException {
        Queue q = queue();
        JMSContext ctx = context(JMSContext.CLIENT_ACKNOWLEDGE);
        ctx.createProducer().send(q, "again");
        JMSConsumer consumer = ctx.createConsumer(q);
        assertNotNull(consumer.receive(RECEIVE_TIMEOUT));
        ctx.recover();
        Message m = consumer.receive(RECEIVE_TIMEOUT);
        assertTrue(m.getJMSRedelivered());
        assertEquals(2, m.getIntProperty("JMSXDeliveryCount"));
        ctx.acknowledge();
    }

    @Test
    @DisplayName("6.1.8 / 6.2.15: closing a closed context does not throw; a closed context refuses use "
            + "(IllegalStateRuntimeException)")
    void closedContext() {
        JMSContext ctx = context();
        ctx.close();
        ctx.close();
        assertThrows(IllegalStateRuntimeException.class, ctx::createTextMessage);
    }

    @Test
    @DisplayName("2.8.2 / 6.1.8: createContext(int) shares the connection; closing the first context keeps the "
            + "connection for the second")
    void sharedConnection() {
        Queue q = queue();
        JMSContext first = context();
        JMSContext second = track(first.createContext(JMSContext.AUTO_ACKNOWLEDGE));
        first.close();
        second.createProducer().send(q, "still connected");
        assertEquals("still connected", second.createConsumer(q).receiveBody(String.class, RECEIVE_TIMEOUT));
    }

    @Test
    @DisplayName("2.8.2: a context created from another one has its own session mode")
    void childContextSessionMode() {
        JMSContext first = context();
        JMSContext tx = track(first.createContext(JMSContext.SESSION_TRANSACTED));
        assertTrue(tx.getTransacted());
        assertFalse(first.getTransacted());
    }

    @Test
    @DisplayName("6.2.4: the context's message factories create each message type")
    void messageFactories() throws JMSException {
        JMSContext ctx = context();
        assertNotNull(ctx.createMessage());
        assertEquals("t", ctx.createTextMessage("t").getText());
        assertNotNull(ctx.createBytesMessage());
        assertNotNull(ctx.createMapMessage());
        assertNotNull(ctx.createStreamMessage());
        assertEquals(5, ctx.createObjectMessage(5).getObject());
    }

    @Test
    @DisplayName("6.2.3: createQueue and createTopic name the same destinations as the administered objects")
    void createDestinations() {
        Queue q = queue();
        Topic t = topic();
        JMSContext ctx = context();
        Queue created = ctx.createQueue(safeName(q));
        ctx.createProducer().send(q, "same queue");
        assertEquals("same queue", ctx.createConsumer(created).receiveBody(String.class, RECEIVE_TIMEOUT));
        assertNotNull(ctx.createTopic(safeTopicName(t)));
    }

    private static String safeName(Queue q) {
        try {
            return q.getQueueName();
        } catch (JMSException e) {
            throw new AssertionError(e);
        }
    }

    private static String safeTopicName(Topic t) {
        try {
            return t.getTopicName();
        } catch (JMSException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    @DisplayName("6.2.2: a context creates temporary queues it can consume from")
    void temporaryQueue() {
        JMSContext ctx = context();
        TemporaryQueue tq = ctx.createTemporaryQueue();
        ctx.createProducer().send(tq, "temporary");
        assertEquals("temporary", ctx.createConsumer(tq).receiveBody(String.class, RECEIVE_TIMEOUT));
    }

    @Test
    @DisplayName("4.1.6: a context creates queue browsers that do not remove messages")
    void browser() throws JMSException {
        Queue q = queue();
        JMSContext ctx = context();
        ctx.createProducer().send(q, "browse me");
        QueueBrowser browser = ctx.createBrowser(q);
        await("the browser to show the message", RECEIVE_TIMEOUT, () -> {
            try {
                return Collections.list(browser.getEnumeration()).size() == 1;
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
        });
        assertEquals("browse me", ctx.createConsumer(q).receiveBody(String.class, RECEIVE_TIMEOUT));
    }

    @Test
    @DisplayName("8.3.3: a context with a client id creates and unsubscribes unshared durable subscriptions")
    void durableConsumer() {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        JMSContext ctx = context();
        ctx.setClientID(uniqueClientId());
        ctx.createDurableConsumer(t, name).close();
        context().createProducer().send(t, "kept");
        JMSConsumer consumer = ctx.createDurableConsumer(t, name);
        assertEquals("kept", consumer.receiveBody(String.class, RECEIVE_TIMEOUT));
        consumer.close();
        ctx.unsubscribe(name);
    }

    @Test
    @DisplayName("JMSContext.createDurableConsumer: without a client id it throws IllegalStateRuntimeException")
    void durableConsumerNeedsClientId() {
        JMSContext ctx = context();
        Topic t = topic();
        assertThrows(IllegalStateRuntimeException.class, () -> ctx.createDurableConsumer(t, uniqueSubscriptionName()));
    }

    @Test
    @DisplayName("8.3.2: shared consumers of a context share a non-durable subscription")
    void sharedConsumer() {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        JMSContext ctx = context();
        JMSConsumer a = ctx.createSharedConsumer(t, name);
        JMSConsumer b = context().createSharedConsumer(t, name);
        context().createProducer().send(t, "once");
        Message first = a.receive(1000);
        Message second = b.receive(first == null ? RECEIVE_TIMEOUT : ABSENCE_TIMEOUT);
        assertTrue(first == null ^ second == null, "the message must go to exactly one shared consumer");
    }

    @Test
    @DisplayName("8.3.4: a context creates shared durable subscriptions without client id")
    void sharedDurableConsumer() {
        Topic t = topic();
        String name = uniqueSubscriptionName();
        JMSContext ctx = context();
        ctx.createSharedDurableConsumer(t, name).close();
        context().createProducer().send(t, "retained");
        JMSConsumer consumer = ctx.createSharedDurableConsumer(t, name);
        assertEquals("retained", consumer.receiveBody(String.class, RECEIVE_TIMEOUT));
        consumer.close();
        ctx.unsubscribe(name);
    }

    @Test
    @DisplayName("10.3: an invalid selector throws InvalidSelectorRuntimeException")
    void invalidSelector() {
        JMSContext ctx = context();
        Queue q = queue();
        assertThrows(InvalidSelectorRuntimeException.class, () -> ctx.createConsumer(q, "a = = 1"));
    }

    @Test
    @DisplayName("10.3: a null destination for a consumer throws InvalidDestinationRuntimeException")
    void nullDestinationConsumer() {
        JMSContext ctx = context();
        assertThrows(InvalidDestinationRuntimeException.class, () -> ctx.createConsumer(null));
    }

    @Test
    @DisplayName("8.3.1: a context consumer with noLocal does not get its own connection's messages")
    void noLocal() {
        Topic t = topic();
        JMSContext ctx = context();
        JMSConsumer consumer = ctx.createConsumer(t, null, true);
        ctx.createProducer().send(t, "own");
        context().createProducer().send(t, "other");
        assertEquals("other", consumer.receiveBody(String.class, RECEIVE_TIMEOUT));
        assertNoMessage(consumer);
    }

    @Test
    @DisplayName("8.8: JMSConsumer.getMessageSelector returns the selector; a closed consumer refuses receive "
            + "(IllegalStateRuntimeException)")
    void consumerSelectorAndClose() {
        JMSContext ctx = context();
        JMSConsumer consumer = ctx.createConsumer(queue(), "x = 1");
        assertEquals("x = 1", consumer.getMessageSelector());
        consumer.close();
        assertThrows(IllegalStateRuntimeException.class, () -> consumer.receive(10));
    }

    @Test
    @DisplayName("8.7: a JMSConsumer listener receives messages asynchronously")
    void consumerListener() throws Exception {
        Queue q = queue();
        JMSContext ctx = context();
        CountDownLatch got = new CountDownLatch(3);
        JMSConsumer consumer = ctx.createConsumer(q);
        consumer.setMessageListener(m -> got.countDown());
        JMSContext producer = context();
        producer.createProducer().send(q, "1").send(q, "2").send(q, "3");
        assertTrue(got.await(RECEIVE_TIMEOUT, TimeUnit.MILLISECONDS));
    }

    @Test
    @KnownDeviation(
            provider = "artemis",
            reason = "JMSConsumer.getMessageListener (3.1 API): Artemis returns its "
                    + "internal MessageListenerWrapper instead of the listener the application set")
    @DisplayName("8.7 / JMSConsumer.getMessageListener: returns the listener set, null when none")
    void consumerListenerRoundTrip() {
        JMSConsumer consumer = context().createConsumer(queue());
        assertNull(consumer.getMessageListener());
        jakarta.jms.MessageListener l = m -> {};
        consumer.setMessageListener(l);
        assertSame(l, consumer.getMessageListener());
    }

    @Test
    @DisplayName("10.2: methods of the simplified API throw unchecked JMSRuntimeExceptions")
    void uncheckedExceptions() {
        JMSContext ctx = context();
        ctx.close();
        JMSRuntimeException e = assertThrows(JMSRuntimeException.class, () -> ctx.createProducer());
        assertNotNull(e);
    }

    @Test
    @DisplayName("2.8.2 / 8.5: receiveNoWait on an empty queue returns null")
    void receiveNoWait() {
        assertNull(context().createConsumer(queue()).receiveNoWait());
    }

    @Test
    @DisplayName("8.2: a JMSConsumer with a selector receives only matching messages")
    void consumerSelector() throws JMSException {
        Queue q = queue();
        JMSContext ctx = context();
        ctx.createProducer()
                .setProperty("n", 1)
                .send(q, "one")
                .setProperty("n", 2)
                .send(q, "two");
        JMSConsumer consumer = ctx.createConsumer(q, "n = 2");
        TextMessage m = (TextMessage) consumer.receive(RECEIVE_TIMEOUT);
        assertEquals("two", m.getText());
        assertNoMessage(consumer);
    }

    @Test
    @DisplayName("6.2.15: a message received through a closed context stays readable")
    void messageAfterContextClose() throws JMSException {
        Queue q = queue();
        JMSContext ctx = context();
        ctx.createProducer().send(q, "readable");
        Message m = ctx.createConsumer(q).receive(RECEIVE_TIMEOUT);
        ctx.close();
        assertEquals("readable", m.getBody(String.class));
        assertEquals(DeliveryMode.PERSISTENT, m.getJMSDeliveryMode());
    }
}
