package org.partita.ra;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.QueueConnection;
import jakarta.jms.QueueConnectionFactory;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicConnectionFactory;
import jakarta.resource.Referenceable;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionManager;
import java.io.Serializable;
import javax.naming.Reference;
import org.partita.jms.client.JmsRuntimeExceptions;
import org.partita.ra.context.ContainerJMSContext;

/**
 * The connection factory applications look up in a server: each connection comes from the
 * server's pool, enlisted in the caller's transaction. It follows the Jakarta Messaging rules for
 * application servers (one session per connection, no message listeners; see
 * {@link PartitaConnectionHandle}).
 */
public class PartitaConnectionFactoryHandle
        implements ConnectionFactory, QueueConnectionFactory, TopicConnectionFactory, Referenceable, Serializable {
    private static final long serialVersionUID = 1L;

    private final PartitaManagedConnectionFactory factory;
    private final transient ConnectionManager manager;
    private Reference reference;

    PartitaConnectionFactoryHandle(PartitaManagedConnectionFactory factory, ConnectionManager manager) {
        this.factory = factory;
        this.manager = manager;
    }

    /** The node this factory connects to. */
    public String getConnectionUrl() {
        return factory.effectiveUrl();
    }

    @Override
    public Connection createConnection() throws JMSException {
        return allocate(null, null);
    }

    @Override
    public Connection createConnection(String userName, String password) throws JMSException {
        return allocate(userName, password);
    }

    @Override
    public QueueConnection createQueueConnection() throws JMSException {
        return allocate(null, null);
    }

    @Override
    public QueueConnection createQueueConnection(String userName, String password) throws JMSException {
        return allocate(userName, password);
    }

    @Override
    public TopicConnection createTopicConnection() throws JMSException {
        return allocate(null, null);
    }

    @Override
    public TopicConnection createTopicConnection(String userName, String password) throws JMSException {
        return allocate(userName, password);
    }

    private PartitaConnectionHandle allocate(String user, String password) throws JMSException {
        ConnectionSettings settings =
                user == null ? factory.settings(null) : new ConnectionSettings(factory.effectiveUrl(), user, password);
        try {
            return (PartitaConnectionHandle) manager.allocateConnection(factory, settings);
        } catch (ResourceException e) {
            JMSException j = new JMSException("no connection to " + settings.url() + ": " + e.getMessage());
            j.setLinkedException(e);
            j.initCause(e);
            throw j;
        }
    }

    /**
     * A {@code JMSContext} on a pooled connection: joins the caller's JTA transaction as a session
     * does, acknowledges automatically outside one ({@link ContainerJMSContext}).
     */
    @Override
    public JMSContext createContext() {
        return createContext(JMSContext.AUTO_ACKNOWLEDGE);
    }

    @Override
    public JMSContext createContext(String userName, String password) {
        return createContext(userName, password, JMSContext.AUTO_ACKNOWLEDGE);
    }

    @Override
    public JMSContext createContext(String userName, String password, int sessionMode) {
        return context(userName, password, sessionMode);
    }

    @Override
    public JMSContext createContext(int sessionMode) {
        return context(null, null, sessionMode);
    }

    private JMSContext context(String user, String password, int sessionMode) {
        try {
            return new ContainerJMSContext(allocate(user, password), sessionMode);
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }

    @Override
    public void setReference(Reference reference) {
        this.reference = reference;
    }

    @Override
    public Reference getReference() {
        return reference;
    }

    @Override
    public String toString() {
        return "PartitaConnectionFactoryHandle[" + factory.effectiveUrl() + "]";
    }
}
