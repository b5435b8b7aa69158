package org.partita.broker.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.messaginghub.pooled.jms.JmsPoolConnectionFactory;
import org.slf4j.LoggerFactory;

/**
 * messaginghub pooled-jms in front of Partita, as Spring and Camel applications use it: a session
 * that goes back to the pool is reset with {@code setMessageListener(null)}, which must succeed so
 * the pool reuses it instead of logging a warning and opening a new one for every send.
 */
@Tag("slow")
class PooledJmsTest {
    private static final int SENDS = 4_000;

    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    @Test
    void fourThousandPooledSendsReuseSessionsAndLogNothing() throws Exception {
        AtomicInteger sessionsOpened = new AtomicInteger();
        JmsPoolConnectionFactory pool = new JmsPoolConnectionFactory();
        pool.setConnectionFactory(countingSessions(node.factory(), sessionsOpened));
        pool.setMaxConnections(1);

        PrintStream originalErr = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            LoggerFactory.getLogger(PooledJmsTest.class).warn("capture check");
            for (int i = 0; i < SENDS; i++) {
                try (Connection c = pool.createConnection();
                        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE)) {
                    MessageProducer p = s.createProducer(s.createQueue("pooled"));
                    p.send(s.createTextMessage("m" + i));
                }
            }
        } finally {
            System.setErr(originalErr);
            pool.stop();
        }
        String log = captured.toString(StandardCharsets.UTF_8);
        assertTrue(log.contains("capture check"), "the log was captured: " + log);
        String rest = log.replaceFirst(".*capture check\\R?", "");
        assertFalse(
                rest.contains("WARN") || rest.contains("\tat "),
                "no warning or stack trace: " + rest.substring(0, Math.min(rest.length(), 2_000)));
        assertTrue(
                sessionsOpened.get() <= 2,
                "the pool reused its session; sessions opened on the node: " + sessionsOpened.get());
        assertEquals(
                SENDS,
                node.node()
                        .broker()
                        .existingQueue("pooled")
                        .browse(org.partita.protocol.selector.Selector.matchAll())
                        .get(30, java.util.concurrent.TimeUnit.SECONDS)
                        .size(),
                "every send arrived");
    }

    /** The provider's factory, counting the sessions its connections open on the node. */
    private static ConnectionFactory countingSessions(ConnectionFactory real, AtomicInteger count) {
        return (ConnectionFactory) Proxy.newProxyInstance(
                PooledJmsTest.class.getClassLoader(),
                new Class<?>[] {ConnectionFactory.class},
                (proxy, method, args) -> {
                    Object result = invoke(real, method, args);
                    return result instanceof Connection c ? countingConnection(c, count) : result;
                });
    }

    private static Connection countingConnection(Connection real, AtomicInteger count) {
        return (Connection) Proxy.newProxyInstance(
                PooledJmsTest.class.getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    if (method.getName().equals("createSession")) {
                        count.incrementAndGet();
                    }
                    return invoke(real, method, args);
                });
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
