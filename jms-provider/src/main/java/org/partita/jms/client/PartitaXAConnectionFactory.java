package org.partita.jms.client;

import jakarta.jms.JMSException;
import jakarta.jms.XAConnection;
import jakarta.jms.XAConnectionFactory;
import jakarta.jms.XAJMSContext;
import jakarta.jms.XAQueueConnection;
import jakarta.jms.XAQueueConnectionFactory;
import jakarta.jms.XATopicConnection;
import jakarta.jms.XATopicConnectionFactory;

/**
 * A connection factory for transaction managers: {@code new PartitaXAConnectionFactory("tcp://127.0.0.1:61700")},
 * or {@code xaConnectionFactory.<name>} in JNDI. The URL options are those of
 * {@link PartitaConnectionFactory}, which this factory also is (its plain connections are not XA).
 */
public class PartitaXAConnectionFactory extends PartitaConnectionFactory
        implements XAConnectionFactory, XAQueueConnectionFactory, XATopicConnectionFactory {
    private static final long serialVersionUID = 1L;

    public PartitaXAConnectionFactory(String url) {
        super(url);
    }

    @Override
    public String toString() {
        return "PartitaXAConnectionFactory[" + getUrl() + "]";
    }

    @Override
    public XAConnection createXAConnection() throws JMSException {
        return connectXA(null, null, Domain.ANY);
    }

    @Override
    public XAConnection createXAConnection(String userName, String password) throws JMSException {
        return connectXA(userName, password, Domain.ANY);
    }

    @Override
    public XAQueueConnection createXAQueueConnection() throws JMSException {
        return connectXA(null, null, Domain.QUEUE);
    }

    @Override
    public XAQueueConnection createXAQueueConnection(String userName, String password) throws JMSException {
        return connectXA(userName, password, Domain.QUEUE);
    }

    @Override
    public XATopicConnection createXATopicConnection() throws JMSException {
        return connectXA(null, null, Domain.TOPIC);
    }

    @Override
    public XATopicConnection createXATopicConnection(String userName, String password) throws JMSException {
        return connectXA(userName, password, Domain.TOPIC);
    }

    @Override
    public XAJMSContext createXAContext() {
        return xaContext(null, null);
    }

    @Override
    public XAJMSContext createXAContext(String userName, String password) {
        return xaContext(userName, password);
    }

    private PartitaXAConnection connectXA(String user, String password, Domain domain) throws JMSException {
        return connect(user, password, domain, PartitaXAConnection::new);
    }

    private XAJMSContext xaContext(String user, String password) {
        try {
            return new PartitaXAJMSContext(connectXA(user, password, Domain.ANY));
        } catch (JMSException e) {
            throw JmsRuntimeExceptions.convert(e);
        }
    }
}
