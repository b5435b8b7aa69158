package org.partita.broker.it.redelivery;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.partita.broker.it.NodeExtension;
import org.partita.jms.client.PartitaXAConnectionFactory;
import org.partita.protocol.PartitionKeys;

/**
 * The queue options redeliveryDelay, redeliveryMultiplier and maxRedeliveryDelay: a message handed
 * back waits before it is delivered again, and so do the later messages of its key, while other keys
 * and unkeyed messages keep flowing. Times are measured from the call that hands the message back,
 * with the node's clock (the same machine's): the lower bound is exact, the upper bound generous.
 */
@Tag("slow")
class RedeliveryDelayTest {
    /** Scheduling on a busy two-core machine: how late a redelivery may come and still pass. */
    private static final long SLACK_MILLIS = 4_000;
    /** Two keys of the same partition of an 8-partition queue (docs/partitions.md, the hash's vectors). */
    private static final String FAILING_KEY = "m-120";

    private static final String OTHER_KEY = "capper-07";

    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    @Test
    void aMessageRolledBackWaitsLongerAfterEachDelivery() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(true, Session.SESSION_TRANSACTED);
            s.createProducer(s.createQueue("retried?redeliveryDelay=500&redeliveryMultiplier=2"))
                    .send(s.createTextMessage("job"));
            s.commit();
            MessageConsumer consumer = s.createConsumer(s.createQueue("retried"));
            c.start();
            Message first = consumer.receive(5_000);
            assertNotNull(first);
            assertEquals(1, first.getIntProperty("JMSXDeliveryCount"));
            long[] expected = {500, 1_000, 2_000};
            for (int i = 0; i < expected.length; i++) {
                long rolledBackAt = System.currentTimeMillis();
                s.rollback();
                Message again = consumer.receive(expected[i] + SLACK_MILLIS);
                long waited = System.currentTimeMillis() - rolledBackAt;
                assertNotNull(
                        again, "rollback " + (i + 1) + ": redelivered within " + (expected[i] + SLACK_MILLIS) + " ms");
                assertTrue(
                        waited >= expected[i],
                        "rollback " + (i + 1) + ": came back after " + waited + " ms, before its " + expected[i]
                                + " ms delay");
                assertTrue(again.getJMSRedelivered());
                assertEquals(i + 2, again.getIntProperty("JMSXDeliveryCount"));
            }
            s.commit();
        }
    }

    @Test
    void aListenerThatThrewGetsItsMessageBackAfterTheDelay() throws Exception {
        List<Long> deliveredAt = new CopyOnWriteArrayList<>();
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            s.createProducer(s.createQueue("listened?redeliveryDelay=800")).send(s.createTextMessage("job"));
            s.createConsumer(s.createQueue("listened")).setMessageListener(m -> {
                deliveredAt.add(System.currentTimeMillis());
                if (deliveredAt.size() == 1) {
                    throw new IllegalStateException("fails the first time");
                }
            });
            c.start();
            await().atMost(Duration.ofMillis(800 + 2 * SLACK_MILLIS)).until(() -> deliveredAt.size() == 2);
            long waited = deliveredAt.get(1) - deliveredAt.get(0);
            assertTrue(waited >= 800, "the listener's second call came " + waited + " ms after the first");
        }
    }

    /** An XA branch rolled back, prepared (its entries were locked) or not, hands its message back to wait too. */
    @Test
    void aMessageOfARolledBackXaBranchWaitsToo() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            s.createProducer(s.createQueue("xaRetried?redeliveryDelay=500&redeliveryMultiplier=2"))
                    .send(s.createTextMessage("job"));
        }
        PartitaXAConnectionFactory xa =
                new PartitaXAConnectionFactory(node.node().url());
        try (XAConnection c = xa.createXAConnection()) {
            XASession s = c.createXASession();
            XAResource r = s.getXAResource();
            MessageConsumer consumer = s.createConsumer(s.createQueue("xaRetried"));
            c.start();
            long[] expected = {500, 1_000};
            long rolledBackAt = 0;
            for (int i = 0; i < expected.length; i++) {
                Xid x = new BranchId(i);
                r.start(x, XAResource.TMNOFLAGS);
                Message m = consumer.receive(i == 0 ? 5_000 : SLACK_MILLIS);
                assertNotNull(m, "delivery " + (i + 1));
                if (i > 0) {
                    long waited = System.currentTimeMillis() - rolledBackAt;
                    assertTrue(waited >= expected[i - 1], "came back " + waited + " ms after the rollback");
                }
                if (i == 0) {
                    r.end(x, XAResource.TMSUCCESS);
                    assertEquals(XAResource.XA_OK, r.prepare(x));
                    rolledBackAt = System.currentTimeMillis();
                } else {
                    rolledBackAt = System.currentTimeMillis(); // a failed branch hands its messages back at its end
                    r.end(x, XAResource.TMFAIL);
                }
                r.rollback(x);
            }
            Xid last = new BranchId(9);
            r.start(last, XAResource.TMNOFLAGS);
            Message m = consumer.receive(expected[1] + SLACK_MILLIS);
            assertNotNull(m, "the third delivery");
            long waited = System.currentTimeMillis() - rolledBackAt;
            assertTrue(waited >= expected[1], "came back " + waited + " ms after the unprepared branch's rollback");
            assertEquals(3, m.getIntProperty("JMSXDeliveryCount"));
            r.end(last, XAResource.TMSUCCESS);
            r.commit(last, true);
        }
    }

    /** A branch id as a transaction manager makes one. */
    private record BranchId(int n) implements Xid {
        @Override
        public int getFormatId() {
            return 0x5254;
        }

        @Override
        public byte[] getGlobalTransactionId() {
            return ("redelivery-" + n).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }

        @Override
        public byte[] getBranchQualifier() {
            return new byte[] {1};
        }
    }

    /**
     * A rolled-back message of one key waits out its delay; the later message of its key waits
     * behind it, while the messages of another key (of the same partition, on the partitioned
     * queue) and an unkeyed one are delivered at once.
     */
    @ParameterizedTest
    @ValueSource(strings = {"waits?partitions=8&redeliveryDelay=3000", "waitsPlain?redeliveryDelay=3000"})
    void aWaitingMessageHoldsBackItsKeyOnly(String queue) throws Exception {
        assertEquals(
                PartitionKeys.partition(FAILING_KEY, 8),
                PartitionKeys.partition(OTHER_KEY, 8),
                "keys of one partition");
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(true, Session.SESSION_TRANSACTED);
            MessageProducer p = s.createProducer(s.createQueue(queue));
            p.send(keyed(s, "a1", FAILING_KEY));
            p.send(keyed(s, "a2", FAILING_KEY));
            for (int i = 1; i <= 3; i++) {
                p.send(keyed(s, "b" + i, OTHER_KEY));
            }
            p.send(s.createTextMessage("unkeyed"));
            s.commit();
            MessageConsumer consumer = s.createConsumer(s.createQueue(queue.substring(0, queue.indexOf('?'))));
            c.start();
            assertEquals("a1", text(consumer.receive(5_000)));
            long rolledBackAt = System.currentTimeMillis();
            s.rollback();
            List<String> meanwhile = new ArrayList<>();
            while (meanwhile.size() < 4) {
                Message m = consumer.receive(SLACK_MILLIS);
                assertNotNull(m, "only " + meanwhile + " arrived while a1 waits");
                meanwhile.add(text(m));
                s.commit();
            }
            long othersDoneAt = System.currentTimeMillis();
            assertTrue(
                    meanwhile.containsAll(List.of("b1", "b2", "b3", "unkeyed")), "other key and unkeyed: " + meanwhile);
            assertTrue(
                    othersDoneAt - rolledBackAt < 3_000,
                    "the others took " + (othersDoneAt - rolledBackAt) + " ms: they waited for a1's delay");
            Message a1 = consumer.receive(3_000 + SLACK_MILLIS);
            assertEquals("a1", text(a1), "a1 comes back before its key's a2");
            assertTrue(System.currentTimeMillis() - rolledBackAt >= 3_000);
            assertTrue(a1.getJMSRedelivered());
            assertEquals("a2", text(consumer.receive(5_000)));
            s.commit();
        }
    }

    @Test
    void aWaitingMessageMovesWithItsPartitionAndStillWaits() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(true, Session.SESSION_TRANSACTED);
            MessageProducer p = s.createProducer(s.createQueue("moving?partitions=2&redeliveryDelay=2000"));
            p.send(keyed(s, "a1", FAILING_KEY));
            p.send(keyed(s, "a2", FAILING_KEY));
            s.commit();
        }
        long rolledBackAt;
        try (Connection first = node.factory().createConnection()) {
            Session s = first.createSession(true, Session.SESSION_TRANSACTED);
            MessageConsumer consumer = s.createConsumer(s.createQueue("moving"));
            first.start();
            assertEquals("a1", text(consumer.receive(5_000)));
            rolledBackAt = System.currentTimeMillis();
            s.rollback();
        } // its owner gone, the partition moves at once: nothing of it is in flight
        try (Connection second = node.factory().createConnection()) {
            Session s = second.createSession(true, Session.SESSION_TRANSACTED);
            MessageConsumer consumer = s.createConsumer(s.createQueue("moving"));
            second.start();
            Message a1 = consumer.receive(2_000 + SLACK_MILLIS);
            assertEquals("a1", text(a1), "the new owner gets a1 first");
            long waited = System.currentTimeMillis() - rolledBackAt;
            assertTrue(waited >= 2_000, "a1 came back " + waited + " ms after the rollback");
            assertEquals(2, a1.getIntProperty("JMSXDeliveryCount"));
            assertEquals("a2", text(consumer.receive(5_000)));
            s.commit();
        }
    }

    private static Message keyed(Session s, String text, String key) throws Exception {
        TextMessage m = s.createTextMessage(text);
        m.setStringProperty("JMSXGroupID", key);
        return m;
    }

    private static String text(Message m) throws Exception {
        assertNotNull(m);
        return ((TextMessage) m).getText();
    }
}
