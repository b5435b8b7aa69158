package org.partita.ra;

import jakarta.jms.JMSException;
import jakarta.jms.XAConnection;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterInternalException;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import javax.transaction.xa.XAResource;
import org.partita.jms.client.PartitaXAConnectionFactory;
import org.partita.ra.inbound.EndpointActivation;
import org.partita.ra.inbound.PartitaActivationSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Partita resource adapter: message-driven beans on Partita queues and topics (inbound, one
 * {@link EndpointActivation} per bean) and pooled connection factories (outbound,
 * {@link PartitaManagedConnectionFactory}). Its config properties are the defaults of both.
 */
public class PartitaResourceAdapter implements ResourceAdapter, java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(PartitaResourceAdapter.class);
    /** When no URL is configured: the system property, so a server can name its node once. */
    public static final String URL_PROPERTY = "partita.url";

    public static final String DEFAULT_URL = "tcp://127.0.0.1:61700";

    private String connectionUrl;
    private String userName;
    private String password;
    private transient BootstrapContext context;
    private final transient Map<Key, EndpointActivation> activations = new ConcurrentHashMap<>();
    private final transient List<XAConnection> recoveryConnections = new ArrayList<>();

    private record Key(MessageEndpointFactory factory, ActivationSpec spec) {}

    @Override
    public void start(BootstrapContext ctx) throws ResourceAdapterInternalException {
        this.context = ctx;
        LOG.info("Partita resource adapter started; default node {}", effectiveUrl());
    }

    @Override
    public void stop() {
        activations.values().forEach(EndpointActivation::stop);
        activations.clear();
        synchronized (recoveryConnections) {
            recoveryConnections.forEach(PartitaResourceAdapter::closeQuietly);
            recoveryConnections.clear();
        }
        LOG.info("Partita resource adapter stopped");
    }

    @Override
    public void endpointActivation(MessageEndpointFactory factory, ActivationSpec spec) throws ResourceException {
        if (!(spec instanceof PartitaActivationSpec ps)) {
            throw new ResourceException("not a Partita activation spec: " + spec);
        }
        ps.validate();
        EndpointActivation activation = new EndpointActivation(this, factory, ps, context);
        activations.put(new Key(factory, spec), activation);
        activation.subscribe();
        // not on the caller's thread: a server may be deploying the bean in it and refuse, or hold, the
        // endpoints until that deployment is over (Payara waited a minute per bean in createEndpoint)
        activation.startSoon();
    }

    @Override
    public void endpointDeactivation(MessageEndpointFactory factory, ActivationSpec spec) {
        EndpointActivation a = activations.remove(new Key(factory, spec));
        if (a != null) {
            a.stop();
        }
    }

    /**
     * XA resources of the nodes the message-driven beans use, for the transaction manager's
     * recovery: one per node, each on a connection of its own kept until the adapter stops.
     */
    @Override
    public XAResource[] getXAResources(ActivationSpec[] specs) throws ResourceException {
        List<XAResource> out = new ArrayList<>();
        java.util.Set<String> urls = new java.util.LinkedHashSet<>();
        for (ActivationSpec s : specs) {
            if (s instanceof PartitaActivationSpec ps) {
                urls.add(ps.effectiveUrl(this) + "|" + ps.effectiveUser(this) + "|" + ps.effectivePassword(this));
            }
        }
        for (String key : urls) {
            String[] parts = key.split("\\|", -1);
            try {
                XAConnection c = new PartitaXAConnectionFactory(parts[0])
                        .createXAConnection(parts[1].isEmpty() ? null : parts[1], parts[2].isEmpty() ? null : parts[2]);
                synchronized (recoveryConnections) {
                    recoveryConnections.add(c);
                }
                out.add(c.createXASession().getXAResource());
            } catch (JMSException e) {
                LOG.warn("recovery: node {} cannot be reached now: {}", parts[0], e.getMessage());
            }
        }
        return out.toArray(XAResource[]::new);
    }

    /** The node URL: the configured one, else the system property {@value #URL_PROPERTY}, else {@value #DEFAULT_URL}. */
    public String effectiveUrl() {
        if (connectionUrl != null && !connectionUrl.isBlank()) {
            return connectionUrl.trim();
        }
        String fromSystem = System.getProperty(URL_PROPERTY);
        return fromSystem != null && !fromSystem.isBlank() ? fromSystem.trim() : DEFAULT_URL;
    }

    public String getConnectionUrl() {
        return connectionUrl;
    }

    public void setConnectionUrl(String connectionUrl) {
        this.connectionUrl = connectionUrl;
    }

    public String getUserName() {
        return userName;
    }

    public void setUserName(String userName) {
        this.userName = userName;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    static void closeQuietly(jakarta.jms.Connection c) {
        try {
            c.close();
        } catch (JMSException e) {
            LOG.debug("closing a connection: {}", e.getMessage());
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PartitaResourceAdapter r
                && Objects.equals(connectionUrl, r.connectionUrl)
                && Objects.equals(userName, r.userName)
                && Objects.equals(password, r.password);
    }

    @Override
    public int hashCode() {
        return Objects.hash(connectionUrl, userName, password);
    }
}
