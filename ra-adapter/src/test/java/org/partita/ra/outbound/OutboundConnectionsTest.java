package org.partita.ra.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.IllegalStateException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.TransactionInProgressException;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.LocalTransaction;
import jakarta.resource.spi.ManagedConnection;
import jakarta.transaction.TransactionManager;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.ra.ConnectionSettings;
import org.partita.ra.PartitaManagedConnectionFactory;
import org.partita.ra.container.Transactions;

/**
 * The outbound side as an application in a server uses it, against a real embedded node: the
 * pooled connection factory, its connections enlisted in the caller's JTA transaction (Narayana) as
 * a server's connection manager does, in a local transaction the server drives, or in none; the
 * container's session rules; and how the pool's connections are matched.
 */
@Tag("slow")
@Timeout(120)
class OutboundConnectionsTest {
    private static final long WAIT_MS = 5_000;
    private static final long NOTHING_MS = 300;

    @TempDir
    Path tmp;

    private PartitaNode node;
    private PartitaManagedConnectionFactory mcf;
    private final List<ManagedConnection> made = new ArrayList<>();

    @BeforeEach
    void start() {
        node = PartitaNode.start(NodeConfig.defaults().withPort(0).withDataDir(tmp.resolve("node")));
        mcf = new PartitaManagedConnectionFactory();
        mcf.setConnectionUrl(node.url());
    }

    @AfterEach
    void stop() throws Exception {
        for (ManagedConnection mc : made) {
            mc.destroy();
        }
        node.close();
    }

    private ManagedConnection managed(ConnectionSettings settings) throws Exception {
        ManagedConnection mc = mcf.createManagedConnection(null, settings);
        made.add(mc);
        return mc;
    }

    /** A server's connection manager reduced to one managed connection, enlisted in the caller's JTA transaction if any. */
    private ConnectionFactory factoryOver(ManagedConnection mc, TransactionManager tm) {
        ConnectionManager manager = (f, info) -> {
            try {
                if (tm != null && tm.getTransaction() != null) {
                    tm.getTransaction().enlistResource(mc.getXAResource());
                }
            } catch (Exception e) {
                throw new jakarta.resource.ResourceException(e);
            }
            return mc.getConnection(null, info);
        };
        return (ConnectionFactory) mcf.createConnectionFactory(manager);
    }

    private TextMessage receive(String queue, long millis) throws Exception {
        try (Connection c = new PartitaConnectionFactory(node.url()).createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            return (TextMessage) s.createConsumer(s.createQueue(queue)).receive(millis);
        }
    }

    @Test
    void inAJtaTransactionAConnectionHasOneSessionWhoseWorkCommitsOrRollsBackWithIt() throws Exception {
        TransactionManager tm = Transactions.manager();
        ConnectionFactory cf = factoryOver(managed(null), tm);

        tm.begin();
        try (Connection c = cf.createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            assertTrue(s.getTransacted(), "inside a JTA transaction the arguments do not count");
            s.createProducer(s.createQueue("ra.xa")).send(s.createTextMessage("rolled back"));
            IllegalStateException second = assertThrows(IllegalStateException.class, () -> c.createSession());
            assertTrue(second.getMessage().contains("one session"), second.getMessage());
            assertThrows(TransactionInProgressException.class, s::commit);
        }
        tm.rollback();
        assertNull(receive("ra.xa", NOTHING_MS), "the rolled-back send never arrives");

        tm.begin();
        try (Connection c = cf.createConnection()) {
            Session s = c.createSession();
            s.createProducer(s.createQueue("ra.xa")).send(s.createTextMessage("committed"));
            assertNull(receive("ra.xa", NOTHING_MS), "nothing before the commit");
        }
        tm.commit();
        assertEquals("committed", receive("ra.xa", WAIT_MS).getText());
    }

    @Test
    void messageListenersAreRefusedOnSessionsAndConsumers() throws Exception {
        ConnectionFactory cf = factoryOver(managed(null), null);
        try (Connection c = cf.createConnection()) {
            Session s = c.createSession();
            MessageConsumer consumer = s.createConsumer(s.createQueue("ra.listen"));
            IllegalStateException onConsumer =
                    assertThrows(IllegalStateException.class, () -> consumer.setMessageListener(m -> {}));
            assertTrue(onConsumer.getMessage().contains("message-driven bean"), onConsumer.getMessage());
            assertThrows(IllegalStateException.class, () -> s.setMessageListener(m -> {}));
            assertThrows(IllegalStateException.class, () -> c.setExceptionListener(e -> {}));
            assertThrows(IllegalStateException.class, () -> c.setClientID("mine"));
            consumer.setMessageListener(null); // clearing one is harmless
        }
    }

    @Test
    void aLocalTransactionTheServerDrivesCommitsOrRollsBackTheSessionsWork() throws Exception {
        ManagedConnection mc = managed(null);
        LocalTransaction local = mc.getLocalTransaction();
        ConnectionFactory cf = factoryOver(mc, null);

        local.begin();
        try (Connection c = cf.createConnection()) {
            Session s = c.createSession();
            assertTrue(s.getTransacted());
            s.createProducer(s.createQueue("ra.local")).send(s.createTextMessage("rolled back"));
            assertThrows(TransactionInProgressException.class, s::rollback, "the server ends it, not the session");
        }
        local.rollback();
        assertNull(receive("ra.local", NOTHING_MS));

        local.begin();
        try (Connection c = cf.createConnection()) {
            Session s = c.createSession();
            s.createProducer(s.createQueue("ra.local")).send(s.createTextMessage("committed"));
            assertNull(receive("ra.local", NOTHING_MS), "nothing before the commit");
        }
        local.commit();
        assertEquals("committed", receive("ra.local", WAIT_MS).getText());
    }

    @Test
    void withoutATransactionASendIsThereAtOnceAndTheSessionIsNotTransacted() throws Exception {
        ConnectionFactory cf = factoryOver(managed(null), null);
        try (Connection c = cf.createConnection()) {
            Session s = c.createSession(true, Session.SESSION_TRANSACTED);
            assertFalse(s.getTransacted(), "outside a transaction a container's session is not transacted (12.3)");
            assertEquals(Session.AUTO_ACKNOWLEDGE, s.getAcknowledgeMode());
            assertThrows(IllegalStateException.class, s::commit, "nothing to commit");
            s.createProducer(s.createQueue("ra.none")).send(s.createTextMessage("at once"));
            assertEquals("at once", receive("ra.none", WAIT_MS).getText(), "before the connection is closed");
        }
        try (Connection c = cf.createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            s.createProducer(s.createQueue("ra.none")).send(s.createTextMessage("acknowledged"));
            TextMessage m =
                    (TextMessage) s.createConsumer(s.createQueue("ra.none")).receive(WAIT_MS);
            assertEquals("acknowledged", m.getText());
            m.acknowledge();
        }
        assertNull(receive("ra.none", NOTHING_MS), "the acknowledged message is gone");
    }

    @Test
    void thePoolMatchesAConnectionByNodeAndCredentials() throws Exception {
        try (PartitaNode other =
                PartitaNode.start(NodeConfig.defaults().withPort(0).withDataDir(tmp.resolve("other")))) {
            ConnectionSettings anonymous = new ConnectionSettings(node.url(), null, null);
            ConnectionSettings alice = new ConnectionSettings(node.url(), "alice", "a-secret");
            ConnectionSettings elsewhere = new ConnectionSettings(other.url(), "alice", "a-secret");
            ManagedConnection mcAnonymous = managed(anonymous);
            ManagedConnection mcAlice = managed(alice);
            ManagedConnection mcElsewhere = managed(elsewhere);
            Set<ManagedConnection> pool = new HashSet<>(List.of(mcAnonymous, mcAlice, mcElsewhere));

            assertSame(mcAlice, mcf.matchManagedConnections(pool, null, alice));
            assertSame(
                    mcElsewhere, mcf.matchManagedConnections(pool, null, elsewhere), "the same user on another node");
            assertSame(mcAnonymous, mcf.matchManagedConnections(pool, null, null), "the factory's own settings");
            assertNull(
                    mcf.matchManagedConnections(
                            pool, null, new ConnectionSettings(node.url(), "alice", "other-password")),
                    "another password is another connection");
            assertNull(mcf.matchManagedConnections(pool, null, new ConnectionSettings(node.url(), "bob", "a-secret")));

            mcAlice.destroy();
            assertNull(mcf.matchManagedConnections(pool, null, alice), "a destroyed connection is never handed out");
        }
    }
}
