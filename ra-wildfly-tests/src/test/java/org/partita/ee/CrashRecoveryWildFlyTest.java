package org.partita.ee;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;
import java.util.stream.Collectors;
import javax.sql.XAConnection;
import javax.transaction.xa.XAResource;
import org.h2.jdbcx.JdbcDataSource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.partita.ee.XaPhaseHoldingProxy.Phase;
import org.partita.ee.crash.RecordingForwarder;
import org.partita.jms.api.PartitaAdmin;
import org.partita.jms.api.QueueStats;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * WildFly killed (SIGKILL) in the middle of a transaction that spans a message-driven bean's
 * receive, a send through the adapter's pooled connection factory and an insert in an XA database,
 * then started again. Killed after every branch is prepared and the decision logged (held at its
 * first commit), Narayana's recovery, through the adapter's {@code getXAResources} and the pool's
 * {@code <recovery>} element, commits all three: the message is never handed back to the bean.
 * Killed during the prepare phase, all three roll back and the message comes again, flagged, to
 * the restarted bean. The server talks to the node through a proxy that holds back the chosen
 * phase's first call, so the kill falls at that very point each time; the database is an H2
 * server in a process of its own, which outlives the server as the node does. Checked either way:
 * the message was forwarded once and recorded once, and neither the node nor the database keeps a
 * branch in doubt.
 */
@Tag("slow")
@Tag("wildfly")
@ExtendWith(PartitaNodeForWildFly.class)
class CrashRecoveryWildFlyTest {
    /** Beside the Arquillian-managed server's offset (10000): this server's ports are its own. */
    private static final int PORT_OFFSET = 10200;

    private static final Duration RECOVERY = Duration.ofMinutes(3);

    @ParameterizedTest
    @EnumSource(Phase.class)
    void aServerKilledInTheMiddleOfATransactionCompletesItAllOrNothingAfterItsRestart(
            Phase killedIn, @TempDir Path dbDir) throws Exception {
        declareQueue();
        long redeliveredBefore = queueStats().redelivered();
        try (Rig rig = new Rig(dbDir)) {
            rig.proxy.arm(killedIn);
            send("in doubt");
            assertTrue(
                    rig.proxy.awaitHeld(60), "the transaction reached its " + killedIn + " phase\n" + rig.server.log());
            rig.server.kill();

            assertEquals(
                    killedIn == Phase.COMMIT,
                    inDoubtOnNode() > 0,
                    "the node holds the bean's branch prepared only if the kill came after the prepare phase");
            assertFalse(rig.forwarded.contains("in doubt"), "nothing of the transaction is visible before recovery");

            rig.restartAndRecover();
            rig.assertEachHandledOnce(List.of("in doubt"));
            assertEquals(
                    killedIn == Phase.COMMIT ? 0 : 1,
                    queueStats().redelivered() - redeliveredBefore,
                    "a receive committed by recovery is not handed back; one rolled back is, once");
        }
    }

    /**
     * The kill under load: a burst of 40 messages on the bean's 15 sessions, the server killed at the
     * first commit among them, with the other transactions wherever they were (working, waiting
     * behind the held connection, done). After the restart every message is forwarded and recorded
     * exactly once.
     */
    @Test
    void aServerKilledWhileABurstIsInFlightLosesNothingAndAppliesNothingTwice(@TempDir Path dbDir) throws Exception {
        List<String> burst = new java.util.ArrayList<>();
        for (int i = 0; i < 40; i++) {
            burst.add("burst-" + i);
        }
        try (Rig rig = new Rig(dbDir)) {
            rig.proxy.arm(Phase.COMMIT);
            try (Connection c = factory().createConnection()) {
                Session s = c.createSession();
                jakarta.jms.MessageProducer p = s.createProducer(s.createQueue(RecordingForwarder.QUEUE));
                for (String text : burst) {
                    p.send(s.createTextMessage(text));
                }
            }
            assertTrue(rig.proxy.awaitHeld(60), "a transaction reached its commit phase\n" + rig.server.log());
            rig.server.kill();
            assertTrue(inDoubtOnNode() > 0, "the node holds a prepared branch of the killed server");

            rig.restartAndRecover();
            rig.assertEachHandledOnce(burst);
        }
    }

    /**
     * What each case starts from: an H2 server in a process of its own with the bean's table, a
     * client collecting what the bean forwards, the proxy, and WildFly running the adapter and the
     * bean, which has handled one message already.
     */
    private static final class Rig implements AutoCloseable {
        final Queue<String> forwarded = new ConcurrentLinkedQueue<>();
        final XaPhaseHoldingProxy proxy;
        final WildFlyProcess server;
        private final H2ServerProcess database;
        private final String dbUrl;
        private final java.sql.Connection db;
        private final Connection client;

        Rig(Path dbDir) throws Exception {
            declareQueue();
            database = H2ServerProcess.start(dbDir);
            dbUrl = database.url("crash");
            db = database.connect("crash");
            db.createStatement()
                    .execute("create table " + RecordingForwarder.TABLE
                            + "(id bigint generated always as identity primary key, text varchar(64))");
            client = factory().createConnection();
            Session session = client.createSession();
            session.createConsumer(session.createQueue(RecordingForwarder.DONE))
                    .setMessageListener(m -> forwarded.add(text(m)));
            client.start();
            proxy = new XaPhaseHoldingProxy(PartitaNodeForWildFly.node().port());
            server = new WildFlyProcess(
                    PORT_OFFSET,
                    List.of(
                            "-Dpartita.url=tcp://127.0.0.1:" + proxy.port(),
                            // a node identifier of its own: the Arquillian-managed server's recovery
                            // sees the same node and must not take this server's branches for its own
                            "-Djboss.tx.node.id=partita-crash",
                            // recovery passes every few seconds rather than every two minutes
                            "-DRecoveryEnvironmentBean.periodicRecoveryPeriod=5",
                            "-DRecoveryEnvironmentBean.recoveryBackoffPeriod=2"));
            server.deploy(Deployments.adapter());
            server.deploy(application(database));
            server.start();
            send("before the crash");
            await("the bean at work before the crash")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> forwarded.contains("before the crash"));
        }

        /** Starts the killed server again and waits until neither the node nor the database holds a branch in doubt. */
        void restartAndRecover() throws Exception {
            server.start();
            await("the node and the database complete the transactions after the restart")
                    .atMost(RECOVERY)
                    .until(() -> inDoubtOnNode() == 0 && inDoubtInDatabase(dbUrl) == 0);
        }

        /**
         * A message sent after the restart goes through too, then: every message, {@code killed}'s
         * among them, forwarded once and recorded once, the queue empty, nothing dead-lettered.
         */
        void assertEachHandledOnce(List<String> killed) throws Exception {
            send("after the restart");
            Map<String, Long> expected = new java.util.HashMap<>();
            expected.put("before the crash", 1L);
            expected.put("after the restart", 1L);
            killed.forEach(t -> expected.put(t, 1L));
            try {
                await("every message forwarded after the restart")
                        .atMost(Duration.ofSeconds(60))
                        .until(() -> counts(forwarded).keySet().containsAll(expected.keySet()));
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                java.util.Set<String> missing = new java.util.TreeSet<>(expected.keySet());
                missing.removeAll(forwarded);
                throw new AssertionError(
                        "not forwarded: " + missing + "; recorded " + told(() -> recorded(db)) + "; "
                                + told(CrashRecoveryWildFlyTest::queueStats) + "; dead-lettered: "
                                + told(CrashRecoveryWildFlyTest::deadLettered) + "; the server's log is "
                                + server.keepLog("crash-recovery") + "\n" + server.warnings(),
                        e);
            }
            Map<String, Long> sent = counts(forwarded);
            assertEquals(expected, sent, "each message forwarded once");
            assertEquals(sent, recorded(db), "each message recorded once in the database");
            QueueStats in = queueStats();
            assertEquals(0, in.depth() + in.inFlight(), "every message consumed: " + in);
            assertEquals(0, in.deadLettered(), in.toString());
        }

        @Override
        public void close() throws Exception {
            try (AutoCloseable h2 = database;
                    AutoCloseable s = server;
                    AutoCloseable p = proxy;
                    AutoCloseable c = client;
                    AutoCloseable d = db) {
                // closed in reverse order
            }
        }
    }

    private static void declareQueue() {
        PartitaNodeForWildFly.node()
                .broker()
                .updateQueue(RecordingForwarder.QUEUE, "maxDeliveryAttempts=5&deadLetterQueue=ee.crash.dead");
    }

    private static QueueStats queueStats() throws JMSException {
        try (PartitaAdmin admin = PartitaAdmin.connect(factory())) {
            return admin.queueStats(RecordingForwarder.QUEUE);
        }
    }

    private static WebArchive application(H2ServerProcess database) {
        return ShrinkWrap.create(WebArchive.class, "partita-crash.war")
                .addClass(RecordingForwarder.class)
                .addAsWebInfResource(new StringAsset(Deployments.RA_BINDING), "jboss-ejb3.xml")
                .addAsWebInfResource(
                        new StringAsset(
                                database.dataSourceXml(RecordingForwarder.DATA_SOURCE, "partita-crash", "crash")),
                        "partita-crash-ds.xml");
    }

    private static Map<String, Long> counts(Queue<String> texts) {
        return texts.stream().collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
    }

    private static Map<String, Long> recorded(java.sql.Connection db) throws SQLException {
        try (PreparedStatement q = db.prepareStatement(
                        "select text, count(*) from " + RecordingForwarder.TABLE + " group by text");
                ResultSet rows = q.executeQuery()) {
            Map<String, Long> out = new java.util.HashMap<>();
            while (rows.next()) {
                out.put(rows.getString(1), rows.getLong(2));
            }
            return out;
        }
    }

    /** What {@code figure} says, or why it could not be read: a failure's message must not fail itself. */
    private static String told(java.util.concurrent.Callable<?> figure) {
        try {
            return String.valueOf(figure.call());
        } catch (Exception e) {
            return "(unknown: " + e + ")";
        }
    }

    /** The texts in the dead letter queue, read without taking them. */
    private static List<String> deadLettered() throws JMSException {
        try (Connection c = factory().createConnection()) {
            Session s = c.createSession();
            java.util.Enumeration<?> e =
                    s.createBrowser(s.createQueue("ee.crash.dead")).getEnumeration();
            List<String> texts = new java.util.ArrayList<>();
            while (e.hasMoreElements()) {
                texts.add(text((jakarta.jms.Message) e.nextElement()));
            }
            return texts;
        }
    }

    private static int inDoubtOnNode() throws JMSException {
        try (PartitaAdmin admin = PartitaAdmin.connect(factory())) {
            return admin.inDoubtTransactions().size();
        }
    }

    private static int inDoubtInDatabase(String dbUrl) throws SQLException, javax.transaction.xa.XAException {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL(dbUrl);
        ds.setUser("sa");
        ds.setPassword("sa");
        XAConnection xa = ds.getXAConnection();
        try {
            return xa.getXAResource().recover(XAResource.TMSTARTRSCAN).length;
        } finally {
            xa.close();
        }
    }

    private static void send(String text) throws JMSException {
        try (Connection c = factory().createConnection()) {
            Session s = c.createSession();
            s.createProducer(s.createQueue(RecordingForwarder.QUEUE)).send(s.createTextMessage(text));
        }
    }

    private static String text(jakarta.jms.Message m) {
        try {
            return ((TextMessage) m).getText();
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    private static PartitaConnectionFactory factory() {
        return new PartitaConnectionFactory(PartitaNodeForWildFly.node().url());
    }
}
