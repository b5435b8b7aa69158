package org.partita.broker.it;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import jakarta.transaction.Transaction;
import jakarta.transaction.TransactionManager;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.XADataSource;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.h2.jdbcx.JdbcDataSource;
import org.partita.jms.client.PartitaXAConnectionFactory;

/**
 * The unit of work of the XA tests, as an application does it in one global transaction: take an
 * order from the {@code orders} queue, send an invoice to {@code invoices}, and add one to an
 * account in an H2 database through H2's XA data source.
 */
final class XaWork implements AutoCloseable {
    static final String ORDERS = "orders";
    static final String INVOICES = "invoices";

    private final XAConnection jms;
    private final javax.sql.XAConnection db;
    private final XASession session;

    private XaWork(XAConnection jms, javax.sql.XAConnection db) throws JMSException {
        this.jms = jms;
        this.db = db;
        this.session = jms.createXASession();
    }

    static XaWork open(String nodeUrl, Path database) throws JMSException, SQLException {
        XAConnection jms = new PartitaXAConnectionFactory(nodeUrl).createXAConnection();
        jms.start();
        return new XaWork(jms, dataSource(database).getXAConnection());
    }

    /**
     * Does the work in a new transaction of {@code tm}, enlisting the two resources through
     * {@code wrap} (a test may hook a resource's commit), and returns the order's text.
     */
    String doWork(TransactionManager tm, ResourceWrapper wrap) throws Exception {
        tm.begin();
        Transaction tx = tm.getTransaction();
        tx.enlistResource(wrap.wrap("partita", session.getXAResource()));
        tx.enlistResource(wrap.wrap("h2", db.getXAResource()));
        Message order = session.createConsumer(session.createQueue(ORDERS)).receive(10_000);
        if (order == null) {
            tm.rollback();
            throw new IllegalStateException("no order to work on");
        }
        String text = ((TextMessage) order).getText();
        session.createProducer(session.createQueue(INVOICES)).send(session.createTextMessage("invoice for " + text));
        // the handle stays open until the transaction ends: H2 rolls back a handle closed in a transaction
        Connection c = db.getConnection();
        try (Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE ACCOUNTS SET BALANCE = BALANCE + 1 WHERE ID = 1");
        }
        return text;
    }

    @Override
    public void close() throws Exception {
        jms.close();
        db.close();
    }

    /** How a test wraps a resource before it is enlisted. */
    interface ResourceWrapper {
        XAResource wrap(String name, XAResource resource);

        ResourceWrapper NONE = (name, resource) -> resource;
    }

    /** A resource whose {@code commit} first runs {@code hook} (which may kill something, or block). */
    static XAResource beforeCommit(XAResource resource, Runnable hook) {
        return new HookedResource(resource, hook);
    }

    /** Delegates everything; not Serializable, so the transaction manager recovers it through its helper. */
    private record HookedResource(XAResource delegate, Runnable hook) implements XAResource {
        @Override
        public void commit(Xid xid, boolean onePhase) throws XAException {
            hook.run();
            delegate.commit(xid, onePhase);
        }

        @Override
        public void end(Xid xid, int flags) throws XAException {
            delegate.end(xid, flags);
        }

        @Override
        public void forget(Xid xid) throws XAException {
            delegate.forget(xid);
        }

        @Override
        public int getTransactionTimeout() throws XAException {
            return delegate.getTransactionTimeout();
        }

        @Override
        public boolean isSameRM(XAResource other) throws XAException {
            return delegate.isSameRM(other instanceof HookedResource h ? h.delegate : other);
        }

        @Override
        public int prepare(Xid xid) throws XAException {
            return delegate.prepare(xid);
        }

        @Override
        public Xid[] recover(int flag) throws XAException {
            return delegate.recover(flag);
        }

        @Override
        public void rollback(Xid xid) throws XAException {
            delegate.rollback(xid);
        }

        @Override
        public boolean setTransactionTimeout(int seconds) throws XAException {
            return delegate.setTransactionTimeout(seconds);
        }

        @Override
        public void start(Xid xid, int flags) throws XAException {
            delegate.start(xid, flags);
        }
    }

    static XADataSource dataSource(Path database) {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:file:" + database.toAbsolutePath());
        ds.setUser("sa");
        ds.setPassword("");
        return ds;
    }

    /** Creates the account table with balance 0. */
    static void createAccounts(Path database) throws SQLException {
        try (Connection c = ((JdbcDataSource) dataSource(database)).getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE ACCOUNTS(ID INT PRIMARY KEY, BALANCE INT NOT NULL)");
            s.execute("INSERT INTO ACCOUNTS VALUES(1, 0)");
        }
    }

    static int balance(Path database) throws SQLException {
        try (Connection c = ((JdbcDataSource) dataSource(database)).getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT BALANCE FROM ACCOUNTS WHERE ID = 1")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** Branches H2 still holds prepared. */
    static List<Xid> inDoubtInDatabase(Path database) throws SQLException, XAException {
        javax.sql.XAConnection x = dataSource(database).getXAConnection();
        try {
            return new ArrayList<>(List.of(x.getXAResource().recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN)));
        } finally {
            x.close();
        }
    }
}
