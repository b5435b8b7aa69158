package org.partita.ra;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionFactory;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterAssociation;
import jakarta.resource.spi.TransactionSupport;
import java.io.PrintWriter;
import java.util.Objects;
import java.util.Set;
import javax.security.auth.Subject;

/**
 * The outbound side: makes the pooled {@code jakarta.jms.ConnectionFactory} applications look up
 * ({@link PartitaConnectionFactoryHandle}) and the physical connections behind it
 * ({@link PartitaManagedConnection}), with XA, local or no transactions as the server configures
 * the pool. Its properties default to the resource adapter's.
 */
public class PartitaManagedConnectionFactory
        implements ManagedConnectionFactory, ResourceAdapterAssociation, TransactionSupport {
    private static final long serialVersionUID = 1L;

    private String connectionUrl;
    private String userName;
    private String password;
    private transient ResourceAdapter adapter;
    private transient PrintWriter logWriter;

    @Override
    public Object createConnectionFactory(ConnectionManager manager) {
        return new PartitaConnectionFactoryHandle(this, manager);
    }

    /** Outside a server: connections are made as needed and not pooled. */
    @Override
    public Object createConnectionFactory() {
        return new PartitaConnectionFactoryHandle(this, (mcf, info) -> {
            ManagedConnection mc = mcf.createManagedConnection(null, info);
            return mc.getConnection(null, info);
        });
    }

    @Override
    public ManagedConnection createManagedConnection(Subject subject, ConnectionRequestInfo info)
            throws ResourceException {
        return new PartitaManagedConnection(this, settings(info));
    }

    /** A connection made for the same node and credentials, if the pool has one. */
    @Override
    @SuppressWarnings("rawtypes")
    public ManagedConnection matchManagedConnections(Set candidates, Subject subject, ConnectionRequestInfo info) {
        ConnectionSettings wanted = settings(info);
        for (Object o : candidates) {
            if (o instanceof PartitaManagedConnection mc && mc.settings().equals(wanted) && mc.usable()) {
                return mc;
            }
        }
        return null;
    }

    /** The settings of a request: its credentials if it has any, this factory's otherwise. */
    ConnectionSettings settings(ConnectionRequestInfo info) {
        if (info instanceof ConnectionSettings s) {
            return s;
        }
        return new ConnectionSettings(effectiveUrl(), effectiveUser(), effectivePassword());
    }

    String effectiveUrl() {
        if (connectionUrl != null && !connectionUrl.isBlank()) {
            return connectionUrl.trim();
        }
        return adapter instanceof PartitaResourceAdapter ra
                ? ra.effectiveUrl()
                : System.getProperty(PartitaResourceAdapter.URL_PROPERTY, PartitaResourceAdapter.DEFAULT_URL);
    }

    String effectiveUser() {
        return userName != null ? userName : adapter instanceof PartitaResourceAdapter ra ? ra.getUserName() : null;
    }

    String effectivePassword() {
        return password != null ? password : adapter instanceof PartitaResourceAdapter ra ? ra.getPassword() : null;
    }

    @Override
    public TransactionSupportLevel getTransactionSupport() {
        return TransactionSupportLevel.XATransaction;
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
    public ResourceAdapter getResourceAdapter() {
        return adapter;
    }

    @Override
    public void setResourceAdapter(ResourceAdapter ra) {
        this.adapter = ra;
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

    @Override
    public boolean equals(Object o) {
        return o instanceof PartitaManagedConnectionFactory f
                && Objects.equals(connectionUrl, f.connectionUrl)
                && Objects.equals(userName, f.userName)
                && Objects.equals(password, f.password);
    }

    @Override
    public int hashCode() {
        return Objects.hash(connectionUrl, userName, password);
    }
}
