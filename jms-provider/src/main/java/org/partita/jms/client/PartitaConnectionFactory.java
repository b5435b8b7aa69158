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
        throw new UnsupportedOperationException("being written");
    }

    @Override
    public Connection createConnection(String userName, String password) throws JMSException {
        throw new UnsupportedOperationException("being written");
    }

    @Override
    public QueueConnection createQueueConnection() throws JMSException {
        throw new UnsupportedOperationException("being written");
    }

    @Override
    public QueueConnection createQueueConnection(String userName, String password) throws JMSException {
        throw new UnsupportedOperationException("being written");
    }

    @Override
    public TopicConnection createTopicConnection() throws JMSException {
        throw new UnsupportedOperationException("being written");
    }

    @Override
    public TopicConnection createTopicConnection(String userName, String password) throws JMSException {
        throw new UnsupportedOperationException("being written");
    }

    @Override
    public JMSContext createContext() {
        throw new UnsupportedOperationException("being written");
    }

    @Override
    public JMSContext createContext(String userName, String password) {
        throw new UnsupportedOperationException("being written");
    }

    @Override
    public JMSContext createContext(String userName, String password, int sessionMode) {
        throw new UnsupportedOperationException("being written");
    }

    @Override
    public JMSContext createContext(int sessionMode) {
        throw new UnsupportedOperationException("being written");
    }
}
