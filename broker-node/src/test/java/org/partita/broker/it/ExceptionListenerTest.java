package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** JMS 6.1.8: the ExceptionListener hears of a connection problem, and only of one. */
@Tag("slow")
class ExceptionListenerTest {
    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    @Test
    void listenerIsCalledAndABlockedReceiveEndsWhenTheNodeStops() throws Exception {
        List<JMSException> told = new CopyOnWriteArrayList<>();
        Connection c = node.factory().createConnection();
        try {
            c.setExceptionListener(told::add);
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = s.createConsumer(s.createQueue("nothing-here"));
            Thread[] receiver = new Thread[1];
            CompletableFuture<Object> blocked = new CompletableFuture<>();
            receiver[0] = new Thread(
                    () -> {
                        try {
                            blocked.complete(consumer.receive()); // no timeout: blocks until a message or the end
                        } catch (Throwable t) {
                            blocked.complete(t);
                        }
                    },
                    "blocked-receive");
            receiver[0].start();
            await("the receive to block")
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> receiver[0].getState() == Thread.State.WAITING
                            || receiver[0].getState() == Thread.State.TIMED_WAITING);
            assertTrue(told.isEmpty());

            node.node().close();

            await("the ExceptionListener").atMost(Duration.ofSeconds(10)).until(() -> !told.isEmpty());
            assertNotNull(told.get(0).getMessage(), "the exception says what happened");
            Object outcome = blocked.get(10, TimeUnit.SECONDS);
            assertTrue(
                    outcome == null || outcome instanceof JMSException,
                    "receive() returns null or throws a JMSException, not " + outcome);
            assertEquals(1, told.size(), "called once: " + told);
            assertThrows(
                    JMSException.class,
                    () -> s.createProducer(s.createQueue("x")).send(s.createTextMessage("after")),
                    "a lost connection refuses further work");
        } finally {
            CrashRecoveryTest.closeQuietly(c);
        }
    }

    @Test
    void listenerHearsThatTheNodeIsShuttingDown() throws Exception {
        // docs/protocol.md: "A node that is shutting down sends ERROR{0, SHUTTING_DOWN} and closes."
        List<JMSException> told = new CopyOnWriteArrayList<>();
        Connection c = node.factory().createConnection();
        try {
            c.setExceptionListener(told::add);
            c.start();
            node.node().close();
            await("the ExceptionListener").atMost(Duration.ofSeconds(10)).until(() -> !told.isEmpty());
            assertEquals(
                    "SHUTTING_DOWN",
                    told.get(0).getErrorCode(),
                    "error code of '" + told.get(0).getMessage() + "'");
        } finally {
            CrashRecoveryTest.closeQuietly(c);
        }
    }

    @Test
    void aFailedNonPersistentSendReachesTheListenerAndTheConnectionStaysUp() throws Exception {
        List<JMSException> told = new CopyOnWriteArrayList<>();
        try (Connection c = node.factory().createConnection()) {
            c.setExceptionListener(told::add);
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer full = s.createProducer(s.createQueue("tiny?maxDepthMessages=1"));
            full.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            full.send(s.createTextMessage("fits"));
            full.send(s.createTextMessage("does not fit"));
            await("the ExceptionListener").atMost(Duration.ofSeconds(10)).until(() -> !told.isEmpty());
            assertInstanceOf(
                    ResourceAllocationException.class, told.get(0), told.get(0).toString());
            assertTrue(told.get(0).getMessage().contains("tiny"), told.get(0).getMessage());

            MessageProducer anonymous = s.createProducer(null);
            anonymous.send(
                    s.createQueue("q?colour=red"),
                    s.createTextMessage("bad option"),
                    DeliveryMode.NON_PERSISTENT,
                    4,
                    0);
            await("the second report").atMost(Duration.ofSeconds(10)).until(() -> told.size() == 2);
            assertTrue(told.get(1).getMessage().contains("colour"), told.get(1).getMessage());

            // the connection is still up: a persistent send and a receive work
            s.createProducer(s.createQueue("after")).send(s.createTextMessage("still up"));
            c.start();
            assertEquals(
                    "still up",
                    ((TextMessage) s.createConsumer(s.createQueue("after")).receive(5000)).getText());
        }
    }

    @Test
    void listenerIsNotCalledWhenTheApplicationClosesTheConnection() throws Exception {
        List<JMSException> told = new CopyOnWriteArrayList<>();
        Connection c = node.factory().createConnection();
        c.setExceptionListener(told::add);
        c.start();
        Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
        s.createProducer(s.createQueue("normal")).send(s.createTextMessage("one"));
        Message m = s.createConsumer(s.createQueue("normal")).receive(5000);
        assertEquals("one", ((TextMessage) m).getText());
        c.close();

        await("no ExceptionListener call")
                .during(Duration.ofSeconds(1))
                .atMost(Duration.ofSeconds(3))
                .until(told::isEmpty);
        // and the node is still there for others
        try (Connection other = node.factory().createConnection()) {
            other.start();
            Session s2 = other.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = s2.createConsumer(s2.createQueue("normal"));
            Message again = consumer.receive(5000);
            assertNotNull(again, "the unacknowledged message came back");
            assertTrue(again.getJMSRedelivered());
            Absence.assertNothingAhead(s2, s2.createQueue("normal"), consumer, "it comes back once");
        }
    }
}
