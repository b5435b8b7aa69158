package org.partita.jms.client;

import jakarta.jms.JMSException;
import jakarta.jms.XAConnection;
import jakarta.jms.XAQueueConnection;
import jakarta.jms.XAQueueSession;
import jakarta.jms.XASession;
import jakarta.jms.XATopicConnection;
import jakarta.jms.XATopicSession;
import org.partita.jms.transport.BrokerConnection;

/** A connection that also makes XA sessions; its plain sessions work as on any connection. */
public class PartitaXAConnection extends PartitaConnection
        implements XAConnection, XAQueueConnection, XATopicConnection {

    PartitaXAConnection(
            BrokerConnection transport,
            ConnectionOptions options,
            String clientId,
            Domain domain,
            ClientStatistics statistics) {
        super(transport, options, clientId, domain, statistics);
    }

    @Override
    public XASession createXASession() throws JMSException {
        return openXASession(Domain.ANY);
    }

    @Override
    public XAQueueSession createXAQueueSession() throws JMSException {
        return openXASession(Domain.QUEUE);
    }

    @Override
    public XATopicSession createXATopicSession() throws JMSException {
        return openXASession(Domain.TOPIC);
    }

    PartitaXASession openXASession(Domain domain) throws JMSException {
        return openSession(false, id -> new PartitaXASession(this, id, domain));
    }
}
