package org.partita.ra;

import jakarta.jms.JMSException;
import jakarta.jms.Session;
import jakarta.jms.XAConnection;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.LocalTransaction;
import jakarta.resource.spi.LocalTransactionException;

/**
 * A pool configured for local transactions: the server begins, commits and rolls back; the
 * handles' sessions meanwhile work in one transacted session of the physical connection.
 */
final class PartitaLocalTransaction implements LocalTransaction, jakarta.resource.cci.LocalTransaction {
    private final XAConnection physical;
    private Session session;
    private volatile boolean active;

    PartitaLocalTransaction(XAConnection physical) {
        this.physical = physical;
    }

    boolean active() {
        return active;
    }

    synchronized Session session() throws JMSException {
        if (session == null) {
            session = physical.createSession(true, Session.SESSION_TRANSACTED);
        }
        return session;
    }

    @Override
    public void begin() throws ResourceException {
        if (active) {
            throw new LocalTransactionException("a local transaction is already active on this connection");
        }
        active = true;
    }

    @Override
    public void commit() throws ResourceException {
        end(true);
    }

    @Override
    public void rollback() throws ResourceException {
        end(false);
    }

    private void end(boolean commit) throws ResourceException {
        if (!active) {
            throw new LocalTransactionException("no local transaction is active on this connection");
        }
        active = false;
        try {
            if (session != null) {
                if (commit) {
                    session.commit();
                } else {
                    session.rollback();
                }
            }
        } catch (JMSException e) {
            throw new LocalTransactionException((commit ? "commit" : "rollback") + " failed: " + e.getMessage(), e);
        }
    }
}
