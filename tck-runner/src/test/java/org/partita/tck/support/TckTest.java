package org.partita.tck.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import javax.naming.Context;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Base class of every conformance test. Everything is reached through JNDI with the environment
 * {@link ProviderExtension} builds for the provider under test; the tests themselves use only
 * {@code jakarta.jms} and {@code javax.naming}.
 *
 * <p>Each test gets destinations with unique names, and everything it opens through these helpers
 * is closed after it, newest first.
 */
@Tag("slow")
@ExtendWith({ProviderExtension.class, KnownDeviationCondition.class})
public abstract class TckTest {

    /** How long to wait for a message that must arrive. */
    protected static final long RECEIVE_TIMEOUT = 5_000;
    /** How long to wait before concluding that a message that must not arrive did not. */
    protected static final long ABSENCE_TIMEOUT = 400;

    private final Deque<AutoCloseable> resources = new ArrayDeque<>();
    private Context jndi;
    private String testName = "test";

    @BeforeEach
    void tckSetUp(TestInfo info) throws NamingException {
        testName = info.getTestMethod().map(Method::getName).orElse("test");
        if (testName.length() > 40) {
            testName = testName.substring(0, 40);
        }
        jndi = new InitialContext(ProviderExtension.environment());
    }

    @AfterEach
    void tckTearDown() throws NamingException {
        while (!resources.isEmpty()) {
            AutoCloseable r = resources.pop();
            try {
                r.close();
            } catch (Exception | LinkageError ignored) {
                // the test may have closed it already, or left it broken on purpose
            }
        }
        if (jndi != null) {
            jndi.close();
        }
    }

    // ------------------------------------------------------------------ JNDI

    protected Context jndi() {
        return jndi;
    }

    protected <T> T lookup(String name, Class<T> type) {
        try {
            return type.cast(jndi.lookup(name));
        } catch (NamingException e) {
            throw new AssertionError("JNDI lookup of " + name + " failed", e);
        }
    }

    /** The default connection factory, bound under {@code ConnectionFactory}. */
    protected ConnectionFactory connectionFactory() {
        return lookup("ConnectionFactory", ConnectionFactory.class);
    }

    /** A destination name no other test uses. */
    protected String uniqueName(String label) {
        return "tck-" + testName + "-" + label + "-"
                + UUID.randomUUID().toString().substring(0, 8);
    }

    protected Queue queue() {
        return queue("q");
    }

    protected Queue queue(String label) {
        return lookup("dynamicQueues/" + uniqueName(label), Queue.class);
    }

    protected Topic topic() {
        return topic("t");
    }

    protected Topic topic(String label) {
        return lookup("dynamicTopics/" + uniqueName(label), Topic.class);
    }

    protected String uniqueClientId() {
        return "tck-client-" + UUID.randomUUID();
    }

    protected String uniqueSubscriptionName() {
        return "tck-sub-" + UUID.randomUUID().toString().substring(0, 13);
    }

    // ------------------------------------------------------------------ resources

    /** Closes {@code resource} after the test (newest first). */
    protected <T extends AutoCloseable> T track(T resource) {
        resources.push(resource);
        return resource;
    }

    /** A new connection, not started. */
    protected Connection connection() throws JMSException {
        return track(connectionFactory().createConnection());
    }

    /** A new connection with the given client id set right after creation. */
    protected Connection connection(String clientId) throws JMSException {
        Connection c = connection();
        c.setClientID(clientId);
        return c;
    }

    protected Connection startedConnection() throws JMSException {
        Connection c = connection();
        c.start();
        return c;
    }

    /** A non-transacted AUTO_ACKNOWLEDGE session on a new started connection. */
    protected Session session() throws JMSException {
        return startedConnection().createSession(false, Session.AUTO_ACKNOWLEDGE);
    }

    protected JMSContext context() {
        return track(connectionFactory().createContext());
    }

    protected JMSContext context(int sessionMode) {
        return track(connectionFactory().createContext(sessionMode));
    }

    // ------------------------------------------------------------------ send and receive

    /** Sends text messages (persistent) from a connection of its own, closed afterwards. */
    protected void send(Destination destination, String... texts) throws JMSException {
        try (Connection c = connectionFactory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(destination);
            for (String t : texts) {
                p.send(s.createTextMessage(t));
            }
        }
    }

    /** Sends non-persistent text messages from a connection of its own, closed afterwards. */
    protected void sendNonPersistent(Destination destination, String... texts) throws JMSException {
        try (Connection c = connectionFactory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(destination);
            p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            for (String t : texts) {
                p.send(s.createTextMessage(t));
            }
        }
    }

    /**
     * Sends {@code message} through a fresh queue with a producer of {@code session} and returns
     * what a consumer of the same session receives (the session's connection must be started).
     */
    @SuppressWarnings("unchecked")
    protected <T extends Message> T roundTrip(Session session, T message) throws JMSException {
        Queue q = queue("rt");
        MessageProducer p = session.createProducer(q);
        p.send(message);
        p.close();
        // the consumer stays open (closed with its session): some providers stream large bodies lazily
        return (T) receive(session.createConsumer(q));
    }

    /** A message that must arrive within {@link #RECEIVE_TIMEOUT}. */
    protected static Message receive(MessageConsumer consumer) throws JMSException {
        Message m = consumer.receive(RECEIVE_TIMEOUT);
        assertNotNull(m, "expected a message within " + RECEIVE_TIMEOUT + " ms");
        return m;
    }

    /** The text of a text message that must arrive within {@link #RECEIVE_TIMEOUT}. */
    protected static String receiveText(MessageConsumer consumer) throws JMSException {
        Message m = receive(consumer);
        return assertInstanceOf(TextMessage.class, m).getText();
    }

    protected static void assertReceivesText(MessageConsumer consumer, String expected) throws JMSException {
        assertEquals(expected, receiveText(consumer));
    }

    /** The texts of {@code n} text messages that must all arrive. */
    protected static List<String> receiveTexts(MessageConsumer consumer, int n) throws JMSException {
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            texts.add(receiveText(consumer));
        }
        return texts;
    }

    /** Asserts that nothing arrives within {@link #ABSENCE_TIMEOUT}. */
    protected static void assertNoMessage(MessageConsumer consumer) throws JMSException {
        Message m = consumer.receive(ABSENCE_TIMEOUT);
        if (m != null) {
            String body = m instanceof TextMessage t ? " '" + t.getText() + "'" : "";
            fail("expected no message, got " + m.getClass().getSimpleName() + body);
        }
    }

    protected static void assertNoMessage(jakarta.jms.JMSConsumer consumer) {
        assertNull(consumer.receive(ABSENCE_TIMEOUT), "expected no message");
    }

    /** Texts "m0".."m(n-1)". */
    protected static String[] texts(int n) {
        String[] t = new String[n];
        for (int i = 0; i < n; i++) {
            t[i] = "m" + i;
        }
        return t;
    }

    /**
     * Starts a thread that calls {@code blockingCall} and returns once that thread is blocked
     * (waiting), so that what the test does next happens while the call is pending.
     */
    protected static Thread startBlocked(Runnable blockingCall) {
        Thread t = new Thread(blockingCall, "tck-blocked-call");
        t.setDaemon(true);
        t.start();
        await(
                "the call to block",
                RECEIVE_TIMEOUT,
                () -> t.getState() == Thread.State.WAITING
                        || t.getState() == Thread.State.TIMED_WAITING
                        || !t.isAlive());
        sleep(100);
        return t;
    }

    /** Waits until {@code condition} holds, failing after {@code timeoutMillis}. */
    protected static void await(String what, long timeoutMillis, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out after " + timeoutMillis + " ms waiting for " + what);
            }
            sleep(10);
        }
    }

    protected static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
