package org.partita.ra.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.InvalidDestinationRuntimeException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.TransactionInProgressRuntimeException;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ManagedConnection;
import jakarta.transaction.TransactionManager;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.ra.PartitaManagedConnectionFactory;
import org.partita.ra.admin.PartitaAdminQueue;
import org.partita.ra.container.Transactions;

/**
 * The simplified API through the pooled connection factory, as an application in a server uses
 * it (Jakarta Messaging 3.1, 12.3 and 12.4): a context joins the caller's JTA transaction, works
 * acknowledging automatically outside one, and keeps the container's rules; the adapter's
 * administered queue is used by its name.
 */
@Tag("slow")
@Timeout(120)
class ContainerContextTest {
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

    /** A server's connection manager: a new managed connection per allocation, enlisted in the caller's JTA transaction if any. */
    private ConnectionFactory pooledFactory(TransactionManager tm) {
        ConnectionManager manager = (f, info) -> {
            try {
                ManagedConnection mc = mcf.createManagedConnection(null, info);
                made.add(mc);
                if (tm != null && tm.getTransaction() != null) {
                    tm.getTransaction().enlistResource(mc.getXAResource());
                }
                return mc.getConnection(null, info);
            } catch (Exception e) {
                throw new jakarta.resource.ResourceException(e);
            }
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
    void aContextInAJtaTransactionSendsAndReceivesWithIt() throws Exception {
        TransactionManager tm = Transactions.manager();
        ConnectionFactory cf = pooledFactory(tm);

        tm.begin();
        try (JMSContext ctx = cf.createContext()) {
            assertTrue(ctx.getTransacted(), "in a JTA transaction the session mode does not count");
            ctx.createProducer().setProperty("kind", "order").send(ctx.createQueue("ra.ctx"), "rolled back");
            assertThrows(TransactionInProgressRuntimeException.class, ctx::commit);
        }
        tm.rollback();
        assertNull(receive("ra.ctx", NOTHING_MS), "the rolled-back send never arrives");

        tm.begin();
        try (JMSContext ctx = cf.createContext(JMSContext.CLIENT_ACKNOWLEDGE)) {
            ctx.createProducer().setProperty("kind", "order").send(ctx.createQueue("ra.ctx"), "committed");
            assertNull(receive("ra.ctx", NOTHING_MS), "nothing before the commit");
        }
        tm.commit();
        TextMessage got = receive("ra.ctx", WAIT_MS);
        assertEquals("committed", got.getText());
        assertEquals("order", got.getStringProperty("kind"), "the producer's properties go with the message");

        try (JMSContext plain = new PartitaConnectionFactory(node.url()).createContext()) {
            plain.createProducer().send(plain.createQueue("ra.ctx"), "to consume");
        }
        tm.begin();
        try (JMSContext ctx = cf.createContext()) {
            assertEquals(
                    "to consume", ctx.createConsumer(ctx.createQueue("ra.ctx")).receiveBody(String.class, WAIT_MS));
        }
        tm.rollback();
        assertEquals(
                "to consume", receive("ra.ctx", WAIT_MS).getText(), "a receive rolled back gives the message back");
    }

    @Test
    void outsideATransactionAContextAcknowledgesAutomatically() throws Exception {
        ConnectionFactory cf = pooledFactory(null);
        try (JMSContext ctx = cf.createContext(JMSContext.SESSION_TRANSACTED)) {
            assertFalse(ctx.getTransacted(), "outside a transaction a container's session is not transacted");
            assertEquals(JMSContext.AUTO_ACKNOWLEDGE, ctx.getSessionMode());
            Queue q = ctx.createQueue("ra.ctx.auto");
            ctx.createProducer().send(q, Map.of("n", 1));
            ctx.createProducer().send(q, "second");
            try (JMSConsumer consumer = ctx.createConsumer(q)) {
                assertThrows(
                        MessageFormatRuntimeException.class,
                        () -> consumer.receiveBody(String.class, WAIT_MS),
                        "a map message is no String");
                assertEquals(
                        Map.of("n", 1),
                        consumer.receiveBody(Map.class, WAIT_MS),
                        "the message that could not be returned stays for the next receive");
                assertEquals("second", consumer.receiveBody(String.class, WAIT_MS));
            }
        }
        assertNull(receive("ra.ctx.auto", NOTHING_MS), "both were acknowledged");
    }

    @Test
    void aContextKeepsTheContainersRules() throws Exception {
        ConnectionFactory cf = pooledFactory(null);
        try (JMSContext ctx = cf.createContext()) {
            assertThrows(
                    JMSRuntimeException.class,
                    () -> ctx.createContext(JMSContext.AUTO_ACKNOWLEDGE),
                    "a container's connection has one session");
            assertThrows(IllegalStateRuntimeException.class, () -> ctx.setClientID("mine"));
            assertThrows(IllegalStateRuntimeException.class, () -> ctx.setExceptionListener(e -> {}));
            assertThrows(IllegalStateRuntimeException.class, ctx::stop);
            assertThrows(
                    IllegalStateRuntimeException.class,
                    () -> ctx.createConsumer(ctx.createQueue("q")).setMessageListener(m -> {}));
            assertThrows(
                    IllegalStateRuntimeException.class,
                    () -> ctx.createProducer().setAsync(new jakarta.jms.CompletionListener() {
                        public void onCompletion(jakarta.jms.Message message) {}

                        public void onException(jakarta.jms.Message message, Exception exception) {}
                    }));
            assertThrows(JMSRuntimeException.class, () -> ctx.createProducer().setPriority(10));
        }
        assertThrows(JMSRuntimeException.class, () -> cf.createContext(7), "an invalid session mode");
    }

    @Test
    void anAdministeredQueueNamesAPartitaQueueWithItsOptions() throws Exception {
        PartitaAdminQueue orders = new PartitaAdminQueue();
        orders.setName("ra.admin.orders?partitions=4");
        try (JMSContext ctx = pooledFactory(null).createContext()) {
            ctx.createProducer().send(orders, "through the administered queue");
        }
        assertEquals(
                "through the administered queue",
                receive("ra.admin.orders", WAIT_MS).getText());
        try (org.partita.jms.api.PartitaAdmin admin =
                org.partita.jms.api.PartitaAdmin.connect(new PartitaConnectionFactory(node.url()))) {
            assertEquals(
                    "4", admin.queueOptions("ra.admin.orders").get("partitions"), "the name's options made the queue");
        }
        PartitaAdminQueue unnamed = new PartitaAdminQueue();
        try (JMSContext ctx = pooledFactory(null).createContext()) {
            InvalidDestinationRuntimeException e = assertThrows(
                    InvalidDestinationRuntimeException.class,
                    () -> ctx.createProducer().send(unnamed, "x"));
            assertTrue(e.getMessage().contains("Name"), e.getMessage());
        }
    }
}
