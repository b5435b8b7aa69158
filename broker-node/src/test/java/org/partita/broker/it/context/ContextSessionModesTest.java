package org.partita.broker.it.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.broker.it.NodeExtension;

/** The four session modes of a context: acknowledgement, recover, commit and rollback. */
@Tag("slow")
class ContextSessionModesTest {
    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    private void send(Queue q, String... bodies) {
        try (JMSContext sender = node.factory().createContext()) {
            JMSProducer p = sender.createProducer();
            for (String b : bodies) {
                p.send(q, b);
            }
        }
    }

    /**
     * Asserts what is left on {@code queue}: a fresh auto-acknowledge context receives (and so removes)
     * {@code expected}, compared in any order (messages given back need not keep their place, JMS
     * 6.2.9), and then the queue's figures show nothing more, neither waiting nor delivered to it.
     */
    private void assertLeftOn(String queue, String... expected) throws Exception {
        try (JMSContext check = node.factory().createContext()) {
            JMSConsumer c = check.createConsumer(check.createQueue(queue));
            assertEquals(sorted(List.of(expected)), sorted(Wait.receiveTexts(c, expected.length)), "left on " + queue);
            Wait.awaitQueueHoldsNothing(node.factory(), queue, "nothing more is left on " + queue);
        }
    }

    private static List<String> sorted(List<String> texts) {
        List<String> out = new ArrayList<>(texts);
        Collections.sort(out);
        return out;
    }

    @Test
    void autoAcknowledgeAcknowledgesEachMessageOnReceipt() throws Exception {
        try (JMSContext ctx = node.factory().createContext(JMSContext.AUTO_ACKNOWLEDGE)) {
            Queue q = ctx.createQueue("auto");
            send(q, "a1", "a2");
            JMSConsumer c = ctx.createConsumer(q);
            assertEquals("a1", c.receiveBody(String.class, Wait.ARRIVES));
            Message m = c.receive(Wait.ARRIVES);
            assertFalse(m.getJMSRedelivered());
            ctx.acknowledge(); // no effect outside client-acknowledge mode
            ctx.recover(); // nothing unacknowledged to give back
            Wait.assertNothingAhead(ctx, q, c, "recover gives nothing back");
        }
        assertLeftOn("auto");
    }

    @Test
    void dupsOkAcknowledgesLazilyButDoesAcknowledge() throws Exception {
        try (JMSContext ctx = node.factory().createContext(JMSContext.DUPS_OK_ACKNOWLEDGE)) {
            Queue q = ctx.createQueue("dups");
            send(q, "d1", "d2", "d3");
            JMSConsumer c = ctx.createConsumer(q);
            assertEquals(List.of("d1", "d2", "d3"), Wait.receiveTexts(c, 3));
            Wait.assertNothingAhead(ctx, q, c, "each came once");
        }
        assertLeftOn("dups");
    }

    @Test
    void clientAcknowledgeKeepsMessagesUntilTheContextAcknowledges() throws Exception {
        String sentinel;
        try (JMSContext ctx = node.factory().createContext(JMSContext.CLIENT_ACKNOWLEDGE)) {
            Queue q = ctx.createQueue("client-unacked");
            send(q, "c1", "c2");
            JMSConsumer c = ctx.createConsumer(q);
            assertEquals(List.of("c1", "c2"), Wait.receiveTexts(c, 2));
            sentinel = Wait.sendSentinel(ctx, q);
            Wait.assertNextIsSentinel(c, sentinel, "each came once");
        } // closed without acknowledging: all three come back
        assertLeftOn("client-unacked", "c1", "c2", sentinel);
    }

    @Test
    void contextAcknowledgeAcknowledgesEverythingTheContextConsumed() throws Exception {
        try (JMSContext ctx = node.factory().createContext(JMSContext.CLIENT_ACKNOWLEDGE)) {
            Queue q1 = ctx.createQueue("client-1");
            Queue q2 = ctx.createQueue("client-2");
            send(q1, "x1", "x2");
            send(q2, "y1");
            JMSConsumer c1 = ctx.createConsumer(q1);
            JMSConsumer c2 = ctx.createConsumer(q2);
            assertEquals(List.of("x1", "x2"), Wait.receiveTexts(c1, 2));
            assertEquals("y1", c2.receiveBody(String.class, Wait.ARRIVES));
            ctx.acknowledge();
            ctx.recover(); // nothing left unacknowledged
            Wait.assertNothingAhead(ctx, q1, c1, "x1 and x2 were acknowledged");
            Wait.assertNothingAhead(ctx, q2, c2, "y1 was acknowledged");
            ctx.acknowledge();
        }
        assertLeftOn("client-1");
        assertLeftOn("client-2");
    }

    @Test
    void messageAcknowledgeInAContextAcknowledgesAllConsumedSoFar() throws Exception {
        try (JMSContext ctx = node.factory().createContext(JMSContext.CLIENT_ACKNOWLEDGE)) {
            Queue q = ctx.createQueue("client-message-ack");
            send(q, "m1", "m2", "m3");
            JMSConsumer c = ctx.createConsumer(q);
            c.receive(Wait.ARRIVES);
            Message second = c.receive(Wait.ARRIVES);
            second.acknowledge(); // both m1 and m2
            assertEquals("m3", c.receiveBody(String.class, Wait.ARRIVES));
        } // m3 unacknowledged
        assertLeftOn("client-message-ack", "m3");
    }

    @Test
    void recoverRedeliversUnacknowledgedMessagesMarkedRedelivered() throws Exception {
        try (JMSContext ctx = node.factory().createContext(JMSContext.CLIENT_ACKNOWLEDGE)) {
            Queue q = ctx.createQueue("recover");
            send(q, "r1", "r2", "r3");
            JMSConsumer c = ctx.createConsumer(q);
            Message r1 = c.receive(Wait.ARRIVES);
            assertFalse(r1.getJMSRedelivered());
            ctx.acknowledge(); // r1 is done
            assertEquals("r2", c.receiveBody(String.class, Wait.ARRIVES));
            ctx.recover();
            List<String> again = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                Message m = c.receive(Wait.ARRIVES);
                assertNotNull(m, "recovered message " + (i + 1) + " of 2; before it: " + again);
                String text = m.getBody(String.class);
                again.add(text);
                if ("r2".equals(text)) {
                    assertTrue(m.getJMSRedelivered());
                    assertEquals(2, m.getIntProperty("JMSXDeliveryCount"));
                }
            }
            assertEquals(List.of("r2", "r3"), sorted(again));
            Wait.assertNothingAhead(ctx, q, c, "recover gives back each once, and not the acknowledged r1");
            ctx.acknowledge();
        }
        assertLeftOn("recover");
    }

    @Test
    void aMessageListenerInClientAcknowledgeModeAndContextAcknowledge() throws Exception {
        try (JMSContext ctx = node.factory().createContext(JMSContext.CLIENT_ACKNOWLEDGE)) {
            Queue q = ctx.createQueue("client-listener");
            CountDownLatch latch = new CountDownLatch(2);
            ctx.createConsumer(q).setMessageListener(m -> latch.countDown());
            send(q, "l1", "l2");
            assertTrue(latch.await(10, TimeUnit.SECONDS));
            ctx.acknowledge();
        }
        assertLeftOn("client-listener");
    }

    @Test
    void sendsOfATransactionAreSeenOnlyAfterCommit() throws Exception {
        try (JMSContext tx = node.factory().createContext(JMSContext.SESSION_TRANSACTED);
                JMSContext observer = node.factory().createContext()) {
            Queue q = tx.createQueue("tx-send");
            JMSConsumer seen = observer.createConsumer(q);
            tx.createProducer().send(q, "t1").send(q, "t2");
            Wait.assertNothingAhead(observer, q, seen, "uncommitted sends are invisible");
            tx.commit();
            assertEquals(List.of("t1", "t2"), Wait.receiveTexts(seen, 2));
            Wait.assertNothingAhead(observer, q, seen, "the commit delivers each once");
        }
    }

    @Test
    void rollbackDiscardsTheSendsOfTheTransaction() throws Exception {
        try (JMSContext tx = node.factory().createContext(JMSContext.SESSION_TRANSACTED)) {
            Queue q = tx.createQueue("tx-discard");
            JMSProducer p = tx.createProducer();
            p.send(q, "dropped");
            tx.rollback();
            p.send(q, "kept");
            tx.commit();
        }
        assertLeftOn("tx-discard", "kept");
    }

    @Test
    void consumptionInATransactionIsUndoneByRollbackAndMadeFinalByCommit() throws Exception {
        try (JMSContext tx = node.factory().createContext(JMSContext.SESSION_TRANSACTED);
                JMSContext sender = node.factory().createContext()) {
            Queue q = tx.createQueue("tx-consume");
            send(q, "u1", "u2");
            JMSConsumer c = tx.createConsumer(q);
            assertEquals(List.of("u1", "u2"), Wait.receiveTexts(c, 2));
            // sent outside the transaction, so that it commits nothing the rollback is to give back
            String sentinel = Wait.sendSentinel(sender, q);
            Wait.assertNextIsSentinel(c, sentinel, "each came once");
            tx.acknowledge(); // no effect in a transaction: rollback still gives them back
            tx.rollback();
            List<String> again = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Message m = c.receive(Wait.ARRIVES);
                assertNotNull(m, "rolled back message " + (i + 1) + " of 3; before it: " + again);
                again.add(m.getBody(String.class));
                assertTrue(m.getJMSRedelivered(), again.get(i) + " is redelivered");
            }
            assertEquals(sorted(List.of("u1", "u2", sentinel)), sorted(again), "the rollback gives back all three");
            Wait.assertNothingAhead(sender, q, c, "the rollback gives back each once");
            tx.commit();
        }
        assertLeftOn("tx-consume");
    }

    @Test
    void closingATransactedContextRollsBackItsTransaction() throws Exception {
        try (JMSContext tx = node.factory().createContext(JMSContext.SESSION_TRANSACTED)) {
            Queue q = tx.createQueue("tx-close");
            send(q, "in-flight");
            assertEquals("in-flight", tx.createConsumer(q).receiveBody(String.class, Wait.ARRIVES));
            tx.createProducer().send(q, "never committed");
        }
        assertLeftOn("tx-close", "in-flight");
    }

    @Test
    void commitAndRollbackNeedATransactionAndRecoverNeedsNone() {
        for (int mode :
                new int[] {JMSContext.AUTO_ACKNOWLEDGE, JMSContext.CLIENT_ACKNOWLEDGE, JMSContext.DUPS_OK_ACKNOWLEDGE
                }) {
            try (JMSContext ctx = node.factory().createContext(mode)) {
                assertThrows(IllegalStateRuntimeException.class, ctx::commit, "commit in mode " + mode);
                assertThrows(IllegalStateRuntimeException.class, ctx::rollback, "rollback in mode " + mode);
                ctx.recover();
            }
        }
        try (JMSContext tx = node.factory().createContext(JMSContext.SESSION_TRANSACTED)) {
            assertThrows(IllegalStateRuntimeException.class, tx::recover);
            tx.commit();
            tx.rollback();
        }
    }
}
