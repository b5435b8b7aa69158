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
            TestXid first = TestXid.of("relayed");
            prepareSends(cluster.node(0).url(), first, "first");
            XAResource throughNode2 = resourceOn(cluster.node(1).url());
            throughNode2.commit(first, false);
            assertEquals(
                    List.of("first-0", "first-1", "first-2"),
                    receive(cluster.node(2).url(), 3));

            XAException unknown =
                    assertThrows(XAException.class, () -> throughNode2.commit(TestXid.of("never-started"), false));
            assertEquals(XAException.XAER_NOTA, unknown.errorCode, "every node answered: none holds it");

            TestXid second = TestXid.of("its-node-lost");
            prepareSends(cluster.node(0).url(), second, "second");
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
    private void prepareSends(String url, TestXid xid, String prefix) throws Exception {
        XAConnection c = new PartitaXAConnectionFactory(url).createXAConnection();
        open.add(c);
        XASession s = c.createXASession();
        XAResource r = s.getXAResource();
        r.start(xid, XAResource.TMNOFLAGS);
        MessageProducer p = s.createProducer(s.createQueue("ledger"));
        for (int i = 0; i < 3; i++) {
            TextMessage m = s.createTextMessage(prefix + "-" + i);
            m.setStringProperty("JMSXGroupID", "account-7");
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
