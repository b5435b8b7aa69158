package org.partita.jms.client;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.QueueConnection;
import jakarta.jms.QueueConnectionFactory;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicConnectionFactory;
import java.io.Serializable;
import org.partita.jms.transport.BrokerConnection;
import org.partita.jms.transport.BrokerError;
import org.partita.jms.transport.FailoverBrokerConnection;
import org.partita.jms.transport.Login;
import org.partita.jms.transport.NettyNodeConnector;
import org.partita.jms.transport.NodeConnector;

/**
 * Entry point of the client: {@code new PartitaConnectionFactory("tcp://127.0.0.1:61700")}, or
 * looked up in JNDI ({@code org.partita.jms.jndi.PartitaInitialContextFactory}). Options ride in
 * the URL query, see {@link ConnectionOptions}.
 */
public class PartitaConnectionFactory
        implements ConnectionFactory, QueueConnectionFactory, TopicConnectionFactory, Serializable {
    private static final long serialVersionUID = 1L;

    private final String url;
    /** Made on first use, and again after deserialization: counts are this factory object's, not carried along. */
    private transient volatile ClientStatistics statistics;

    public PartitaConnectionFactory(String url) {
        this.url = url;
    }

    public String getUrl() {
        return url;
    }

    /**
     * What the connections this factory opened did: connections open and opened, failovers, messages
     * sent and received, failed sends (counted since the factory was made).
     */
    public ClientStatistics getStatistics() {
        ClientStatistics s = statistics;
        if (s == null) {
            synchronized (this) {
                s = statistics;
                if (s == null) {
                    s = new ClientStatistics();
                    statistics = s;
                }
            }
        }
        return s;
    }

    /**
     * The URL connections are opened with: {@link #getUrl()}. A subclass may add options it keeps out
     * of {@code getUrl()} and {@code toString()}, which messages and logs show (passwords of key stores,
     * say).
     */
    protected String connectionUrl() {
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

    /**
     * One node: a plain transport to it. Several: a {@link FailoverBrokerConnection}, connected to the
     * first that accepts, which moves to another when its node is lost (docs/cluster.md, "Failover").
     * {@code connectTimeout} bounds the TCP connect and the handshake to each node together, and
     * {@code greetingTimeout} the wait for the node's first answer within it.
     */
    private PartitaConnection connect(String user, String password, Domain domain) throws JMSException {
        return connect(user, password, domain, PartitaConnection::new);
    }

    /** Makes the connection object once the transport is open and the handshake done. */
    @FunctionalInterface
    interface ConnectionMaker<C extends PartitaConnection> {
        C make(
                org.partita.jms.transport.BrokerConnection transport,
                ConnectionOptions options,
                String clientId,
                Domain domain,
                ClientStatistics statistics);
    }

    <C extends PartitaConnection> C connect(String user, String password, Domain domain, ConnectionMaker<C> maker)
            throws JMSException {
        ConnectionOptions o = ConnectionOptions.parse(connectionUrl());
        Login login = new Login(user != null ? user : o.user(), user != null ? password : o.password(), o.clientId());
        NodeConnector connector =
                new NettyNodeConnector(o.maxFrameSize(), o.tls(), o.heartbeatMillis(), o.greetingTimeoutMillis());
        BrokerConnection transport;
        try {
            if (o.failsOver()) {
                FailoverBrokerConnection failover = new FailoverBrokerConnection(
                        o.nodes(), connector, o.connectTimeoutMillis(), o.failoverTimeoutMillis(), o.sendAgain());
                JmsExceptions.await(failover.open(login.user(), login.password(), login.clientId()));
                transport = failover;
            } else {
                transport = connector.connect(o.nodes().get(0), login, null, o.connectTimeoutMillis());
            }
        } catch (BrokerError e) {
            throw JmsExceptions.from(e);
        }
        return maker.make(transport, o, o.clientId(), domain, getStatistics());
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
