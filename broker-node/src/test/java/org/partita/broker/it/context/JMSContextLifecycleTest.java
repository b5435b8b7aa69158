package org.partita.broker.it.context;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.ConnectionMetaData;
import jakarta.jms.ExceptionListener;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.InvalidClientIDRuntimeException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.JMSSecurityRuntimeException;
import jakarta.jms.Queue;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.broker.it.NodeExtension;
import org.partita.broker.network.NodeContext;
import org.partita.broker.network.NodeServer;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.protocol.Protocol;

/** Creating, sharing, starting, stopping and closing JMSContexts, client ids, metadata and exception listeners. */
@Tag("slow")
class JMSContextLifecycleTest {
    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    @Test
    void createContextDefaultsToAutoAcknowledgeAndEachModeIsKept() {
        PartitaConnectionFactory f = node.factory();
        try (JMSContext ctx = f.createContext()) {
            assertEquals(JMSContext.AUTO_ACKNOWLEDGE, ctx.getSessionMode());
            assertFalse(ctx.getTransacted());
        }
        try (JMSContext ctx = f.createContext(null, null)) {
            assertEquals(JMSContext.AUTO_ACKNOWLEDGE, ctx.getSessionMode());
        }
        int[] modes = {
            JMSContext.AUTO_ACKNOWLEDGE,
            JMSContext.CLIENT_ACKNOWLEDGE,
            JMSContext.DUPS_OK_ACKNOWLEDGE,
            JMSContext.SESSION_TRANSACTED
        };
        for (int mode : modes) {
            try (JMSContext ctx = f.createContext(mode)) {
                assertEquals(mode, ctx.getSessionMode());
                assertEquals(mode == JMSContext.SESSION_TRANSACTED, ctx.getTransacted());
                try (JMSContext derived = ctx.createContext(mode)) {
                    assertEquals(mode, derived.getSessionMode());
                }
            }
            try (JMSContext ctx = f.createContext("user", "pw", mode)) {
                assertEquals(mode, ctx.getSessionMode());
            }
        }
    }

    @Test
    void invalidSessionModeIsAPlainJMSRuntimeException() {
        PartitaConnectionFactory f = node.factory();
        JMSRuntimeException e = assertThrows(JMSRuntimeException.class, () -> f.createContext(99));
        assertEquals(JMSRuntimeException.class, e.getClass());
        assertThrows(JMSRuntimeException.class, () -> f.createContext("u", "p", -1));
        try (JMSContext ctx = f.createContext()) {
            JMSRuntimeException e2 = assertThrows(JMSRuntimeException.class, () -> ctx.createContext(4));
            assertEquals(JMSRuntimeException.class, e2.getClass());
        }
    }

    @Test
    void wrongCredentialsAreAJMSSecurityRuntimeException() throws Exception {
        NodeContext guardedNode = new NodeContext(
                "guarded",
                Protocol.DEFAULT_MAX_FRAME_SIZE,
                (user, password) ->
                        "alice".equals(user) && "secret".equals(password) ? null : "wrong user or password");
        try (NodeServer guarded = new NodeServer("127.0.0.1", 0, node.node().broker(), guardedNode)) {
            PartitaConnectionFactory f = new PartitaConnectionFactory("tcp://127.0.0.1:" + guarded.port());
            assertThrows(JMSSecurityRuntimeException.class, () -> f.createContext("alice", "wrong"));
            assertThrows(
                    JMSSecurityRuntimeException.class,
                    () -> f.createContext("mallory", "secret", JMSContext.SESSION_TRANSACTED));
            assertThrows(JMSSecurityRuntimeException.class, f::createContext);
            try (JMSContext ok = f.createContext("alice", "secret", JMSContext.CLIENT_ACKNOWLEDGE)) {
                Queue q = ok.createQueue("guarded");
                ok.createProducer().send(q, "let in");
                JMSConsumer c = ok.createConsumer(q);
                assertEquals("let in", c.receiveBody(String.class, Wait.ARRIVES));
                ok.acknowledge();
            }
        }
    }

    @Test
    void autoStartStartsTheConnectionWhenAConsumerIsCreated() {
        try (JMSContext ctx = node.factory().createContext()) {
            assertTrue(ctx.getAutoStart(), "auto-start is on by default");
            Queue q = ctx.createQueue("auto-start");
            ctx.createProducer().send(q, "hello");
            JMSConsumer consumer = ctx.createConsumer(q);
            assertEquals("hello", consumer.receiveBody(String.class, Wait.ARRIVES));
        }
    }

    @Test
    void withAutoStartOffTheConnectionStaysStoppedUntilStart() throws Exception {
        try (JMSContext ctx = node.factory().createContext()) {
            ctx.setAutoStart(false);
            assertFalse(ctx.getAutoStart());
            Queue q = ctx.createQueue("manual-start");
            ctx.createProducer().send(q, "waiting");
            JMSConsumer consumer = ctx.createConsumer(q);
            assertHeldBackFromItsConsumer("manual-start", "the connection must not have been started");
            assertNull(consumer.receiveNoWait());
            ctx.start();
            assertEquals("waiting", consumer.receiveBody(String.class, Wait.ARRIVES));
            Wait.assertNothingAhead(ctx, q, consumer, "it arrives once");
            ctx.setAutoStart(true);
            assertTrue(ctx.getAutoStart());
        }
    }

    @Test
    void autoStartIsPerContextOnASharedConnection() throws Exception {
        try (JMSContext first = node.factory().createContext();
                JMSContext second = first.createContext(JMSContext.AUTO_ACKNOWLEDGE)) {
            first.setAutoStart(false);
            assertTrue(second.getAutoStart(), "a new context has auto-start on, whatever its sibling says");
            Queue q1 = first.createQueue("per-context-1");
            Queue q2 = first.createQueue("per-context-2");
            first.createProducer().send(q1, "one").send(q2, "two");
            JMSConsumer firsts = first.createConsumer(q1);
            assertHeldBackFromItsConsumer("per-context-1", "auto-start off: the shared connection stays stopped");
            assertNull(firsts.receiveNoWait());
            JMSConsumer seconds = second.createConsumer(q2); // auto-start on: starts the shared connection
            assertEquals("two", seconds.receiveBody(String.class, Wait.ARRIVES));
            assertEquals("one", firsts.receiveBody(String.class, Wait.ARRIVES), "started for every context on it");
        }
    }

    /**
     * Asserts that the node holds the one message of {@code queue} back from the one consumer attached
     * to it: a consumer of a stopped connection gives the node no credit. Not a snapshot that a
     * delivery could follow: a started connection's consumer has its credit at the node before
     * createConsumer or start returns, the queue delivers a waiting message in the step that gives
     * the credit or takes the message, and its figures are read after those steps.
     */
    private void assertHeldBackFromItsConsumer(String queue, String why) throws JMSException {
        Wait.awaitQueue(node.factory(), queue, why, s -> s.consumers() == 1 && s.depth() == 1 && s.inFlight() == 0);
    }

    @Test
    void stopPausesDeliveryAndStartResumesIt() throws Exception {
        try (JMSContext ctx = node.factory().createContext();
                JMSContext sender = node.factory().createContext()) {
            Queue q = ctx.createQueue("stop-start");
            JMSConsumer consumer = ctx.createConsumer(q);
            ctx.stop();
            ctx.stop(); // stopping a stopped connection is ignored
            sender.createProducer().send(q, "paused");
            assertHeldBackFromItsConsumer("stop-start", "a stopped connection delivers nothing");
            assertNull(consumer.receiveNoWait());
            ctx.start();
            ctx.start(); // starting a started connection is ignored
            assertEquals("paused", consumer.receiveBody(String.class, Wait.ARRIVES));
            Wait.assertNothingAhead(sender, q, consumer, "it arrives once");
        }
    }

    @Test
    void contextsCreatedFromAContextShareItsConnection() throws Exception {
        try (JMSContext first = node.factory().createContext()) {
            first.setClientID("shared-connection");
            try (JMSContext second = first.createContext(JMSContext.CLIENT_ACKNOWLEDGE)) {
                assertEquals("shared-connection", second.getClientID(), "same connection, same client id");
                assertThrows(IllegalStateRuntimeException.class, () -> second.setClientID("other"));
                // one context's consumer gets what the other sends, each with its own session mode
                Queue q = first.createQueue("shared");
                JMSConsumer consumer = second.createConsumer(q);
                first.createProducer().send(q, "across sessions");
                TextMessage m = (TextMessage) consumer.receive(Wait.ARRIVES);
                assertEquals("across sessions", m.getText());
                second.acknowledge();
            }
        }
    }

    @Test
    void closingOneSharingContextLeavesTheOtherUsableAndTheLastClosesTheConnection() {
        JMSContext first = node.factory().createContext();
        first.setClientID("refcounted");
        JMSContext second = first.createContext(JMSContext.AUTO_ACKNOWLEDGE);
        JMSContext third = second.createContext(JMSContext.DUPS_OK_ACKNOWLEDGE);
        second.close();
        assertThrows(IllegalStateRuntimeException.class, second::createProducer);

        Queue q = first.createQueue("refcount");
        first.createProducer().send(q, "still open");
        JMSConsumer thirds = third.createConsumer(q);
        assertEquals("still open", thirds.receiveBody(String.class, Wait.ARRIVES));

        first.close(); // the original goes first: the derived context keeps the connection
        assertThrows(IllegalStateRuntimeException.class, () -> first.createQueue("x"));
        third.createProducer().send(q, "third alone");
        assertEquals("third alone", thirds.receiveBody(String.class, Wait.ARRIVES));
        try (JMSContext rival = node.factory().createContext()) {
            assertThrows(
                    InvalidClientIDRuntimeException.class,
                    () -> rival.setClientID("refcounted"),
                    "the connection is still open, so its client id is still taken");
        }

        third.close(); // the last one: the connection closes and its client id is free again
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            try (JMSContext successor = node.factory().createContext()) {
                successor.setClientID("refcounted");
            }
        });
    }

    @Test
    void aClosedContextRefusesEverythingButClose() {
        JMSContext ctx = node.factory().createContext(JMSContext.CLIENT_ACKNOWLEDGE);
        Queue q = ctx.createQueue("closed");
        JMSProducer producer = ctx.createProducer();
        JMSConsumer consumer = ctx.createConsumer(q);
        ctx.close();
        ctx.close(); // closing a closed context is not an error

        List<Runnable> calls = List.of(
                ctx::createProducer,
                () -> ctx.createConsumer(q),
                () -> ctx.createConsumer(q, "a = 1"),
                () -> ctx.createSharedConsumer(ctx.createTopic("t"), "s"),
                () -> ctx.createTopic("t"),
                () -> ctx.createQueue("q"),
                ctx::createTemporaryQueue,
                ctx::createTextMessage,
                ctx::createMessage,
                ctx::createMapMessage,
                () -> ctx.createBrowser(q),
                () -> ctx.unsubscribe("sub"),
                ctx::commit,
                ctx::rollback,
                ctx::recover,
                ctx::acknowledge,
                ctx::getClientID,
                () -> ctx.setClientID("late"),
                ctx::getMetaData,
                ctx::start,
                ctx::stop,
                ctx::getSessionMode,
                ctx::getTransacted,
                () -> ctx.createContext(JMSContext.AUTO_ACKNOWLEDGE),
                () -> ctx.setExceptionListener(null),
                () -> producer.send(q, "after close"),
                () -> consumer.receive(100),
                consumer::receiveNoWait,
                () -> consumer.receiveBody(String.class, 100));
        for (int i = 0; i < calls.size(); i++) {
            int n = i;
            assertThrows(IllegalStateRuntimeException.class, calls.get(i)::run, () -> "call #" + n);
        }
    }

    @Test
    void aMessageListenerMayNotCloseOrStopItsOwnContext() throws Exception {
        try (JMSContext ctx = node.factory().createContext();
                JMSContext sender = node.factory().createContext()) {
            Queue q = ctx.createQueue("listener-close");
            List<Throwable> seen = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch done = new CountDownLatch(1);
            ctx.createConsumer(q).setMessageListener(m -> {
                try {
                    ctx.close();
                } catch (Throwable t) {
                    seen.add(t);
                }
                try {
                    ctx.stop();
                } catch (Throwable t) {
                    seen.add(t);
                }
                done.countDown();
            });
            sender.createProducer().send(q, "close yourself");
            assertTrue(done.await(10, TimeUnit.SECONDS));
            assertEquals(2, seen.size(), "both close and stop must be refused: " + seen);
            seen.forEach(t -> assertInstanceOf(IllegalStateRuntimeException.class, t));
            // the context survived and is still fully usable
            sender.createProducer().send(q, "second");
            ctx.createProducer().send(ctx.createQueue("elsewhere"), "ok");
        }
    }

    @Test
    void clientIdCanBeSetOnceRightAfterCreation() {
        try (JMSContext ctx = node.factory().createContext()) {
            assertNull(ctx.getClientID());
            ctx.setClientID("first-id");
            assertEquals("first-id", ctx.getClientID());
            IllegalStateRuntimeException e =
                    assertThrows(IllegalStateRuntimeException.class, () -> ctx.setClientID("second-id"));
            assertNotNull(e.getMessage());
            assertEquals("first-id", ctx.getClientID());
        }
    }

    @Test
    void clientIdCannotBeSetAfterTheContextWasUsed() {
        List<Consumer<JMSContext>> firstActions = List.of(
                JMSContext::createProducer,
                ctx -> ctx.createQueue("used"),
                JMSContext::createTextMessage,
                JMSContext::getMetaData,
                JMSContext::start,
                ctx -> ctx.setExceptionListener(e -> {}));
        for (Consumer<JMSContext> action : firstActions) {
            try (JMSContext ctx = node.factory().createContext()) {
                action.accept(ctx);
                assertThrows(IllegalStateRuntimeException.class, () -> ctx.setClientID("too-late"));
            }
        }
    }

    @Test
    void anAdministeredClientIdCannotBeChanged() {
        PartitaConnectionFactory f = new PartitaConnectionFactory(node.node().url() + "?clientID=admin-id");
        try (JMSContext ctx = f.createContext()) {
            assertEquals("admin-id", ctx.getClientID());
            assertThrows(IllegalStateRuntimeException.class, () -> ctx.setClientID("mine"));
        }
    }

    @Test
    void aClientIdInUseOrEmptyIsAnInvalidClientIDRuntimeException() {
        try (JMSContext owner = node.factory().createContext();
                JMSContext rival = node.factory().createContext();
                JMSContext careless = node.factory().createContext()) {
            owner.setClientID("taken");
            assertThrows(InvalidClientIDRuntimeException.class, () -> rival.setClientID("taken"));
            assertThrows(InvalidClientIDRuntimeException.class, () -> careless.setClientID(""));
        }
    }

    @Test
    void metaDataDescribesTheProvider() {
        try (JMSContext ctx = node.factory().createContext()) {
            ConnectionMetaData md = ctx.getMetaData();
            assertEquals("3.1", md.getJMSVersion());
            assertEquals(3, md.getJMSMajorVersion());
            assertEquals(1, md.getJMSMinorVersion());
            assertEquals("Partita", md.getJMSProviderName());
            assertTrue(Collections.list(md.getJMSXPropertyNames()).contains("JMSXDeliveryCount"));
        } catch (JMSException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void theExceptionListenerHearsOfALostNode() throws Exception {
        try (JMSContext ctx = node.factory().createContext()) {
            assertNull(ctx.getExceptionListener());
            AtomicReference<JMSException> heard = new AtomicReference<>();
            CountDownLatch latch = new CountDownLatch(1);
            ExceptionListener listener = e -> {
                heard.set(e);
                latch.countDown();
            };
            ctx.setExceptionListener(listener);
            assertSame(listener, ctx.getExceptionListener());
            ctx.createProducer().send(ctx.createQueue("before-the-end"), "x");
            node.node().close();
            assertTrue(latch.await(10, TimeUnit.SECONDS), "the exception listener was not called");
            assertNotNull(heard.get());
            assertThrows(
                    IllegalStateRuntimeException.class,
                    () -> ctx.createProducer().send(ctx.createQueue("q"), "y"));
        }
    }

    @Test
    void temporaryDestinationsWorkThroughTheContext() {
        try (JMSContext ctx = node.factory().createContext()) {
            TemporaryQueue tq = ctx.createTemporaryQueue();
            TemporaryTopic tt = ctx.createTemporaryTopic();
            JMSConsumer topicConsumer = ctx.createConsumer(tt);
            JMSConsumer queueConsumer = ctx.createConsumer(tq);
            ctx.createProducer().send(tq, "to the queue").send(tt, "to the topic");
            assertEquals("to the queue", queueConsumer.receiveBody(String.class, Wait.ARRIVES));
            assertEquals("to the topic", topicConsumer.receiveBody(String.class, Wait.ARRIVES));
            queueConsumer.close();
            topicConsumer.close();
            tq.delete();
            tt.delete();
        } catch (JMSException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aBrowserSeesMessagesWithoutConsumingThem() throws Exception {
        try (JMSContext ctx = node.factory().createContext()) {
            Queue q = ctx.createQueue("browsed");
            JMSProducer p = ctx.createProducer();
            p.setProperty("colour", "red").send(q, "r1");
            p.setProperty("colour", "blue").send(q, "b1");
            p.setProperty("colour", "red").send(q, "r2");
            var all = ctx.createBrowser(q);
            assertEquals(3, Collections.list(all.getEnumeration()).size());
            var reds = ctx.createBrowser(q, "colour = 'red'");
            assertEquals("colour = 'red'", reds.getMessageSelector());
            assertEquals(2, Collections.list(reds.getEnumeration()).size());
            JMSConsumer consumer = ctx.createConsumer(q);
            assertEquals(List.of("r1", "b1", "r2"), Wait.receiveTexts(consumer, 3), "browsing consumed nothing");
            Wait.assertNothingAhead(ctx, q, consumer, "nor did it add anything");
        }
    }
}
