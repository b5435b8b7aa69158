package org.partita.ra;

import jakarta.jms.JMSException;
import jakarta.jms.Session;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionEvent;
import jakarta.resource.spi.ConnectionEventListener;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.LocalTransaction;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionMetaData;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.security.auth.Subject;
import javax.transaction.xa.XAResource;
import org.partita.jms.client.PartitaXAConnectionFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pooled physical connection to a node, with the sessions applications borrow through its
 * handles: its XA session (the work of a JTA transaction, and of no transaction at all in
 * AUTO_ACKNOWLEDGE), and a transacted session for a pool configured for local transactions.
 */
final class PartitaManagedConnection implements ManagedConnection {
    private static final Logger LOG = LoggerFactory.getLogger(PartitaManagedConnection.class);

    private final PartitaManagedConnectionFactory factory;
    private final ConnectionSettings settings;
    private final XAConnection physical;
    private final XASession xaSession;
    private final TrackedXAResource xaResource;
    private final PartitaLocalTransaction localTransaction;
    private final List<ConnectionEventListener> listeners = new CopyOnWriteArrayList<>();
    private final List<PartitaConnectionHandle> handles = new CopyOnWriteArrayList<>();
    private volatile boolean broken;
    private volatile boolean destroyed;
    private PrintWriter logWriter;

    PartitaManagedConnection(PartitaManagedConnectionFactory factory, ConnectionSettings settings)
            throws ResourceException {
        this.factory = factory;
        this.settings = settings;
        try {
            this.physical = new PartitaXAConnectionFactory(settings.url())
                    .createXAConnection(settings.user(), settings.password());
            physical.setExceptionListener(e -> failed(e));
            physical.start();
            this.xaSession = physical.createXASession();
        } catch (JMSException e) {
            throw new ResourceException(
                    "cannot connect to the Partita node at " + settings.url() + ": " + e.getMessage(), e);
        }
        this.xaResource = new TrackedXAResource(xaSession.getXAResource());
        this.localTransaction = new PartitaLocalTransaction(physical);
    }

    ConnectionSettings settings() {
        return settings;
    }

    boolean usable() {
        return !broken && !destroyed;
    }

    /**
     * The session a handle's {@code createSession} gives: inside a JTA transaction the XA session
     * (the arguments do not count), inside a local transaction the transacted one, and otherwise a
     * new session of the mode asked for (owned by the handle).
     */
    BorrowedSession borrowSession(boolean transacted, int acknowledgeMode) throws JMSException {
        if (xaResource.associated()) {
            return new BorrowedSession(xaSession, false, true);
        }
        if (localTransaction.active()) {
            return new BorrowedSession(localTransaction.session(), false, true);
        }
        int mode = transacted || acknowledgeMode == Session.SESSION_TRANSACTED
                ? Session.AUTO_ACKNOWLEDGE
                : acknowledgeMode;
        if (mode == Session.AUTO_ACKNOWLEDGE) {
            return new BorrowedSession(xaSession, false, false); // outside a branch an XA session auto-acknowledges
        }
        return new BorrowedSession(physical.createSession(false, mode), true, false);
    }

    /** A session a handle uses: {@code owned} ones are closed with it; {@code inTransaction} ones refuse commit and rollback. */
    record BorrowedSession(Session session, boolean owned, boolean inTransaction) {
        /**
         * The XA session lent outside any transaction: it auto-acknowledges, so the handle reports
         * it as the non-transacted AUTO_ACKNOWLEDGE session it acts as, not as the XA session it is.
         */
        boolean xaOutsideBranch() {
            return !owned && !inTransaction;
        }
    }

    XAConnection physical() {
        return physical;
    }

    @Override
    public Object getConnection(Subject subject, ConnectionRequestInfo info) throws ResourceException {
        if (destroyed) {
            throw new ResourceException("this managed connection was destroyed");
        }
        PartitaConnectionHandle h = new PartitaConnectionHandle(this);
        handles.add(h);
        return h;
    }

    @Override
    public void associateConnection(Object connection) throws ResourceException {
        if (!(connection instanceof PartitaConnectionHandle h)) {
            throw new ResourceException("not a Partita connection handle: " + connection);
        }
        h.managedConnection().handles.remove(h);
        h.reassign(this);
        handles.add(h);
    }

    /** A handle closed: the pool may take the connection back. */
    void closed(PartitaConnectionHandle h) {
        handles.remove(h);
        ConnectionEvent e = new ConnectionEvent(this, ConnectionEvent.CONNECTION_CLOSED);
        e.setConnectionHandle(h);
        listeners.forEach(l -> l.connectionClosed(e));
    }

    private void failed(JMSException cause) {
        broken = true;
        LOG.warn("connection to {} failed: {}", settings.url(), cause.getMessage());
        ConnectionEvent e = new ConnectionEvent(this, ConnectionEvent.CONNECTION_ERROR_OCCURRED, cause);
        listeners.forEach(l -> l.connectionErrorOccurred(e));
    }

    /** Back to the pool: the handles left open are closed, what they created with them. */
    @Override
    public void cleanup() {
        for (PartitaConnectionHandle h : handles) {
            h.invalidate();
        }
        handles.clear();
    }

    @Override
    public void destroy() {
        destroyed = true;
        cleanup();
        PartitaResourceAdapter.closeQuietly(physical);
    }

    @Override
    public void addConnectionEventListener(ConnectionEventListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeConnectionEventListener(ConnectionEventListener listener) {
        listeners.remove(listener);
    }

    @Override
    public XAResource getXAResource() {
        return xaResource;
    }

    @Override
    public LocalTransaction getLocalTransaction() {
        return localTransaction;
    }

    @Override
    public ManagedConnectionMetaData getMetaData() throws ResourceException {
        return new ManagedConnectionMetaData() {
            @Override
            public String getEISProductName() {
                return "Partita";
            }

            @Override
            public String getEISProductVersion() {
                try {
                    return physical.getMetaData().getProviderVersion();
                } catch (JMSException e) {
                    return "unknown";
                }
            }

            @Override
            public int getMaxConnections() {
                return 0;
            }

            @Override
            public String getUserName() {
                return settings.user();
            }
        };
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    @Override
    public String toString() {
        return "PartitaManagedConnection[" + settings + "]";
    }
}
