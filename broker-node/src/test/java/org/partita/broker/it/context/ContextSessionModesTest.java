package org.partita.broker.it.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.TextMessage;
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

    private List<String> texts(List<Message> messages) throws Exception {
        List<String> out = new ArrayList<>();
        for (Message m : messages) {
            out.add(((TextMessage) m).getText());
        }
        return out;
    }

    private void send(Queue q, String... bodies) {
        try (JMSContext sender = node.factory().createContext()) {
            JMSProducer p = sender.createProducer();
            for (String b : bodies) {
                p.send(q, b);
            }
        }
    }

    /** What is left on the queue, received (and so removed) by a fresh auto-acknowledge context. */
    private List<String> leftOn(String queue) throws Exception {
        try (JMSContext check = node.factory().createContext()) {
            return texts(Wait.drain(check.createConsumer(check.createQueue(queue))));
        }
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
        assertEquals(List.of(), leftOn("auto"));
    }

    @Test
    void dupsOkAcknowledgesLazilyButDoesAcknowledge() throws Exception {
        try (JMSContext ctx = node.factory().createContext(JMSContext.DUPS_OK_ACKNOWLEDGE)) {
            Queue q = ctx.createQueue("dups");
            send(q, "d1", "d2", "d3");
            JMSConsumer c = ctx.createConsumer(q);
            assertEquals(List.of("d1", "d2", "d3"), texts(Wait.drain(c)));
        }
        assertEquals(List.of(), leftOn("dups"));
    }

    @Test
    void clientAcknowledgeKeepsMessagesUntilTheContextAcknowledges() throws Exception {
        try (JMSContext ctx = node.factory().createContext(JMSContext.CLIENT_ACKNOWLEDGE)) {
            Queue q = ctx.createQueue("client-unacked");
            send(q, "c1", "c2");
            JMSConsumer c = ctx.createConsumer(q);
            assertEquals(List.of("c1", "c2"), texts(Wait.drain(c)));
        } // closed without acknowledging: both come back
        List<String> back = leftOn("client-unacked");
        Collections.sort(back);
        assertEquals(List.of("c1", "c2"), back);
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
            assertEquals(2, Wait.drain(c1).size());
            assertEquals("y1", c2.receiveBody(String.class, Wait.ARRIVES));
            ctx.acknowledge();
            ctx.recover(); // nothing left unacknowledged
            Wait.assertNothingAhead(ctx, q1, c1, "x1 and x2 were acknowledged");
            Wait.assertNothingAhead(ctx, q2, c2, "y1 was acknowledged");
            ctx.acknowledge();
        }
        assertEquals(List.of(), leftOn("client-1"));
        assertEquals(List.of(), leftOn("client-2"));
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
        assertEquals(List.of("m3"), leftOn("client-message-ack"));
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
            for (Message m : Wait.drain(c)) {
                again.add(((TextMessage) m).getText());
                if ("r2".equals(((TextMessage) m).getText())) {
                    assertTrue(m.getJMSRedelivered());
                    assertEquals(2, m.getIntProperty("JMSXDeliveryCount"));
                }
            }
            Collections.sort(again);
            assertEquals(List.of("r2", "r3"), again);
            ctx.acknowledge();
        }
        assertEquals(List.of(), leftOn("recover"));
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
        assertEquals(List.of(), leftOn("client-listener"));
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
            assertEquals(List.of("t1", "t2"), texts(Wait.drain(seen)));
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
        assertEquals(List.of("kept"), leftOn("tx-discard"));
    }

    @Test
    void consumptionInATransactionIsUndoneByRollbackAndMadeFinalByCommit() throws Exception {
        try (JMSContext tx = node.factory().createContext(JMSContext.SESSION_TRANSACTED)) {
            Queue q = tx.createQueue("tx-consume");
            send(q, "u1", "u2");
            JMSConsumer c = tx.createConsumer(q);
            assertEquals(List.of("u1", "u2"), texts(Wait.drain(c)));
            tx.acknowledge(); // no effect in a transaction: rollback still gives them back
            tx.rollback();
            List<Message> again = Wait.drain(c);
            assertEquals(2, again.size());
            for (Message m : again) {
                assertTrue(m.getJMSRedelivered());
            }
            tx.commit();
        }
        assertEquals(List.of(), leftOn("tx-consume"));
    }

    @Test
    void closingATransactedContextRollsBackItsTransaction() throws Exception {
        try (JMSContext tx = node.factory().createContext(JMSContext.SESSION_TRANSACTED)) {
            Queue q = tx.createQueue("tx-close");
            send(q, "in-flight");
            assertEquals("in-flight", tx.createConsumer(q).receiveBody(String.class, Wait.ARRIVES));
            tx.createProducer().send(q, "never committed");
        }
        assertEquals(List.of("in-flight"), leftOn("tx-close"));
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
