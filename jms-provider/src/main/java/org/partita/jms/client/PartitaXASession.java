package org.partita.jms.client;

import jakarta.jms.JMSException;
import jakarta.jms.QueueSession;
import jakarta.jms.Session;
import jakarta.jms.TopicSession;
import jakarta.jms.TransactionInProgressException;
import jakarta.jms.XAQueueSession;
import jakarta.jms.XASession;
import jakarta.jms.XATopicSession;
import javax.transaction.xa.XAResource;

/**
 * A session whose work a transaction manager commits: while its {@link XAResource} associates it
 * with a branch, its sends and what its application consumes are that branch's, and it works
 * like a transacted session; otherwise it works in AUTO_ACKNOWLEDGE. As the specification says,
 * {@code getTransacted()} is always true and {@code commit()}/{@code rollback()} are refused.
 */
public class PartitaXASession extends PartitaSession implements XASession, XAQueueSession, XATopicSession {
    private final PartitaXAResource resource = new PartitaXAResource(this);

    PartitaXASession(PartitaConnection connection, int id, Domain domain) {
        super(connection, id, Session.AUTO_ACKNOWLEDGE, domain);
    }

    @Override
    int mode() {
        return resource.associated() ? Session.SESSION_TRANSACTED : Session.AUTO_ACKNOWLEDGE;
    }

    /**
     * Inside a branch too: each message the application consumed is acknowledged into the branch at
     * once, so the node knows the branch's work as it happens (a timeout or a lost connection gives
     * it back at once) and the end of the branch has little left to send.
     */
    @Override
    boolean settlesEachMessage() {
        return true;
    }

    @Override
    public XAResource getXAResource() {
        return resource;
    }

    @Override
    public Session getSession() throws JMSException {
        checkOpen();
        return this;
    }

    @Override
    public QueueSession getQueueSession() throws JMSException {
        checkOpen();
        return this;
    }

    @Override
    public TopicSession getTopicSession() throws JMSException {
        checkOpen();
        return this;
    }

    @Override
    public boolean getTransacted() throws JMSException {
        checkOpen();
        return true;
    }

    @Override
    public int getAcknowledgeMode() throws JMSException {
        checkOpen();
        return Session.SESSION_TRANSACTED;
    }

    @Override
    public void commit() throws JMSException {
        checkOpen();
        throw new TransactionInProgressException("an XA session's work is committed by its transaction manager"
                + " (through getXAResource()), not by commit()");
    }

    @Override
    public void rollback() throws JMSException {
        checkOpen();
        throw new TransactionInProgressException("an XA session's work is rolled back by its transaction manager"
                + " (through getXAResource()), not by rollback()");
    }
}
