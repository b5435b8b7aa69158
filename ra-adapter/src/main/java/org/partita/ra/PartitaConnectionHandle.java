package org.partita.ra;

import jakarta.jms.ConnectionConsumer;
import jakarta.jms.ConnectionMetaData;
import jakarta.jms.Destination;
import jakarta.jms.ExceptionListener;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.QueueConnection;
import jakarta.jms.QueueSession;
import jakarta.jms.ServerSessionPool;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicSession;

/**
 * The connection an application gets from the pooled factory. It follows the Jakarta Messaging
 * rules for the Jakarta EE web and EJB containers (Jakarta Messaging 3.1, 12.3): one session per
 * connection; inside a JTA transaction the session works in it whatever {@code createSession} is
 * given; no message listeners, exception listeners, client ids, {@code stop()} or connection
 * consumers. Closing it gives the physical connection back to the pool.
 */
public final class PartitaConnectionHandle implements QueueConnection, TopicConnection {
    private volatile PartitaManagedConnection managed;
    private volatile SessionHandle session;
    private volatile boolean closed;

    PartitaConnectionHandle(PartitaManagedConnection managed) {
        this.managed = managed;
    }

    PartitaManagedConnection managedConnection() {
        return managed;
    }

    void reassign(PartitaManagedConnection to) {
        managed = to;
    }

    private void checkOpen() throws JMSException {
        if (closed) {
            throw new IllegalStateException("the connection is closed");
        }
    }

    private static IllegalStateException notInContainer(String what) {
        return new IllegalStateException(
                what + " is not allowed in a Jakarta EE web or EJB container (Jakarta Messaging 12.2)");
    }

    @Override
    public synchronized Session createSession(boolean transacted, int acknowledgeMode) throws JMSException {
        checkOpen();
        if (session != null && !session.isClosed()) {
            throw new IllegalStateException("a connection in a Jakarta EE container has one session at a time;"
                    + " close it, or use another connection (they come from a pool)");
        }
        PartitaManagedConnection.BorrowedSession borrowed = managed.borrowSession(transacted, acknowledgeMode);
        session = new SessionHandle(borrowed);
        return session.proxy();
    }

    @Override
    public Session createSession(int sessionMode) throws JMSException {
        return createSession(sessionMode == Session.SESSION_TRANSACTED, sessionMode);
    }

    @Override
    public Session createSession() throws JMSException {
        return createSession(false, Session.AUTO_ACKNOWLEDGE);
    }

    @Override
    public QueueSession createQueueSession(boolean transacted, int acknowledgeMode) throws JMSException {
        return (QueueSession) createSession(transacted, acknowledgeMode);
    }

    @Override
    public TopicSession createTopicSession(boolean transacted, int acknowledgeMode) throws JMSException {
        return (TopicSession) createSession(transacted, acknowledgeMode);
    }

    @Override
    public String getClientID() throws JMSException {
        checkOpen();
        return managed.physical().getClientID();
    }

    @Override
    public void setClientID(String clientID) throws JMSException {
        throw notInContainer("setClientID");
    }

    @Override
    public ConnectionMetaData getMetaData() throws JMSException {
        checkOpen();
        return managed.physical().getMetaData();
    }

    @Override
    public ExceptionListener getExceptionListener() throws JMSException {
        checkOpen();
        return null;
    }

    @Override
    public void setExceptionListener(ExceptionListener listener) throws JMSException {
        throw notInContainer("setExceptionListener");
    }

    /** The physical connection is started already. */
    @Override
    public void start() throws JMSException {
        checkOpen();
    }

    @Override
    public void stop() throws JMSException {
        throw notInContainer("stop");
    }

    @Override
    public void close() throws JMSException {
        if (closed) {
            return;
        }
        invalidate();
        managed.closed(this);
    }

    /** Closes what the application left open; the handle is unusable from now on. */
    void invalidate() {
        closed = true;
        SessionHandle s = session;
        if (s != null) {
            s.closeQuietly();
        }
    }

    @Override
    public ConnectionConsumer createConnectionConsumer(
            Destination destination, String messageSelector, ServerSessionPool sessionPool, int maxMessages)
            throws JMSException {
        throw notInContainer("createConnectionConsumer");
    }

    @Override
    public ConnectionConsumer createConnectionConsumer(
            Queue queue, String messageSelector, ServerSessionPool sessionPool, int maxMessages) throws JMSException {
        throw notInContainer("createConnectionConsumer");
    }

    @Override
    public ConnectionConsumer createConnectionConsumer(
            Topic topic, String messageSelector, ServerSessionPool sessionPool, int maxMessages) throws JMSException {
        throw notInContainer("createConnectionConsumer");
    }

    @Override
    public ConnectionConsumer createSharedConnectionConsumer(
            Topic topic,
            String subscriptionName,
            String messageSelector,
            ServerSessionPool sessionPool,
            int maxMessages)
            throws JMSException {
        throw notInContainer("createSharedConnectionConsumer");
    }

    @Override
    public ConnectionConsumer createDurableConnectionConsumer(
            Topic topic,
            String subscriptionName,
            String messageSelector,
            ServerSessionPool sessionPool,
            int maxMessages)
            throws JMSException {
        throw notInContainer("createDurableConnectionConsumer");
    }

    @Override
    public ConnectionConsumer createSharedDurableConnectionConsumer(
            Topic topic,
            String subscriptionName,
            String messageSelector,
            ServerSessionPool sessionPool,
            int maxMessages)
            throws JMSException {
        throw notInContainer("createSharedDurableConnectionConsumer");
    }
}
