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
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;
import org.partita.jms.transport.BrokerConnection;
import org.partita.jms.transport.BrokerError;
import org.partita.jms.transport.ClientTls;
import org.partita.jms.transport.FailoverBrokerConnection;
import org.partita.jms.transport.Login;
import org.partita.jms.transport.NettyNodeConnector;
import org.partita.jms.transport.NodeConnector;
import org.partita.jms.transport.TlsManagers;

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
    /**
     * TLS material given in code, or null: the URL's store options. Not serialized (the managers are
     * not serializable): a factory bound in JNDI takes its TLS from its URL.
     */
    private transient volatile TlsManagers tlsManagers;

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
     * Whom connections to the URL's {@code ssl://} nodes trust, given in code (a trust store the
     * application loads itself, a Spring Boot SSL bundle's) instead of the URL options
     * {@code trustStore} and {@code trustStorePassword}; null: the JVM's default trust, or the
     * URL's store. A URL with {@code trustStore} or {@code keyStore} is then refused: material comes
     * from one place. Applies to connections opened afterwards; not serialized with the factory.
     */
    public synchronized void setTrustManagerFactory(TrustManagerFactory trustManagers) {
        TlsManagers m = tlsManagers;
        if (m == null ? trustManagers != null : m.trustManagers() != trustManagers) {
            tlsManagers = managers(m == null ? null : m.keyManagers(), trustManagers);
        }
    }

    public TrustManagerFactory getTrustManagerFactory() {
        TlsManagers m = tlsManagers;
        return m == null ? null : m.trustManagers();
    }

    /**
     * The certificate and key connections present to {@code ssl://} nodes that ask for one
     * ({@code tls.clientAuth}), given in code instead of the URL options {@code keyStore} and
     * {@code keyStorePassword}; as {@link #setTrustManagerFactory}.
     */
    public synchronized void setKeyManagerFactory(KeyManagerFactory keyManagers) {
        TlsManagers m = tlsManagers;
        if (m == null ? keyManagers != null : m.keyManagers() != keyManagers) {
            tlsManagers = managers(keyManagers, m == null ? null : m.trustManagers());
        }
    }

    public KeyManagerFactory getKeyManagerFactory() {
        TlsManagers m = tlsManagers;
        return m == null ? null : m.keyManagers();
    }

    private static TlsManagers managers(KeyManagerFactory keys, TrustManagerFactory trust) {
        return keys == null && trust == null ? null : new TlsManagers(keys, trust);
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
                new NettyNodeConnector(o.maxFrameSize(), tls(o), o.heartbeatMillis(), o.greetingTimeoutMillis());
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

    /** The URL's TLS settings, with the material given in code if there is any. */
    private ClientTls tls(ConnectionOptions o) throws JMSException {
        TlsManagers m = tlsManagers;
        if (m == null) {
            return o.tls();
        }
        if (o.tls().trustStore() != null || o.tls().keyStore() != null) {
            throw new JMSException("connection URL '" + getUrl() + "' has the option trustStore or keyStore, and the"
                    + " factory was given TLS material in code (setTrustManagerFactory, setKeyManagerFactory):"
                    + " use one or the other");
        }
        return o.tls().with(m);
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
