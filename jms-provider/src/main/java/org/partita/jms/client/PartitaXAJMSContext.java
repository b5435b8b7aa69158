package org.partita.jms.client;

import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.TransactionInProgressRuntimeException;
import jakarta.jms.XAJMSContext;
import javax.transaction.xa.XAResource;

/**
 * The simplified API over an XA session: a transaction manager enlists {@link #getXAResource()},
 * and the context's sends and receives belong to the branch it is associated with.
 */
public class PartitaXAJMSContext extends PartitaJMSContext implements XAJMSContext {

    PartitaXAJMSContext(PartitaXAConnection connection) {
        super(connection, JMSContext.SESSION_TRANSACTED);
    }

    @Override
    PartitaSession openSession(PartitaConnection connection) throws JMSException {
        return ((PartitaXAConnection) connection).openXASession(Domain.ANY);
    }

    @Override
    public JMSContext getContext() {
        checkOpen();
        return this;
    }

    @Override
    public XAResource getXAResource() {
        return ((PartitaXASession) session()).getXAResource();
    }

    @Override
    public boolean getTransacted() {
        checkOpen();
        return true;
    }

    @Override
    public void commit() {
        checkOpen();
        throw new TransactionInProgressRuntimeException("an XAJMSContext's work is committed by its transaction manager"
                + " (through getXAResource()), not by commit()");
    }

    @Override
    public void rollback() {
        checkOpen();
        throw new TransactionInProgressRuntimeException("an XAJMSContext's work is rolled back by its transaction"
                + " manager (through getXAResource()), not by rollback()");
    }
}
