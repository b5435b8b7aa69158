package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.Session;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.FlowLimits;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.client.PartitaXAConnectionFactory;

/**
 * docs/reliability.md, point 3: open transactions count against a node-wide bound
 * ({@code limits.openTransactionBytes}), not only each against its own ({@code limits.transactionBytes}):
 * before, many sessions each with a large open transaction could fill the heap.
 */
@Tag("slow")
@Timeout(120)
class OpenTransactionsBudgetTest {
    private static final int BODY = 16 * 1024;
    private static final int PER_TRANSACTION = 50; // about 820 KiB: under each transaction's own 1 MiB
    private static final long NODE_WIDE = 2L << 20;

    @TempDir
    Path dir;

    @AutoClose
    private final LimitedNode limited = new LimitedNode();

    @Test
    void sessionsTogetherAreHeldToTheNodeWideBoundAndEndingTheirTransactionsFreesIt() throws Exception {
        PartitaNode node = limited.start(
                dir.resolve("data"),
                FlowLimits.defaults().withTransactionBytes(1L << 20).withOpenTransactionBytes(NODE_WIDE));
        Connection aConnection = limited.connect();
        Session a = aConnection.createSession(true, Session.SESSION_TRANSACTED);
        Session b = limited.connect().createSession(true, Session.SESSION_TRANSACTED);
        Connection cConnection = limited.connect();
        Session c = cConnection.createSession(true, Session.SESSION_TRANSACTED);
        sendAll(a, 100);
        sendAll(b, 200);
        await().atMost(Duration.ofSeconds(20)).until(() -> node.openTransactionBytes() >= 2L * PER_TRANSACTION * BODY);

        // c's own transaction is far under its bound, but the node's open transactions are not
        MessageProducer cp = c.createProducer(c.createQueue("tx.all"));
        List<Integer> attempted = new ArrayList<>();
        ResourceAllocationException refused = assertThrows(ResourceAllocationException.class, () -> {
            // sends are pipelined: a refusal surfaces at a send after its answer came back
            for (int i = 0; i < 5_000; i++) {
                attempted.add(i);
                cp.send(LimitedNode.numbered(c, i, BODY));
            }
        });
        assertTrue(refused.getMessage().contains("limits.openTransactionBytes"), refused.getMessage());
        assertTrue(node.openTransactionBytes() <= NODE_WIDE, node.openTransactionBytes() + " bytes held");
        System.out.printf(
                "third transaction refused after %d sends; open transactions hold %d bytes (bound %d)%n",
                attempted.size(), node.openTransactionBytes(), NODE_WIDE);

        // the transaction stays usable: it commits what the node took, nothing of the refused sends
        c.commit();
        b.rollback();
        aConnection.close(); // with its transaction open
        await().atMost(Duration.ofSeconds(20)).until(() -> node.openTransactionBytes() == 0);

        // the room is back: a whole transaction of c's fits again
        for (int i = 0; i < PER_TRANSACTION; i++) {
            cp.send(LimitedNode.numbered(c, 1000 + i, BODY));
        }
        c.commit();

        MessageConsumer consumer = c.createConsumer(c.createQueue("tx.all"));
        cConnection.start();
        List<Integer> seqs = new ArrayList<>();
        for (Message m; (m = consumer.receive(5_000)) != null; ) {
            seqs.add(m.getIntProperty("seq"));
            if (seqs.size() > 3 * PER_TRANSACTION) {
                break;
            }
        }
        c.commit();
        int first = (int) seqs.stream().filter(seq -> seq < 1000).count();
        assertTrue(first >= 1 && first < attempted.size(), "c's first transaction: " + seqs);
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < first; i++) {
            expected.add(i);
        }
        for (int i = 0; i < PER_TRANSACTION; i++) {
            expected.add(1000 + i);
        }
        assertEquals(
                expected,
                seqs,
                "c's first transaction up to its first refused send, then its second; nothing of a's or b's");
        assertNull(consumer.receiveNoWait());
    }

    @Test
    void xaBranchesCountWithLocalTransactionsAndGiveTheirBytesBackWhenTheyEnd() throws Exception {
        PartitaNode node = limited.start(
                dir.resolve("data"),
                FlowLimits.defaults().withTransactionBytes(1L << 20).withOpenTransactionBytes(NODE_WIDE));
        Session local = limited.connect().createSession(true, Session.SESSION_TRANSACTED);
        sendAll(local, 100);
        try (XAConnection xc = new PartitaXAConnectionFactory(node.url()).createXAConnection()) {
            XASession first = xc.createXASession();
            Xid x = TestXid.of("open-x");
            first.getXAResource().start(x, XAResource.TMNOFLAGS);
            sendAll(first, 200);
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> node.openTransactionBytes() >= 2L * PER_TRANSACTION * BODY);

            // a second branch, far under its own bound, is refused: the node's open transactions are full
            XASession second = xc.createXASession();
            Xid y = TestXid.of("open-y");
            XAResource ry = second.getXAResource();
            ry.start(y, XAResource.TMNOFLAGS);
            MessageProducer p = second.createProducer(second.createQueue("tx.all"));
            ResourceAllocationException refused = assertThrows(ResourceAllocationException.class, () -> {
                for (int i = 0; i < 5_000; i++) {
                    p.send(LimitedNode.numbered(second, 300 + i, BODY));
                }
            });
            assertTrue(refused.getMessage().contains("limits.openTransactionBytes"), refused.getMessage());
            assertTrue(node.openTransactionBytes() <= NODE_WIDE, node.openTransactionBytes() + " bytes held");
            try {
                ry.end(y, XAResource.TMSUCCESS);
            } catch (XAException e) { // a refusal still on its way when the branch ended: it can only roll back
                assertEquals(XAException.XA_RBROLLBACK, e.errorCode);
            }
            try {
                ry.rollback(y);
            } catch (XAException e) { // rolled back already, when it ended failed
                assertTrue(
                        e.errorCode == XAException.XAER_NOTA
                                || (e.errorCode >= XAException.XA_RBBASE && e.errorCode <= XAException.XA_RBEND),
                        "rollback: " + e.errorCode);
            }
            // the first branch prepares and commits: its bytes are given back once it committed
            XAResource rx = first.getXAResource();
            rx.end(x, XAResource.TMSUCCESS);
            assertEquals(XAResource.XA_OK, rx.prepare(x));
            assertTrue(
                    node.openTransactionBytes() >= 2L * PER_TRANSACTION * BODY,
                    "a prepared branch still holds its sends");
            rx.commit(x, false);
        }
        local.rollback();
        await().atMost(Duration.ofSeconds(20)).until(() -> node.openTransactionBytes() == 0);
    }

    private static void sendAll(Session s, int from) throws Exception {
        MessageProducer p = s.createProducer(s.createQueue("tx.all"));
        for (int i = 0; i < PER_TRANSACTION; i++) {
            p.send(LimitedNode.numbered(s, from + i, BODY));
        }
    }
}
