package org.partita.tck.connection;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionMetaData;
import jakarta.jms.ExceptionListener;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.JMSException;
import jakarta.jms.Session;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.partita.tck.support.TckTest;

/** Jakarta Messaging 3.1, sections 6.1.1, 6.1.6 and 6.1.7: credentials, metadata, exception listener. */
class ConnectionMetaDataTest extends TckTest {

    @Test
    @DisplayName("6.1.6: ConnectionMetaData names the provider and its version")
    void providerNameAndVersion() throws JMSException {
        ConnectionMetaData md = connection().getMetaData();
        assertNotNull(md.getJMSProviderName());
        assertFalse(md.getJMSProviderName().isBlank());
        assertNotNull(md.getProviderVersion());
        assertFalse(md.getProviderVersion().isBlank());
    }

    @Test
    @DisplayName("6.1.6: ConnectionMetaData gives the Jakarta Messaging version, at least 2.0, consistently")
    void specVersion() throws JMSException {
        ConnectionMetaData md = connection().getMetaData();
        assertTrue(md.getJMSMajorVersion() >= 2, "major version " + md.getJMSMajorVersion());
        assertTrue(md.getJMSMinorVersion() >= 0);
        assertNotNull(md.getJMSVersion());
        assertTrue(
                md.getJMSVersion().startsWith(md.getJMSMajorVersion() + "."),
                md.getJMSVersion() + " vs major " + md.getJMSMajorVersion());
    }

    @Test
    @DisplayName("6.1.6 / 3.5.9: the JMSX properties listed include the mandatory JMSXDeliveryCount and "
            + "JMSXGroupID/JMSXGroupSeq that all providers must support")
    void jmsxPropertyNames() throws JMSException {
        List<String> names = Collections.list(connection().getMetaData().getJMSXPropertyNames()).stream()
                .map(Object::toString)
                .toList();
        assertTrue(names.contains("JMSXDeliveryCount"), names.toString());
        assertTrue(names.contains("JMSXGroupID"), names.toString());
        assertTrue(names.contains("JMSXGroupSeq"), names.toString());
    }

    @Test
    @DisplayName("6.1.6: metadata is available on a started connection as well")
    void metadataOfStartedConnection() throws JMSException {
        assertNotNull(startedConnection().getMetaData().getJMSProviderName());
    }

    @Test
    @DisplayName("6.1.7: getExceptionListener returns null when none is registered")
    void noExceptionListenerByDefault() throws JMSException {
        assertNull(connection().getExceptionListener());
    }

    @Test
    @DisplayName("6.1.7: getExceptionListener returns the registered listener")
    void exceptionListenerRoundTrip() throws JMSException {
        Connection c = connection();
        ExceptionListener listener = e -> {};
        c.setExceptionListener(listener);
        assertSame(listener, c.getExceptionListener());
    }

    @Test
    @DisplayName("6.1.7: an exception thrown by a call is not also delivered to the ExceptionListener")
    void thrownExceptionsAreNotDeliveredToListener() throws Exception {
        Connection c = startedConnection();
        List<JMSException> seen = Collections.synchronizedList(new ArrayList<>());
        c.setExceptionListener(seen::add);
        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        assertThrows(InvalidSelectorException.class, () -> s.createConsumer(queue(), "this is (not valid"));
        new CountDownLatch(1).await(ABSENCE_TIMEOUT, TimeUnit.MILLISECONDS);
        assertTrue(seen.isEmpty(), "ExceptionListener got " + seen);
    }

    @Test
    @DisplayName("6.1.1: createConnection(user, password) on a node without authentication connects")
    void credentialsOnUnsecuredProvider() throws JMSException {
        Connection c = track(connectionFactory().createConnection("guest", "guest"));
        c.start();
        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        var q = queue();
        s.createProducer(q).send(s.createTextMessage("with credentials"));
        assertReceivesText(s.createConsumer(q), "with credentials");
    }

    @Test
    @DisplayName("5.3: connection factories support concurrent use from several threads")
    void connectionFactoryConcurrentUse() throws Exception {
        var cf = connectionFactory();
        List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Thread t = new Thread(() -> {
                try (Connection c = cf.createConnection()) {
                    c.createSession(false, Session.AUTO_ACKNOWLEDGE).close();
                } catch (Throwable e) {
                    errors.add(e);
                }
            });
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join(RECEIVE_TIMEOUT * 2);
        }
        assertTrue(errors.isEmpty(), errors.toString());
    }
}
