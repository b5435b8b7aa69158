package org.partita.spring.boot;

import jakarta.jms.Connection;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.QueueConnection;
import jakarta.jms.TopicConnection;
import java.util.Map;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * A {@link PartitaConnectionFactory} whose connections opened without credentials use
 * {@code spring.partita.user} and {@code spring.partita.password}, and whose connections add the
 * passwords of the key and trust stores ({@code spring.partita.ssl.*-password}) to its URL. Both are
 * kept out of the URL, which the factory's {@code toString()} and the client's error messages show;
 * credentials the caller gives win, as they do over the URL's.
 */
public class PartitaCredentialsConnectionFactory extends PartitaConnectionFactory {
    private static final long serialVersionUID = 1L;

    private final String user;
    private final String password;
    /** URL options added when connecting only (the stores' passwords). */
    private final Map<String, String> secretOptions;

    public PartitaCredentialsConnectionFactory(String url, String user, String password) {
        this(url, user, password, Map.of());
    }

    /**
     * @param user          user of the connections opened without credentials; null: the URL's, if any
     * @param secretOptions URL options connections are opened with but {@link #getUrl()} does not show
     */
    public PartitaCredentialsConnectionFactory(
            String url, String user, String password, Map<String, String> secretOptions) {
        super(url);
        this.user = user;
        this.password = password;
        this.secretOptions = Map.copyOf(secretOptions);
    }

    /** The user name connections opened without credentials use (null: none, or the URL's). */
    public String getUser() {
        return user;
    }

    /** The same credentials and passwords for another URL (the health check's, with a shorter connect timeout). */
    PartitaCredentialsConnectionFactory withUrl(String url) {
        return new PartitaCredentialsConnectionFactory(url, user, password, secretOptions);
    }

    @Override
    protected String connectionUrl() {
        return PartitaConnectionUrl.append(getUrl(), new java.util.TreeMap<>(secretOptions));
    }

    @Override
    public String toString() {
        return "PartitaConnectionFactory[" + getUrl() + (user == null ? "" : ", user " + user) + "]";
    }

    @Override
    public Connection createConnection() throws JMSException {
        return createConnection(user, password);
    }

    @Override
    public QueueConnection createQueueConnection() throws JMSException {
        return createQueueConnection(user, password);
    }

    @Override
    public TopicConnection createTopicConnection() throws JMSException {
        return createTopicConnection(user, password);
    }

    @Override
    public JMSContext createContext() {
        return createContext(user, password);
    }

    @Override
    public JMSContext createContext(int sessionMode) {
        return createContext(user, password, sessionMode);
    }
}
