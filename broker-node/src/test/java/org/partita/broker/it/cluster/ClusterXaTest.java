package org.partita.broker.it.cluster;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.partita.broker.it.TestXid;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.jms.client.PartitaXAConnectionFactory;

/**
 * An XA branch prepared on one node and completed through another, as a transaction manager does
 * once its connection failed over or its recovery scan reached another node. Three nodes in their
 * own processes. Without the relay, the other node answered "no such branch" (XAER_NOTA), which a
 * transaction manager in recovery takes as "already committed": it forgets the branch, and the
 * branch's messages never come.
 */
@Tag("slow")
@Timeout(300)
class ClusterXaTest {
    private static final List<String> CONFIG = List.of(
            "cluster.heartbeatMillis = 200",
            "cluster.downAfterMillis = 2000",
            "queue.ledger.partitions = 3",
            "queue.ledger.hosts = *");

    @TempDir
    Path tmp;

    @Test
    void aBranchPreparedOnOneNodeIsCommittedThroughAnotherAndWaitsForItsNodeWhenThatNodeIsDown() throws Exception {
        try (ProcessCluster cluster = new ProcessCluster(tmp, "xa", 3, CONFIG).start()) {
            awaitEveryLeaderKnown(cluster);
            // a key of a partition node2 leads: node1 keeps the branch's sends in its forward log for
            // node2's set, in its own store (a branch whose work is all in node1's set is the next test's)
            int partition = leaders(cluster, 1).indexOf("node2");
            assertTrue(partition >= 0, "node2 leads a partition: " + leaders(cluster, 1));
            String key = keyOf(partition);
            TestXid first = TestXid.of("relayed");
            prepareSends(cluster.node(0).url(), first, "first", key);
            XAResource throughNode2 = resourceOn(cluster.node(1).url());
            throughNode2.commit(first, false);
            assertEquals(
                    List.of("first-0", "first-1", "first-2"),
                    receive(cluster.node(2).url(), 3));

            // XAER_RMFAIL while a replica set changes leader (a set handed back to its preferred leader
            // after the start): the set's store might keep a part of it; then every node answered
            int[] code = new int[1];
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                XAException unknown =
                        assertThrows(XAException.class, () -> throughNode2.commit(TestXid.of("never-started"), false));
                code[0] = unknown.errorCode;
                return code[0] != XAException.XAER_RMFAIL;
            });
            assertEquals(XAException.XAER_NOTA, code[0], "every node answered: none holds it");

            TestXid second = TestXid.of("its-node-lost");
            prepareSends(cluster.node(0).url(), second, "second", key);
            cluster.kill(0);
            XAException wait = assertThrows(
                    XAException.class, () -> resourceOn(cluster.node(1).url()).commit(second, false));
            assertEquals(
                    XAException.XAER_RMFAIL,
                    wait.errorCode,
                    "node1 may hold the branch: the transaction manager must try again, not forget it ("
                            + wait.getMessage() + ")");

            cluster.restart(0).awaitReady();
            XAResource recovery = resourceOn(cluster.node(1).url());
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> Arrays.stream(recovery.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN))
                            .anyMatch(second::sameAs));
            // as a transaction manager does: a commit answered XAER_RMFAIL (the node restarting, its
            // replica sets not open yet) is tried again
            await().atMost(Duration.ofSeconds(60)).until(() -> committed(recovery, second));
            assertEquals(
                    List.of("second-0", "second-1", "second-2"),
                    receive(cluster.node(1).url(), 3));
        }
    }

    /**
     * A branch prepared on the node leading a partition's replica set, which consumed messages of that
     * partition and sent one to it: its record is kept by the set (a majority of its replicas), so
     * with that node killed the set's next leader holds the branch. The transaction manager commits it
     * through another node without waiting for the lost one: the consumed messages do not come again
     * and the sent one arrives. Before, the record was in the lost node's own store: the commit
     * answered XAER_RMFAIL until that node came back, and meanwhile the set's next leader delivered
     * the consumed messages again.
     *
     * <p>Paused (SIGSTOP) instead of killed, the node comes back still holding the branch in memory:
     * it learns another node leads its set, lets the branch's part go, and takes the set back as its
     * preferred leader. Nobody lists the branch as prepared any more, and nothing comes again.
     */
    @ParameterizedTest(name = "the preparing node {0}")
    @ValueSource(strings = {"killed", "paused"})
    void aBranchKeptByAReplicaSetIsCommittedThroughItsNextLeaderWhileThePreparingNodeIsDown(String fault)
            throws Exception {
        try (ProcessCluster cluster = new ProcessCluster(tmp, "xaset", 3, CONFIG).start()) {
            awaitEveryLeaderKnown(cluster);
            int partition = leaders(cluster, 1).indexOf("node1");
            assertTrue(partition >= 0, "node1 leads a partition: " + leaders(cluster, 1));
            String key = keyOf(partition);
            try (Connection c = new PartitaConnectionFactory(cluster.node(1).url()).createConnection()) {
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer p = s.createProducer(s.createQueue("ledger"));
                for (int i = 0; i < 3; i++) {
                    p.send(keyed(s, key, "in-" + i));
                }
            }

            XAConnection xc = new PartitaXAConnectionFactory(cluster.node(0).url()).createXAConnection();
            open.add(xc);
            xc.start();
            XASession xs = xc.createXASession();
            XAResource r = xs.getXAResource();
            TestXid xid = TestXid.of("kept-by-the-set");
            r.start(xid, XAResource.TMNOFLAGS);
            MessageConsumer consumer = xs.createConsumer(xs.createQueue("ledger"));
            List<String> consumed = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                TextMessage m = (TextMessage) consumer.receive(30_000);
                assertTrue(m != null, "only " + consumed + " arrived in the branch");
                consumed.add(m.getText());
            }
            assertEquals(List.of("in-0", "in-1", "in-2"), consumed);
            xs.createProducer(xs.createQueue("ledger")).send(keyed(xs, key, "out-0"));
            r.end(xid, XAResource.TMSUCCESS);
            assertEquals(XAResource.XA_OK, r.prepare(xid));
            // else a paused node1 that comes back would hand what it serves again to this consumer, unread
            consumer.close();

            if (fault.equals("killed")) {
                cluster.kill(0);
            } else {
                cluster.node(0).pause();
            }
            XAResource throughNode2 = resourceOn(cluster.node(1).url());
            // XAER_RMFAIL while the set elects its next leader and reads the branch back, then done
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> committed(throughNode2, xid));
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                throw new AssertionError(
                        "not committed; node2: " + cluster.node(1).stderr() + "\nnode3: "
                                + cluster.node(2).stderr(),
                        e);
            }
            if (fault.equals("paused")) {
                cluster.node(0).resume();
                await("node1 leads its set again, the branch's part let go")
                        .atMost(Duration.ofSeconds(60))
                        .ignoreExceptions()
                        .until(() -> leaders(cluster, 1).get(partition).equals("node1"));
                XAResource recovery = resourceOn(cluster.node(0).url());
                assertTrue(
                        Arrays.stream(recovery.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN))
                                .noneMatch(xid::sameAs),
                        "no node lists the committed branch as prepared");
            }

            try (Connection c = new PartitaConnectionFactory(cluster.node(1).url()).createConnection()) {
                c.start();
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageConsumer after = s.createConsumer(s.createQueue("ledger"));
                TextMessage first = (TextMessage) after.receive(30_000);
                assertTrue(first != null, "the message the branch sent arrived");
                assertEquals("out-0", first.getText(), "the consumed messages do not come again");
                TextMessage more = (TextMessage) after.receive(3_000);
                assertTrue(
                        more == null,
                        "nothing else (the branch consumed in-0 to in-2), but " + (more == null ? "" : more.getText()));
            }
        }
    }

    /** Until every node joined every replica set of {@code ledger}. */
    private static void awaitEveryLeaderKnown(ProcessCluster cluster) {
        FaultsUnderLoad.awaitEveryNodeKnowsEveryLeader(cluster, "ledger", 3);
    }

    /** Each partition's leader of {@code ledger} as node {@code i} sees it. */
    private static List<String> leaders(ProcessCluster cluster, int i) throws Exception {
        return FaultsUnderLoad.leaders(cluster, i, "ledger", 3);
    }

    private static String keyOf(int partition) {
        for (int k = 0; ; k++) {
            if (org.partita.protocol.PartitionKeys.partition("account-" + k, 3) == partition) {
                return "account-" + k;
            }
        }
    }

    private static TextMessage keyed(Session s, String key, String text) throws jakarta.jms.JMSException {
        TextMessage m = s.createTextMessage(text);
        m.setStringProperty("JMSXGroupID", key);
        return m;
    }

    private final List<AutoCloseable> open = new ArrayList<>();

    @org.junit.jupiter.api.AfterEach
    void close() {
        for (AutoCloseable c : open) {
            try {
                c.close();
            } catch (Exception ignored) {
                // a connection to the node killed
            }
        }
    }

    /** Sends three persistent messages in branch {@code xid} through {@code url} and prepares it there. */
    private void prepareSends(String url, TestXid xid, String prefix, String key) throws Exception {
        XAConnection c = new PartitaXAConnectionFactory(url).createXAConnection();
        open.add(c);
        XASession s = c.createXASession();
        XAResource r = s.getXAResource();
        r.start(xid, XAResource.TMNOFLAGS);
        MessageProducer p = s.createProducer(s.createQueue("ledger"));
        for (int i = 0; i < 3; i++) {
            TextMessage m = s.createTextMessage(prefix + "-" + i);
            m.setStringProperty("JMSXGroupID", key);
            p.send(m);
        }
        r.end(xid, XAResource.TMSUCCESS);
        assertEquals(XAResource.XA_OK, r.prepare(xid));
    }

    private static boolean committed(XAResource r, TestXid xid) throws XAException {
        try {
            r.commit(xid, false);
            return true;
        } catch (XAException e) {
            if (e.errorCode == XAException.XAER_RMFAIL) {
                System.out.println("commit of " + xid + ": XAER_RMFAIL, " + e.getMessage());
                return false;
            }
            throw e;
        }
    }

    private XAResource resourceOn(String url) throws Exception {
        XAConnection c = new PartitaXAConnectionFactory(url).createXAConnection();
        open.add(c);
        return c.createXASession().getXAResource();
    }

    private static List<String> receive(String url, int count) throws Exception {
        try (Connection c = new PartitaConnectionFactory(url).createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = s.createConsumer(s.createQueue("ledger"));
            List<String> got = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                TextMessage m = (TextMessage) consumer.receive(30_000);
                assertTrue(m != null, "only " + got + " arrived");
                got.add(m.getText());
            }
            return got;
        }
    }
}
