package org.partita.jms.client;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.QueueConnection;
import jakarta.jms.QueueConnectionFactory;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicConnectionFactory;

import org.partita.jms.transport.BrokerError;
import org.partita.jms.transport.NettyBrokerConnection;

import java.io.Serializable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Entry point of the client: {@code new PartitaConnectionFactory("tcp://127.0.0.1:61700")}, or
 * looked up in JNDI ({@code org.partita.jms.jndi.PartitaInitialContextFactory}). Options ride in
 * the URL query, see {@link ConnectionOptions}.
 */
public class PartitaConnectionFactory implements ConnectionFactory, QueueConnectionFactory, TopicConnectionFactory,
        Serializable {
    private static final long serialVersionUID = 1L;

    private final String url;

    public PartitaConnectionFactory(String url) {
        this.url = url;
    }

    public String getUrl() {
        return url;
    }

    @Override
    public String toString() {
        return "PartitaConnectionFactory[" + url + "]";
    }

    @Override
    public Connection createConnection() throws JMSException {
        return connect(null, null);
    }

    @Override
    public Connection createConnection(String userName, String password) throws JMSException {
        return connect(userName, password);
    }

    @Override
    public QueueConnection createQueueConnection() throws JMSException {
        return connect(null, null, Domain.QUEUE);
    }

    @Override
    public QueueConnection createQueueConnection(String userName, String password) throws JMSException {
        return connect(userName, password, Domain.QUEUE);
    }

    @Override
    public TopicConnection createTopicConnection() throws JMSException {
        return connect(null, null, Domain.TOPIC);
    }

    @Override
    public TopicConnection createTopicConnection(String userName, String password) throws JMSException {
        return connect(userName, password, Domain.TOPIC);
    }

    /**
     * Opens a connection and completes the handshake, so wrong credentials fail here with
     * {@link jakarta.jms.JMSSecurityException}. Credentials given to the call win over those in the URL.
     */
    PartitaConnection connect(String user, String password) throws JMSException {
        return connect(user, password, Domain.ANY);
    }

    private PartitaConnection connect(String user, String password, Domain domain) throws JMSException {
        ConnectionOptions o = ConnectionOptions.parse(url);
        String u = user != null ? user : o.user();
        String p = user != null ? password : o.password();
        long timeout = o.connectTimeoutMillis();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout);
        NettyBrokerConnection transport;
        try {
            transport = NettyBrokerConnection.connect(o.host(), o.port(), o.maxFrameSize(), timeout);
        } catch (BrokerError e) {
            throw JmsExceptions.from(e);
        }
        try {
            handshake(transport, transport.open(u, p, o.clientId()), timeout, deadline);
        } catch (JMSException e) {
            transport.abort();
            throw e;
        }
        return new PartitaConnection(transport, o, o.clientId(), domain);
    }

    /**
     * Waits for the handshake within what is left of {@code connectTimeout} (0: no limit), which
     * thus covers the TCP connect and the handshake together: a port where something else listens
     * and says nothing fails within it too.
     */
    private static void handshake(NettyBrokerConnection transport, CompletableFuture<Void> opened, long timeout,
                                  long deadline) throws JMSException {
        if (timeout == 0) {
            JmsExceptions.await(opened);
            return;
        }
        try {
            opened.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new JMSException(transport.noNodeAt() + ": what listens there did not answer the handshake within"
                    + " connectTimeout (" + timeout + " ms)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JMSException("interrupted while connecting to " + transport.address());
        } catch (ExecutionException e) {
            throw JmsExceptions.from(e.getCause());
        }
    }

    /** A context in AUTO_ACKNOWLEDGE mode, with the URL's credentials if it has any. */
    @Override
    public JMSContext createContext() {
        return context(null, null, JMSContext.AUTO_ACKNOWLEDGE);
    }

    @Override
    public JMSContext createContext(String userName, String password) {
        return context(userName, password, JMSContext.AUTO_ACKNOWLEDGE);
    }

    @Override
    public JMSContext createContext(String userName, String password, int sessionMode) {
        return context(userName, password, sessionMode);
    }

    @Override
    public JMSContext createContext(int sessionMode) {
        return context(null, null, sessionMode);
    }

    /**
     * A context with a connection of its own. An invalid session mode is refused before connecting
     * (JMSRuntimeException); wrong credentials are a JMSSecurityRuntimeException.
     */
    private JMSContext context(String user, String password, int sessionMode) {
        PartitaJMSContext.checkSessionMode(sessionMode);
        try {
            return new PartitaJMSContext(connect(user, password), sessionMode);
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }
}
