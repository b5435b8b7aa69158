package org.partita.broker.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.arjuna.ats.arjuna.recovery.RecoveryManager;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.XAConnection;
import jakarta.transaction.TransactionManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.transaction.xa.XAResource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.jms.client.PartitaXAConnectionFactory;

/**
 * A JMS receive, a JMS send and an H2 update in one Narayana transaction, against a node in a child
 * JVM: they commit or roll back together, and when the node is killed with SIGKILL between the
 * prepare and the commit, Narayana's recovery manager completes the branch after the node restarts:
 * nothing lost, nothing applied twice.
 */
@Tag("slow")
class NarayanaXaTest {
    private static final long WAIT_MS = 10_000;
    private static final long NOTHING_MS = 500;
    private static Path store;

    @TempDir
    Path tmp;

    private Path database;
    private final List<ChildNode> nodes = new ArrayList<>();
    private ChildNode node;

    @BeforeAll
    static void narayana() throws Exception {
        store = Files.createTempDirectory("narayana-store");
        NarayanaSetup.configure(store);
    }

    @BeforeEach
    void start() throws Exception {
        database = tmp.resolve("accounts");
        XaWork.createAccounts(database);
        node = startNode(0, "first");
        send(XaWork.ORDERS, "order-1");
    }

    @AfterEach
    void stop() throws Exception {
        for (ChildNode n : nodes) {
            n.close();
        }
    }

    @Test
    void theThreeCommitTogether() throws Exception {
        TransactionManager tm = NarayanaSetup.transactionManager();
        try (XaWork work = XaWork.open(node.url(), database)) {
            assertEquals("order-1", work.doWork(tm, XaWork.ResourceWrapper.NONE));
            assertNull(receive(XaWork.INVOICES, NOTHING_MS), "nothing is sent before the commit");
            tm.commit();
        }
        assertEquals("invoice for order-1", receive(XaWork.INVOICES, WAIT_MS).getText());
        assertNull(receive(XaWork.ORDERS, NOTHING_MS), "the order was consumed");
        assertEquals(1, XaWork.balance(database));
    }

    @Test
    void theThreeRollBackTogether() throws Exception {
        TransactionManager tm = NarayanaSetup.transactionManager();
        try (XaWork work = XaWork.open(node.url(), database)) {
            work.doWork(tm, XaWork.ResourceWrapper.NONE);
            tm.rollback();
        }
        Message order = receive(XaWork.ORDERS, WAIT_MS);
        assertEquals("order-1", ((TextMessage) order).getText());
        assertTrue(order.getJMSRedelivered());
        assertNull(receive(XaWork.INVOICES, NOTHING_MS));
        assertEquals(0, XaWork.balance(database));
    }

    @Test
    void aRollbackOnlyTransactionRollsBackAtCommit() throws Exception {
        TransactionManager tm = NarayanaSetup.transactionManager();
        try (XaWork work = XaWork.open(node.url(), database)) {
            work.doWork(tm, XaWork.ResourceWrapper.NONE);
            tm.setRollbackOnly();
            org.junit.jupiter.api.Assertions.assertThrows(jakarta.transaction.RollbackException.class, tm::commit);
        }
        assertTrue(receive(XaWork.ORDERS, WAIT_MS).getJMSRedelivered());
        assertNull(receive(XaWork.INVOICES, NOTHING_MS));
        assertEquals(0, XaWork.balance(database));
    }

    @Test
    void aNodeKilledAfterThePrepareIsCompletedByRecoveryAfterItsRestart() throws Exception {
        TransactionManager tm = NarayanaSetup.transactionManager();
        int port = node.port();
        try (XaWork work = XaWork.open(node.url(), database)) {
            work.doWork(
                    tm,
                    (name, resource) ->
                            name.equals("partita") ? XaWork.beforeCommit(resource, this::killNode) : resource);
            try {
                tm.commit(); // the node dies before its commit: Narayana keeps the decision in its log
            } catch (Exception expected) {
                System.out.println("commit with the node gone: " + expected);
            }
        }
        assertEquals(1, XaWork.balance(database), "H2 committed in the same phase");
        node = startNode(port, "restarted");
        assertNull(receive(XaWork.INVOICES, NOTHING_MS), "the branch is in doubt until recovery completes it");
        assertNull(receive(XaWork.ORDERS, NOTHING_MS), "the order stays locked by the prepared branch");
        try (RecoveryResources resources = new RecoveryResources(node::url, database)) {
            RecoveryManager recovery = NarayanaSetup.recoveryManager(resources);
            try {
                recovery.scan();
                recovery.scan();
            } finally {
                NarayanaSetup.removeHelper(resources);
            }
        }
        assertEquals("invoice for order-1", receive(XaWork.INVOICES, WAIT_MS).getText());
        assertNull(receive(XaWork.INVOICES, NOTHING_MS), "sent once");
        assertNull(receive(XaWork.ORDERS, NOTHING_MS), "consumed once");
        assertEquals(1, XaWork.balance(database), "applied once");
        try (XAConnection c = new PartitaXAConnectionFactory(node.url()).createXAConnection()) {
            assertEquals(
                    0,
                    c.createXASession().getXAResource().recover(XAResource.TMSTARTRSCAN).length,
                    "nothing is left in doubt on the node");
        }
    }

    private void killNode() {
        try {
            node.kill();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private ChildNode startNode(int port, String run) throws Exception {
        ChildNode n = ChildNode.start(tmp.resolve("node-data"), port, tmp.resolve(run));
        nodes.add(n);
        return n;
    }

    private void send(String queue, String text) throws Exception {
        try (Connection c = new PartitaConnectionFactory(node.url()).createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            s.createProducer(s.createQueue(queue)).send(s.createTextMessage(text));
        }
    }

    private TextMessage receive(String queue, long millis) throws Exception {
        try (Connection c = new PartitaConnectionFactory(node.url()).createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            return (TextMessage) s.createConsumer(s.createQueue(queue)).receive(millis);
        }
    }
}
