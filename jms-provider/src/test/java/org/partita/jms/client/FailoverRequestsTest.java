package org.partita.jms.client;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.partita.jms.client.FailoverFixture.A;
import static org.partita.jms.client.FailoverFixture.B;
import static org.partita.jms.client.FailoverFixture.C;

import jakarta.jms.CompletionListener;
import jakarta.jms.DeliveryMode;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.Session;
import jakarta.jms.TransactionRolledBackException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.partita.jms.api.PartitaErrorCodes;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.MessageCodec;
import org.partita.protocol.ProviderProperties;

/** docs/cluster.md, "Failover": sends, transactions and other requests across a switch of node. */
class FailoverRequestsTest {
    private FailoverFixture f;

    @AfterEach
    void close() throws JMSException {
        if (f != null) {
            f.close();
        }
    }

    @Test
    void theFirstNodeThatAcceptsIsUsed() throws JMSException {
        f = new FailoverFixture();
        f.nodes.down(A);
        f.connect("");
        assertEquals(List.of(A, B), f.nodes.attempts());
        f.connection.createSession().createProducer(null);
        assertEquals(1, f.on(B).openSessions().size());
    }

    @Test
    void whenNoNodeAcceptsTheConnectionFailsNamingWhatEachSaid() {
        f = new FailoverFixture();
        f.nodes.down(A);
        f.nodes.refuseHandshakes(B, ErrorCode.AUTHENTICATION_FAILED);
        f.nodes.down(C);
        JMSException e = assertThrows(
                JMSSecurityException.class,
                () -> f.connect(""),
                "a node's refusal of the credentials is what the application must act on");
        for (String node : List.of("127.0.0.1:61700", "127.0.0.1:61701", "127.0.0.1:61702")) {
            assertTrue(e.getMessage().contains(node), e.getMessage());
        }
    }

    @Test
    void theExceptionListenerHearsTheSwitchOnceAndTheConnectionStaysUsable() throws JMSException {
        f = FailoverFixture.connected();
        f.connection.createSession();

        JMSException report = f.lose(A);

        assertEquals(PartitaErrorCodes.FAILOVER, report.getErrorCode());
        assertEquals(List.of(report), f.told);
        Session s = f.connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        s.createProducer(s.createQueue("q")).send(s.createTextMessage("after"));
        assertEquals(1, f.on(B).waiting("queue:q"));
        await("nothing else reported")
                .during(Duration.ofMillis(300))
                .atMost(Duration.ofSeconds(5))
                .until(() -> f.told.equals(List.of(report)));
    }

    /** A transaction that only sent is made again on the next node: nothing was committed on the lost one. */
    @Test
    void aTransactionThatOnlySentOnTheLostNodeIsMadeAgainOnTheNextOneAndCommits() throws JMSException {
        f = FailoverFixture.connected();
        Session s = f.connection.createSession(true, Session.SESSION_TRANSACTED);
        MessageProducer p = s.createProducer(s.createQueue("q"));
        p.send(s.createTextMessage("first, sent on A"));
        p.send(s.createTextMessage("second, sent on A"));

        f.lose(A);

        p.send(s.createTextMessage("third, sent on B"));
        s.commit();
        assertEquals(
                List.of("first, sent on A", "second, sent on A", "third, sent on B"), bodiesOnB(), "in the order sent");
        assertEquals(0, markedOnB(), "no commit had reached A: nothing is marked");
    }

    /**
     * A send the node refused is not part of the transaction (the application heard of it and may send
     * it again): made again on the next node, the transaction has what the lost node had taken.
     */
    @Test
    void aSendTheNodeRefusedIsNotMadeAgainWithItsTransaction() throws Exception {
        f = FailoverFixture.connected();
        Session s = f.connection.createSession(true, Session.SESSION_TRANSACTED);
        MessageProducer p = s.createProducer(s.createQueue("q"));
        p.send(s.createTextMessage("taken"));
        f.on(A).refuseSends(ErrorCode.RESOURCE_EXHAUSTED, "the node's open transactions are full");
        p.send(s.createTextMessage("refused"));
        f.on(A).acceptSends();
        f.on(A).answeredSoFar(); // the refusal is back before the next send, which surfaces it
        assertThrows(
                ResourceAllocationException.class, () -> p.send(s.createTextMessage("not sent: the refusal surfaces")));
        p.send(s.createTextMessage("sent again by the application"));

        f.lose(A);

        s.commit();
        assertEquals(List.of("taken", "sent again by the application"), bodiesOnB());
    }

    /**
     * A commit whose node is lost before it answered is made again on the next node, its sends marked
     * (a replicated queue keeps one copy of what the lost commit stored), and succeeds once.
     */
    @Test
    void aCommitLostWithItsNodeIsMadeAgainOnTheNextNodeMarked() throws Exception {
        f = FailoverFixture.connected();
        Session s = f.connection.createSession(true, Session.SESSION_TRANSACTED);
        MessageProducer p = s.createProducer(s.createQueue("q"));
        p.send(s.createTextMessage("one"));
        p.send(s.createTextMessage("two"));
        f.on(A).stopAnswering();
        CompletableFuture<Void> commit = CompletableFuture.runAsync(() -> {
            try {
                s.commit();
            } catch (JMSException e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
        await("the commit waiting for A")
                .during(Duration.ofMillis(200))
                .atMost(Duration.ofSeconds(5))
                .until(() -> !commit.isDone());

        f.lose(A);

        commit.get(10, TimeUnit.SECONDS);
        assertEquals(2, f.on(B).waiting("queue:q"), "the transaction's two sends, made again on B");
        assertEquals(2, markedOnB(), "marked: A may have committed them");
        p.send(s.createTextMessage("next transaction"));
        s.commit();
        assertEquals(3, f.on(B).waiting("queue:q"));
    }

    /** With {@code sendAgain=false} a transaction with work on a lost node fails its commit, and the next one commits. */
    @Test
    void withoutSendAgainATransactionWithWorkOnTheLostNodeFailsItsNextCommit() throws JMSException {
        f = new FailoverFixture().connect("?sendAgain=false");
        Session s = f.connection.createSession(true, Session.SESSION_TRANSACTED);
        MessageProducer p = s.createProducer(s.createQueue("q"));
        p.send(s.createTextMessage("sent on A"));

        f.lose(A);

        TransactionRolledBackException e = assertThrows(TransactionRolledBackException.class, s::commit);
        assertEquals(PartitaErrorCodes.FAILOVER, e.getErrorCode());
        assertEquals(0, f.on(B).waiting("queue:q"), "nothing of it on B");
        p.send(s.createTextMessage("sent on B"));
        s.commit();
    }

    @Test
    void aTransactionThatOnlyReceivedOnTheLostNodeFailsItsCommitToo() throws JMSException {
        f = FailoverFixture.connected();
        Session s = transactionThatReceivedOnA();

        f.lose(A);

        assertThrows(TransactionRolledBackException.class, s::commit);
        s.commit(); // a new, empty transaction
    }

    /**
     * A transaction that received on the lost node and also sent is not made again: its sends would come
     * twice once the messages it consumed come back and are processed again.
     */
    @Test
    void aTransactionThatReceivedAndSentOnTheLostNodeIsNotMadeAgain() throws JMSException {
        f = FailoverFixture.connected();
        Session s = transactionThatReceivedOnA();
        s.createProducer(s.createQueue("out")).send(s.createTextMessage("made from it"));

        f.lose(A);

        assertThrows(TransactionRolledBackException.class, s::commit);
        assertEquals(0, f.on(B).waiting("queue:out"), "nothing of the transaction on B");
    }

    @Test
    void aTransactionWithNoWorkOnTheLostNodeCommitsAfterTheSwitch() throws JMSException {
        f = FailoverFixture.connected();
        Session s = f.connection.createSession(true, Session.SESSION_TRANSACTED);
        MessageProducer p = s.createProducer(s.createQueue("q"));
        p.send(s.createTextMessage("first"));
        s.commit();

        f.lose(A);

        p.send(s.createTextMessage("second"));
        s.commit();
        assertEquals(1, f.on(B).waiting("queue:q"));
    }

    /** A transacted session that received, in its transaction under way, a message node A delivered. */
    private Session transactionThatReceivedOnA() throws JMSException {
        Session sender = f.connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = sender.createQueue("q");
        sender.createProducer(q).send(sender.createTextMessage("on A"));
        Session s = f.connection.createSession(true, Session.SESSION_TRANSACTED);
        MessageConsumer consumer = s.createConsumer(q);
        f.connection.start();
        assertNotNull(consumer.receive(5_000));
        return s;
    }

    /** The text of each message node B holds in queue {@code q}, in order. */
    private List<String> bodiesOnB() {
        return f.on(B).waitingMessages("queue:q").stream()
                .map(m -> new String(MessageCodec.decode(m).body(), java.nio.charset.StandardCharsets.UTF_8))
                .toList();
    }

    /** How many of the messages node B holds in queue {@code q} are marked as sent again. */
    private long markedOnB() {
        return marked(B);
    }

    /** How many of the messages {@code node} holds in queue {@code q} are marked as sent again. */
    private long marked(org.partita.jms.transport.NodeAddress node) {
        return f.on(node).waitingMessages("queue:q").stream()
                .filter(m -> Boolean.TRUE.equals(MessageCodec.decode(m).property(ProviderProperties.SENT_AGAIN)))
                .count();
    }

    /** The outcomes of an asynchronous and a synchronous send (null: it succeeded). */
    private record OnTheirWay(CompletableFuture<JMSException> async, CompletableFuture<Throwable> sync) {}

    /** Makes node A stop answering, then sends asynchronously and synchronously: both wait for A. */
    private OnTheirWay sendWhileNodeADoesNotAnswer(Session s, MessageProducer p) throws JMSException {
        f.on(A).stopAnswering();
        CompletableFuture<JMSException> asyncOutcome = new CompletableFuture<>();
        p.send(s.createTextMessage("async"), new CompletionListener() {
            @Override
            public void onCompletion(Message message) {
                asyncOutcome.complete(null);
            }

            @Override
            public void onException(Message message, Exception exception) {
                asyncOutcome.complete((JMSException) exception);
            }
        });
        CompletableFuture<Throwable> syncOutcome = new CompletableFuture<>();
        Thread sender = new Thread(
                () -> {
                    try {
                        p.send(s.createTextMessage("sync"));
                        syncOutcome.complete(null);
                    } catch (JMSException e) {
                        syncOutcome.complete(e);
                    }
                },
                "sync-sender");
        sender.start();
        await("the synchronous send waiting for its answer")
                .atMost(Duration.ofSeconds(5))
                .until(() -> sender.getState() == Thread.State.TIMED_WAITING);
        assertFalse(asyncOutcome.isDone());
        return new OnTheirWay(asyncOutcome, syncOutcome);
    }

    @Test
    void withoutSendAgainSendsOnTheirWayWhenTheNodeIsLostFailWithNodeLost() throws Exception {
        f = new FailoverFixture().connect("?sendAgain=false");
        Session s = f.connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageProducer p = s.createProducer(s.createQueue("q"));
        OnTheirWay sends = sendWhileNodeADoesNotAnswer(s, p);
        f.lose(A);

        JMSException async = sends.async().get(10, TimeUnit.SECONDS);
        assertNotNull(async, "onException, not onCompletion");
        assertEquals(PartitaErrorCodes.NODE_LOST, async.getErrorCode());
        assertTrue(async.getMessage().contains("may or may not have been stored"), async.getMessage());
        JMSException sync = assertInstanceOf(JMSException.class, sends.sync().get(10, TimeUnit.SECONDS));
        assertEquals(PartitaErrorCodes.NODE_LOST, sync.getErrorCode());
        p.send(s.createTextMessage("after"));
        assertEquals(1, f.on(B).waiting("queue:q"), "only what was sent after the switch is on B");
    }

    /** With several nodes, a node's loss does not fail a persistent send: it is made again, marked, on the next node. */
    @Test
    void persistentSendsOnTheirWayWhenTheNodeIsLostAreMadeAgainOnTheNextNodeMarked() throws Exception {
        f = FailoverFixture.connected();
        Session s = f.connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageProducer p = s.createProducer(s.createQueue("q"));
        OnTheirWay sends = sendWhileNodeADoesNotAnswer(s, p);
        f.lose(A);

        assertNull(sends.async().get(10, TimeUnit.SECONDS), "onCompletion: the send was made again on B");
        assertNull(sends.sync().get(10, TimeUnit.SECONDS), "the send returns: it was made again on B");
        p.send(s.createTextMessage("after"));
        assertEquals(3, f.on(B).waiting("queue:q"), "the two sends made again, and the one after the switch");
        assertEquals(
                2,
                markedOnB(),
                "the sends made again are marked, so that a node keeps one copy or says it cannot tell");
    }

    /** The next node lost too before it answered: the send is made on the third, once, and succeeds. */
    @Test
    void aSendLostOnTwoNodesInARowIsMadeOnTheThirdAndSucceedsOnce() throws Exception {
        f = FailoverFixture.connected();
        f.nodes.stopAnsweringAtFirstSend(B);
        Session s = f.connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageProducer p = s.createProducer(s.createQueue("q"));
        OnTheirWay sends = sendWhileNodeADoesNotAnswer(s, p);
        f.lose(A);
        await("the sends made again on B, which does not answer either")
                .atMost(Duration.ofSeconds(10))
                .until(() -> f.on(B).sendsTaken() == 2);
        assertFalse(sends.sync().isDone(), "B has not answered");

        f.lose(B);

        assertNull(sends.async().get(10, TimeUnit.SECONDS), "onCompletion: made again on C");
        assertNull(sends.sync().get(10, TimeUnit.SECONDS));
        assertEquals(2, f.on(C).waiting("queue:q"), "each send once on C");
        assertEquals(2, marked(C), "marked, as on B: A or B may have stored them");
    }

    /** Lost on as many nodes as it may be made on: the send fails in doubt, saying so. */
    @Test
    void aSendLostOnThreeNodesInTurnFailsInDoubt() throws Exception {
        f = FailoverFixture.connected();
        f.nodes.stopAnsweringAtFirstSend(B);
        f.nodes.stopAnsweringAtFirstSend(C);
        Session s = f.connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageProducer p = s.createProducer(s.createQueue("q"));
        OnTheirWay sends = sendWhileNodeADoesNotAnswer(s, p);
        f.lose(A);
        await().atMost(Duration.ofSeconds(10)).until(() -> f.on(B).sendsTaken() == 2);
        f.lose(B);
        await().atMost(Duration.ofSeconds(10)).until(() -> f.on(C).sendsTaken() == 2);
        f.nodes.up(A);

        f.lose(C);

        JMSException async = sends.async().get(10, TimeUnit.SECONDS);
        assertNotNull(async, "onException: no fourth node is tried");
        assertEquals(PartitaErrorCodes.NODE_LOST, async.getErrorCode());
        JMSException sync = assertInstanceOf(JMSException.class, sends.sync().get(10, TimeUnit.SECONDS));
        assertEquals(PartitaErrorCodes.NODE_LOST, sync.getErrorCode());
        assertTrue(sync.getMessage().contains("made on 3 nodes"), sync.getMessage());
        assertEquals(0, f.on(A).waiting("queue:q"), "not made again on A, which may hold it from the first try");
        p.send(s.createTextMessage("after"));
        assertEquals(1, f.on(A).waiting("queue:q"), "the connection sends on");
    }

    /**
     * A send that may be made again needs an id (the next node keeps one copy by it, and refuses a copy
     * without one), so the producer's hint to leave ids out is not taken for it; it is for the others.
     */
    @Test
    void aProducerThatDisablesIdsStillGivesOneToSendsThatMayBeMadeAgain() throws Exception {
        f = FailoverFixture.connected();
        Session s = f.connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageProducer p = s.createProducer(s.createQueue("q"));
        p.setDisableMessageID(true);
        Message persistent = s.createTextMessage("persistent");
        p.send(persistent);
        assertNotNull(persistent.getJMSMessageID(), "a persistent send may be made again on the next node");
        Message nonPersistent = s.createTextMessage("non-persistent");
        p.send(nonPersistent, DeliveryMode.NON_PERSISTENT, 4, 0);
        assertNull(nonPersistent.getJMSMessageID(), "a non-persistent send is never made again");

        OnTheirWay sends = sendWhileNodeADoesNotAnswer(s, p);
        f.lose(A);
        assertNull(sends.async().get(10, TimeUnit.SECONDS), "onCompletion: the send was made again on B");
        assertNull(sends.sync().get(10, TimeUnit.SECONDS), "the send returns: it was made again on B");
        List<byte[]> onB = f.on(B).waitingMessages("queue:q");
        assertEquals(2, onB.size(), "both sends made again on B");
        assertTrue(
                onB.stream().allMatch(m -> MessageCodec.decode(m).messageId() != null),
                "what was made again on B carries the id B keeps one copy by");

        FailoverFixture without = new FailoverFixture().connect("?sendAgain=false");
        try {
            Session s2 = without.connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p2 = s2.createProducer(s2.createQueue("q"));
            p2.setDisableMessageID(true);
            Message m = s2.createTextMessage("once");
            p2.send(m);
            assertNull(m.getJMSMessageID(), "with sendAgain=false the hint is taken");
        } finally {
            without.close();
        }
    }

    @Test
    void callsMadeWhileFailingOverWaitForTheNextNode() throws Exception {
        f = FailoverFixture.connected();
        Session s = f.connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageProducer p = s.createProducer(s.createQueue("q"));
        f.nodes.down(B);
        f.nodes.down(C);
        f.nodes.down(A);
        await("attempts at B and C")
                .atMost(Duration.ofSeconds(5))
                .until(() -> f.nodes.attempts().size() >= 4);

        CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
            try {
                p.send(s.createTextMessage("waited"));
            } catch (JMSException e) {
                throw new RuntimeException(e);
            }
        });
        assertEquals(null, f.transport.node(), "no node in use");
        assertFalse(sent.isDone());
        f.nodes.up(C);

        sent.get(10, TimeUnit.SECONDS);
        assertEquals(1, f.on(C).waiting("queue:q"));
        await("the report")
                .atMost(Duration.ofSeconds(5))
                .until(() -> f.failovers().size() == 1);
    }

    @Test
    void whenNoNodeAcceptsWithinFailoverTimeoutTheConnectionFails() throws JMSException {
        f = new FailoverFixture().connect("?failoverTimeout=300");
        Session s = f.connection.createSession();
        f.nodes.down(B);
        f.nodes.down(C);
        long start = System.nanoTime();
        f.nodes.down(A);

        await("the loss").atMost(Duration.ofSeconds(10)).until(() -> !f.told.isEmpty());
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        JMSException lost = f.told.get(0);
        assertTrue(lost.getMessage().contains("failoverTimeout (300 ms)"), lost.getMessage());
        assertFalse(PartitaErrorCodes.FAILOVER.equals(lost.getErrorCode()));
        assertTrue(millis >= 250 && millis < 5_000, "gave up after " + millis + " ms");
        assertThrows(IllegalStateException.class, f.connection::createSession);
        assertThrows(IllegalStateException.class, () -> s.createProducer(null));
    }

    @Test
    void closingWhileFailingOverEndsTheAttempts() throws JMSException {
        f = FailoverFixture.connected();
        f.connection.createSession();
        f.nodes.down(B);
        f.nodes.down(C);
        f.nodes.down(A);
        await("attempts")
                .atMost(Duration.ofSeconds(5))
                .until(() -> f.nodes.attempts().size() >= 4);
        long start = System.nanoTime();
        f.connection.close();
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 5_000);
        int attempts = f.nodes.attempts().size();
        await("no more attempts")
                .during(Duration.ofMillis(500))
                .atMost(Duration.ofSeconds(5))
                .until(() -> f.nodes.attempts().size() <= attempts + 1); // one may have been under way
        assertEquals(List.of(), f.told, "a closed connection reports nothing");
    }
}
