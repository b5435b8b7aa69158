package org.partita.broker.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueReceiver;
import jakarta.jms.QueueSession;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.TopicPublisher;
import jakarta.jms.TopicSession;
import jakarta.jms.TopicSubscriber;
import jakarta.jms.TransactionInProgressException;
import jakarta.jms.XAConnection;
import jakarta.jms.XAJMSContext;
import jakarta.jms.XAQueueConnection;
import jakarta.jms.XAQueueSession;
import jakarta.jms.XASession;
import jakarta.jms.XATopicConnection;
import jakarta.jms.XATopicSession;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import javax.management.ObjectName;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.jms.api.PartitaAdmin;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.jms.client.PartitaXAConnectionFactory;

/**
 * XA through the client's XAResource against a real node: what a branch sends and consumes takes
 * effect only when it commits, in one or two phases; a rollback redelivers; a prepared branch
 * stays in doubt across a restart until its transaction manager (or an administrator) completes it.
 */
@Tag("slow")
class XaResourceTest {
    private static final long WAIT_MS = 10_000;
    private static final long NOTHING_MS = 500;

    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    private PartitaConnectionFactory plain() {
        return node.factory();
    }

    private PartitaXAConnectionFactory xa() {
        return new PartitaXAConnectionFactory(node.node().url());
    }

    @Test
    void aSendAndAReceiveCommitTogetherInTwoPhases() throws Exception {
        send("xa.in", "order-1");
        Xid x = TestXid.of("two-phase");
        try (XAConnection c = xa().createXAConnection()) {
            c.start();
            XASession s = c.createXASession();
            XAResource r = s.getXAResource();
            r.start(x, XAResource.TMNOFLAGS);
            TextMessage in =
                    (TextMessage) s.createConsumer(s.createQueue("xa.in")).receive(WAIT_MS);
            assertEquals("order-1", in.getText());
            s.createProducer(s.createQueue("xa.out")).send(s.createTextMessage("invoice-1"));
            r.end(x, XAResource.TMSUCCESS);
            assertNull(receive("xa.out", NOTHING_MS), "nothing is sent before the commit");
            assertEquals(XAResource.XA_OK, r.prepare(x));
            assertNull(receive("xa.out", NOTHING_MS), "nothing is sent before the commit, prepared or not");
            r.commit(x, false);
        }
        assertEquals("invoice-1", receive("xa.out", WAIT_MS).getText());
        assertNull(receive("xa.in", NOTHING_MS), "the consumed message is gone for good");
    }

    @Test
    void aRollbackRedeliversWhatWasConsumedAndSendsNothing() throws Exception {
        send("xa.in", "order-2");
        Xid x = TestXid.of("rolled-back");
        try (XAConnection c = xa().createXAConnection()) {
            c.start();
            XASession s = c.createXASession();
            XAResource r = s.getXAResource();
            r.start(x, XAResource.TMNOFLAGS);
            assertNotNull(s.createConsumer(s.createQueue("xa.in")).receive(WAIT_MS));
            s.createProducer(s.createQueue("xa.out")).send(s.createTextMessage("never"));
            r.end(x, XAResource.TMSUCCESS);
            assertEquals(XAResource.XA_OK, r.prepare(x));
            r.rollback(x);
        }
        Message back = receive("xa.in", WAIT_MS);
        assertEquals("order-2", ((TextMessage) back).getText());
        assertTrue(back.getJMSRedelivered());
        assertNull(receive("xa.out", NOTHING_MS));
    }

    @Test
    void aBranchCommitsInOnePhaseOrRollsBackWithoutBeingPrepared() throws Exception {
        try (XAConnection c = xa().createXAConnection()) {
            XASession s = c.createXASession();
            XAResource r = s.getXAResource();
            MessageProducer p = s.createProducer(s.createQueue("xa.one"));
            Xid first = TestXid.of("one-phase");
            r.start(first, XAResource.TMNOFLAGS);
            p.send(s.createTextMessage("kept"));
            r.end(first, XAResource.TMSUCCESS);
            r.commit(first, true);
            Xid second = TestXid.of("not-prepared");
            r.start(second, XAResource.TMNOFLAGS);
            p.send(s.createTextMessage("dropped"));
            r.end(second, XAResource.TMSUCCESS);
            r.rollback(second);
            p.send(s.createTextMessage("outside")); // outside a branch the session sends at once
        }
        assertEquals("kept", receive("xa.one", WAIT_MS).getText());
        assertEquals("outside", receive("xa.one", WAIT_MS).getText());
        assertNull(receive("xa.one", NOTHING_MS));
    }

    @Test
    void aPreparedBranchStaysInDoubtAcrossARestartAndCommitsAfterIt() throws Exception {
        send("xa.in", "order-3");
        Xid x = prepareConsumeAndSend("survives", "xa.in", "xa.out", "invoice-3");
        node.restart();
        assertNull(receive("xa.in", NOTHING_MS), "the consumed message stays locked by the prepared branch");
        assertNull(receive("xa.out", NOTHING_MS), "the sent message waits for the commit");
        try (XAConnection c = xa().createXAConnection()) {
            XAResource r = c.createXASession().getXAResource();
            Xid[] inDoubt = r.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN);
            assertEquals(1, inDoubt.length);
            assertTrue(((TestXid) x).sameAs(inDoubt[0]));
            r.commit(inDoubt[0], false);
            assertEquals(0, r.recover(XAResource.TMSTARTRSCAN).length);
        }
        assertEquals("invoice-3", receive("xa.out", WAIT_MS).getText());
        assertNull(receive("xa.in", NOTHING_MS));
        node.restart();
        assertNull(receive("xa.in", NOTHING_MS), "nothing comes back after another restart");
        assertNull(receive("xa.out", NOTHING_MS), "and nothing is sent twice");
    }

    @Test
    void aPreparedBranchRolledBackAfterARestartRedeliversAndSendsNothing() throws Exception {
        send("xa.in", "order-4");
        Xid x = prepareConsumeAndSend("rolled-after-restart", "xa.in", "xa.out", "never");
        node.restart();
        try (XAConnection c = xa().createXAConnection()) {
            c.createXASession().getXAResource().rollback(x);
        }
        Message back = receive("xa.in", WAIT_MS);
        assertEquals("order-4", ((TextMessage) back).getText());
        assertTrue(back.getJMSRedelivered());
        assertNull(receive("xa.out", NOTHING_MS));
    }

    @Test
    void sessionsJoinSuspendAndResumeOneBranch() throws Exception {
        Xid x = TestXid.of("joined");
        try (XAConnection c1 = xa().createXAConnection();
                XAConnection c2 = xa().createXAConnection()) {
            XASession s1 = c1.createXASession();
            XASession s2 = c2.createXASession();
            XAResource r1 = s1.getXAResource();
            XAResource r2 = s2.getXAResource();
            assertTrue(r1.isSameRM(r2), "one node is one resource manager");
            MessageProducer p1 = s1.createProducer(s1.createQueue("xa.joined"));
            MessageProducer p2 = s2.createProducer(s2.createQueue("xa.joined"));
            r1.start(x, XAResource.TMNOFLAGS);
            p1.send(s1.createTextMessage("a"));
            r1.end(x, XAResource.TMSUSPEND);
            p1.send(s1.createTextMessage("outside"));
            r1.start(x, XAResource.TMRESUME);
            p1.send(s1.createTextMessage("b"));
            r2.start(x, XAResource.TMJOIN);
            p2.send(s2.createTextMessage("c"));
            XAException busy = assertThrows(XAException.class, () -> r1.prepare(x));
            assertEquals(XAException.XAER_PROTO, busy.errorCode, "sessions are still in the branch");
            r1.end(x, XAResource.TMSUCCESS);
            r2.end(x, XAResource.TMSUCCESS);
            assertEquals("outside", receive("xa.joined", WAIT_MS).getText());
            assertNull(receive("xa.joined", NOTHING_MS));
            assertEquals(XAResource.XA_OK, r2.prepare(x));
            r1.commit(x, false);
        }
        List<String> got = List.of(
                receive("xa.joined", WAIT_MS).getText(),
                receive("xa.joined", WAIT_MS).getText(),
                receive("xa.joined", WAIT_MS).getText());
        assertEquals(List.of("a", "b", "c"), got.stream().sorted().toList());
    }

    @Test
    void aBranchNotPreparedWithinItsTimeoutRollsBack() throws Exception {
        send("xa.in", "order-5");
        Xid x = TestXid.of("too-slow");
        try (XAConnection c = xa().createXAConnection()) {
            c.start();
            XASession s = c.createXASession();
            XAResource r = s.getXAResource();
            assertTrue(r.setTransactionTimeout(1));
            assertEquals(1, r.getTransactionTimeout());
            r.start(x, XAResource.TMNOFLAGS);
            MessageConsumer consumer = s.createConsumer(s.createQueue("xa.in"));
            assertNotNull(consumer.receive(WAIT_MS));
            consumer.close(); // so that the message, when it comes back, goes to the other consumer
            s.createProducer(s.createQueue("xa.out")).send(s.createTextMessage("late"));
            // the node rolls the branch back on its own: the consumed message is free again
            Message back = receive("xa.in", WAIT_MS);
            assertNotNull(back, "the message the timed-out branch consumed is delivered again");
            assertTrue(back.getJMSRedelivered());
            XAException e = assertThrows(XAException.class, () -> r.end(x, XAResource.TMSUCCESS));
            assertEquals(XAException.XA_RBTIMEOUT, e.errorCode);
            r.rollback(x);
        }
        assertNull(receive("xa.out", NOTHING_MS));
    }

    @Test
    void badRequestsGetTheirXaCodes() throws Exception {
        try (XAConnection c = xa().createXAConnection()) {
            XASession s = c.createXASession();
            XAResource r = s.getXAResource();
            assertEquals(
                    XAException.XAER_NOTA,
                    assertThrows(XAException.class, () -> r.commit(TestXid.of("unknown"), false)).errorCode);
            Xid x = TestXid.of("twice");
            r.start(x, XAResource.TMNOFLAGS);
            XAResource other = c.createXASession().getXAResource();
            assertEquals(
                    XAException.XAER_DUPID,
                    assertThrows(XAException.class, () -> other.start(x, XAResource.TMNOFLAGS)).errorCode);
            assertEquals(
                    XAException.XAER_PROTO,
                    assertThrows(XAException.class, () -> r.start(TestXid.of("another"), XAResource.TMNOFLAGS))
                            .errorCode);
            r.end(x, XAResource.TMSUCCESS);
            assertEquals(XAResource.XA_RDONLY, r.prepare(x), "a branch that did nothing votes read-only");
            assertEquals(
                    XAException.XAER_NOTA,
                    assertThrows(XAException.class, () -> r.commit(x, false)).errorCode,
                    "a read-only branch is complete after its prepare");
            assertTrue(s.getTransacted());
            assertEquals(Session.SESSION_TRANSACTED, s.getAcknowledgeMode());
            assertThrows(TransactionInProgressException.class, s::commit);
            assertThrows(TransactionInProgressException.class, s::rollback);
        }
    }

    @Test
    void anAdministratorCompletesInDoubtBranchesByHand() throws Exception {
        send("xa.in", "order-6");
        send("xa.in", "order-7");
        TestXid committed = (TestXid) prepareConsumeAndSend("by-hand-commit", "xa.in", "xa.out", "invoice-6");
        TestXid rolledBack = (TestXid) prepareConsumeAndSend("by-hand-rollback", "xa.in", "xa.out", "never");
        try (PartitaAdmin admin = PartitaAdmin.connect(plain())) {
            List<PartitaAdmin.InDoubtTransaction> inDoubt = admin.inDoubtTransactions();
            assertEquals(
                    java.util.Set.of(committed.text(), rolledBack.text()),
                    inDoubt.stream()
                            .map(PartitaAdmin.InDoubtTransaction::xid)
                            .collect(java.util.stream.Collectors.toSet()));
            PartitaAdmin.InDoubtTransaction first = inDoubt.stream()
                    .filter(t -> t.xid().equals(committed.text()))
                    .findFirst()
                    .orElseThrow();
            assertEquals("PREPARED", first.state());
            assertEquals(1, first.sent());
            assertEquals(1, first.consumed());
            assertNotNull(first.preparedAt());
            admin.commitTransaction(committed.text());
        }
        ObjectName jmx = ObjectName.getInstance("org.partita:type=Node,name="
                + ObjectName.quote(node.node().config().nodeName()));
        String[] lines = (String[]) ManagementFactory.getPlatformMBeanServer()
                .invoke(jmx, "inDoubtTransactions", new Object[0], new String[0]);
        assertEquals(2, lines.length, Arrays.toString(lines));
        assertTrue(
                Arrays.stream(lines)
                        .anyMatch(l ->
                                l.startsWith("branch=" + committed.text()) && l.contains("state=HEURISTIC_COMMITTED")),
                Arrays.toString(lines));
        ManagementFactory.getPlatformMBeanServer()
                .invoke(jmx, "rollbackTransaction", new Object[] {rolledBack.text()}, new String[] {
                    String.class.getName()
                });
        assertEquals("invoice-6", receive("xa.out", WAIT_MS).getText());
        Message back = receive("xa.in", WAIT_MS);
        assertTrue(back.getJMSRedelivered());
        assertNull(receive("xa.out", NOTHING_MS));
        try (XAConnection c = xa().createXAConnection()) {
            XAResource r = c.createXASession().getXAResource();
            assertEquals(2, r.recover(XAResource.TMSTARTRSCAN).length, "decisions taken by hand wait to be forgotten");
            assertEquals(
                    XAException.XA_HEURCOM,
                    assertThrows(XAException.class, () -> r.commit(committed, false)).errorCode);
            assertEquals(
                    XAException.XA_HEURRB,
                    assertThrows(XAException.class, () -> r.commit(rolledBack, false)).errorCode);
            r.forget(committed);
            node.restart();
        }
        try (XAConnection c = xa().createXAConnection()) {
            XAResource r = c.createXASession().getXAResource();
            Xid[] left = r.recover(XAResource.TMSTARTRSCAN);
            assertEquals(1, left.length, "the decision not yet forgotten survives the restart");
            assertTrue(rolledBack.sameAs(left[0]));
            assertEquals(XAException.XA_HEURRB, assertThrows(XAException.class, () -> r.rollback(left[0])).errorCode);
            r.forget(left[0]);
            assertEquals(0, r.recover(XAResource.TMSTARTRSCAN).length);
        }
    }

    @Test
    void branchesCompletedByHandOverJmxLeaveTheSameOperatorLogLineAsTheAdminCommands() throws Exception {
        send("xa.in", "order-10");
        send("xa.in", "order-11");
        TestXid committed = (TestXid) prepareConsumeAndSend("jmx-commit", "xa.in", "xa.out", "invoice-10");
        TestXid rolledBack = (TestXid) prepareConsumeAndSend("jmx-rollback", "xa.in", "xa.out", "never");
        ch.qos.logback.classic.Logger log =
                (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("org.partita.admin");
        ch.qos.logback.classic.Level before = log.getLevel();
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> lines =
                new ch.qos.logback.core.read.ListAppender<>();
        lines.start();
        log.addAppender(lines);
        log.setLevel(ch.qos.logback.classic.Level.INFO);
        try {
            ObjectName jmx = ObjectName.getInstance("org.partita:type=Node,name="
                    + ObjectName.quote(node.node().config().nodeName()));
            String[] signature = {String.class.getName()};
            ManagementFactory.getPlatformMBeanServer()
                    .invoke(jmx, "commitTransaction", new Object[] {committed.text()}, signature);
            ManagementFactory.getPlatformMBeanServer()
                    .invoke(jmx, "rollbackTransaction", new Object[] {rolledBack.text()}, signature);
        } finally {
            log.detachAppender(lines);
            log.setLevel(before);
        }
        List<String> messages = lines.list.stream()
                .map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage)
                .toList();
        assertEquals(
                List.of(
                        "admin xa.commit " + committed.text() + " by (anonymous) from jmx: committed=true",
                        "admin xa.rollback " + rolledBack.text() + " by (anonymous) from jmx: rolledBack=true"),
                messages);
        assertEquals(ch.qos.logback.classic.Level.INFO, lines.list.get(0).getLevel());
        assertEquals("invoice-10", receive("xa.out", WAIT_MS).getText());
    }

    @Test
    void theQueueFlavourOfXaSendsAndReceivesInOneBranch() throws Exception {
        send("xa.qin", "order-q");
        Xid x = TestXid.of("queue-flavour");
        try (XAQueueConnection c = xa().createXAQueueConnection()) {
            c.start();
            XAQueueSession xs = c.createXAQueueSession();
            QueueSession s = xs.getQueueSession();
            XAResource r = xs.getXAResource();
            r.start(x, XAResource.TMNOFLAGS);
            QueueReceiver receiver = s.createReceiver(s.createQueue("xa.qin"));
            assertEquals("order-q", ((TextMessage) receiver.receive(WAIT_MS)).getText());
            s.createSender(s.createQueue("xa.qout")).send(s.createTextMessage("invoice-q"));
            r.end(x, XAResource.TMSUCCESS);
            assertEquals(XAResource.XA_OK, r.prepare(x));
            assertNull(receive("xa.qout", NOTHING_MS), "nothing is sent before the commit");
            r.commit(x, false);
            receiver.close();
        }
        assertEquals("invoice-q", receive("xa.qout", WAIT_MS).getText());
        assertNull(receive("xa.qin", NOTHING_MS), "the consumed message is gone for good");
    }

    @Test
    void theTopicFlavourOfXaPublishesOnlyWhatItsBranchCommits() throws Exception {
        try (Connection plainConnection = plain().createConnection();
                XATopicConnection c = xa().createXATopicConnection()) {
            plainConnection.start();
            Session plainSession = plainConnection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer watcher = plainSession.createConsumer(plainSession.createTopic("xa.prices"));
            c.start();
            XATopicSession xs = c.createXATopicSession();
            TopicSession s = xs.getTopicSession();
            XAResource r = xs.getXAResource();
            TopicSubscriber subscriber = s.createSubscriber(s.createTopic("xa.quotes"));
            TopicPublisher publisher = s.createPublisher(s.createTopic("xa.prices"));

            Xid dropped = TestXid.of("topic-dropped");
            r.start(dropped, XAResource.TMNOFLAGS);
            publisher.publish(s.createTextMessage("dropped"));
            r.end(dropped, XAResource.TMSUCCESS);
            r.rollback(dropped);

            plainSession
                    .createProducer(plainSession.createTopic("xa.quotes"))
                    .send(plainSession.createTextMessage("quote-1"));
            Xid kept = TestXid.of("topic-kept");
            r.start(kept, XAResource.TMNOFLAGS);
            assertEquals("quote-1", ((TextMessage) subscriber.receive(WAIT_MS)).getText());
            publisher.publish(s.createTextMessage("kept"));
            r.end(kept, XAResource.TMSUCCESS);
            assertNull(watcher.receive(NOTHING_MS), "nothing is published before the commit");
            assertEquals(XAResource.XA_OK, r.prepare(kept));
            r.commit(kept, false);
            assertEquals("kept", ((TextMessage) watcher.receive(WAIT_MS)).getText());
            assertNull(watcher.receive(NOTHING_MS), "the rolled-back publication never arrives");
        }
    }

    @Test
    void aBranchItsConnectionLeftUnpreparedRollsBack() throws Exception {
        send("xa.in", "order-8");
        try (XAConnection c = xa().createXAConnection()) {
            c.start();
            XASession s = c.createXASession();
            XAResource r = s.getXAResource();
            Xid x = TestXid.of("abandoned");
            r.start(x, XAResource.TMNOFLAGS);
            assertNotNull(s.createConsumer(s.createQueue("xa.in")).receive(WAIT_MS));
            s.createProducer(s.createQueue("xa.out")).send(s.createTextMessage("never"));
            r.end(x, XAResource.TMSUCCESS);
        }
        assertTrue(receive("xa.in", WAIT_MS).getJMSRedelivered());
        assertNull(receive("xa.out", NOTHING_MS));
    }

    @Test
    void anXaContextWorksInABranch() throws Exception {
        Xid x = TestXid.of("context");
        try (XAJMSContext ctx = xa().createXAContext()) {
            assertTrue(ctx.getTransacted());
            XAResource r = ctx.getXAResource();
            r.start(x, XAResource.TMNOFLAGS);
            ctx.createProducer().send(ctx.createQueue("xa.ctx"), "from a context");
            r.end(x, XAResource.TMSUCCESS);
            assertNull(receive("xa.ctx", NOTHING_MS));
            r.commit(x, true);
            assertThrows(jakarta.jms.TransactionInProgressRuntimeException.class, ctx::commit);
        }
        assertEquals("from a context", receive("xa.ctx", WAIT_MS).getText());
    }

    // ---------------------------------------------------------------- helpers

    /** A branch that consumes one message of {@code from} and sends {@code text} to {@code to}, prepared; its connection closed. */
    private Xid prepareConsumeAndSend(String global, String from, String to, String text) throws Exception {
        Xid x = TestXid.of(global);
        try (XAConnection c = xa().createXAConnection()) {
            c.start();
            XASession s = c.createXASession();
            XAResource r = s.getXAResource();
            r.start(x, XAResource.TMNOFLAGS);
            MessageConsumer consumer = s.createConsumer(s.createQueue(from));
            assertNotNull(consumer.receive(WAIT_MS));
            s.createProducer(s.createQueue(to)).send(s.createTextMessage(text));
            r.end(x, XAResource.TMSUCCESS);
            assertEquals(XAResource.XA_OK, r.prepare(x));
            consumer.close();
        }
        return x;
    }

    private void send(String queue, String text) throws Exception {
        try (Connection c = plain().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            s.createProducer(s.createQueue(queue)).send(s.createTextMessage(text));
        }
    }

    private TextMessage receive(String queue, long millis) throws Exception {
        try (Connection c = plain().createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = s.createQueue(queue);
            return (TextMessage) s.createConsumer(q).receive(millis);
        }
    }
}
