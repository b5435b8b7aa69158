package org.partita.spring.boot;

import jakarta.jms.Connection;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.QueueConnection;
import jakarta.jms.TopicConnection;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * A {@link PartitaConnectionFactory} whose connections opened without credentials use
 * {@code spring.partita.user} and {@code spring.partita.password}. They are kept out of the URL, which
 * the factory's {@code toString()} and the client's error messages show; credentials the caller gives
 * win, as they do over the URL's.
 */
public class PartitaCredentialsConnectionFactory extends PartitaConnectionFactory {
    private static final long serialVersionUID = 1L;

    private final String user;
    private final String password;

    public PartitaCredentialsConnectionFactory(String url, String user, String password) {
        super(url);
        this.user = user;
        this.password = password;
    }

    /** The user name connections opened without credentials use. */
    public String getUser() {
        return user;
    }

    @Override
    public String toString() {
        return "PartitaConnectionFactory[" + getUrl() + ", user " + user + "]";
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
