package org.partita.broker.it;

import com.arjuna.ats.jta.recovery.XAResourceRecoveryHelper;
import jakarta.jms.JMSException;
import jakarta.jms.XAConnection;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import javax.transaction.xa.XAResource;
import org.partita.jms.client.PartitaXAConnectionFactory;

/**
 * What Narayana's recovery manager recovers: at every scan a fresh XA connection to the node (it
 * may have restarted) and to the H2 database. A node that cannot be reached is left out of that
 * scan, as a recovery manager must carry on without it.
 */
final class RecoveryResources implements XAResourceRecoveryHelper, AutoCloseable {
    private final Supplier<String> nodeUrl;
    private final Path database;
    private final List<AutoCloseable> opened = new ArrayList<>();

    RecoveryResources(Supplier<String> nodeUrl, Path database) {
        this.nodeUrl = nodeUrl;
        this.database = database;
    }

    @Override
    public boolean initialise(String p) {
        return true;
    }

    @Override
    public synchronized XAResource[] getXAResources() {
        List<XAResource> resources = new ArrayList<>();
        try {
            XAConnection jms = new PartitaXAConnectionFactory(nodeUrl.get()).createXAConnection();
            opened.add(jms);
            resources.add(jms.createXASession().getXAResource());
        } catch (JMSException e) {
            System.err.println("recovery: the node cannot be reached this scan: " + e.getMessage());
        }
        try {
            javax.sql.XAConnection db = XaWork.dataSource(database).getXAConnection();
            opened.add(db::close);
            resources.add(db.getXAResource());
        } catch (SQLException e) {
            System.err.println("recovery: the database cannot be reached this scan: " + e.getMessage());
        }
        return resources.toArray(XAResource[]::new);
    }

    @Override
    public synchronized void close() {
        for (AutoCloseable c : opened) {
            try {
                c.close();
            } catch (Exception e) {
                // closing what recovery used; nothing to keep
            }
        }
        opened.clear();
    }
}
