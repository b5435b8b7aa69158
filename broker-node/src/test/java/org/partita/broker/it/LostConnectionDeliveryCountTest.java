package org.partita.broker.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * A connection lost (its socket closed under it, as when its process is killed) while its many
 * sessions hold messages and have room for more, as a message-driven bean's activation does:
 * every message comes back counted as delivered once, not once more for each session of that
 * connection the node handed it to while it was ending them one by one (which spent messages'
 * delivery attempts and sent them to the dead-letter queue, seen with WildFly killed).
 */
@Tag("slow")
class LostConnectionDeliveryCountTest {
    private static final int MESSAGES = 2_000;
    private static final int SESSIONS = 100;

    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    /** Three times: without the rule, about half the single runs found a message counted twice. */
    @RepeatedTest(3)
    void eachMessageALostConnectionHeldComesBackCountedOnce() throws Exception {
        sendAll();
        try (FreezableProxy proxy = new FreezableProxy(node.node().port());
                Connection lost = new PartitaConnectionFactory(proxy.url()).createConnection()) {
            prefetchInEverySession(lost);
            proxy.close();
            awaitAllBack();
        }
        assertEquals(
                Map.of(2, MESSAGES),
                countsOnceReceivedAgain(),
                "every message delivered once before the loss and once now (messages by JMSXDeliveryCount)");
    }

    /** Closed by the application instead: what its sessions prefetched and it never saw is not a delivery. */
    @RepeatedTest(3)
    void whatAClosedConnectionsSessionsPrefetchedComesBackUncounted() throws Exception {
        sendAll();
        try (Connection closed = node.factory().createConnection()) {
            prefetchInEverySession(closed);
        }
        awaitAllBack();
        assertEquals(
                Map.of(1, MESSAGES),
                countsOnceReceivedAgain(),
                "no message counted as delivered before (messages by JMSXDeliveryCount)");
    }

    private void sendAll() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession();
            MessageProducer p = s.createProducer(s.createQueue("held"));
            for (int i = 0; i < MESSAGES; i++) {
                p.send(s.createTextMessage("m" + i));
            }
        }
    }

    /** Every session's consumer prefetches its share of the messages and keeps room for more. */
    private void prefetchInEverySession(Connection c) throws Exception {
        for (int i = 0; i < SESSIONS; i++) {
            Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            s.createConsumer(s.createQueue("held"));
        }
        c.start();
        awaitHeld("every message delivered", q -> q.depth() == 0 && q.inFlight() == MESSAGES);
    }

    private void awaitAllBack() throws Exception {
        awaitHeld("every message back", q -> q.depth() == MESSAGES && q.inFlight() == 0);
    }

    private void awaitHeld(String why, java.util.function.Predicate<org.partita.jms.api.QueueStats> holds)
            throws Exception {
        try (org.partita.jms.api.PartitaAdmin admin = org.partita.jms.api.PartitaAdmin.connect(node.factory())) {
            org.awaitility.Awaitility.await(why)
                    .atMost(java.time.Duration.ofSeconds(60))
                    .until(() -> holds.test(admin.queueStats("held")));
        }
    }

    /** How many messages come with each JMSXDeliveryCount to a consumer that takes them all. */
    private Map<Integer, Integer> countsOnceReceivedAgain() throws Exception {
        Map<Integer, Integer> messagesByCount = new TreeMap<>();
        try (Connection c = node.factory().createConnection()) {
            c.start();
            Session s = c.createSession();
            Queue held = s.createQueue("held");
            MessageConsumer again = s.createConsumer(held);
            for (int i = 0; i < MESSAGES; i++) {
                Message m = again.receive(10_000);
                assertNotNull(m, "message " + i + " of " + MESSAGES + " back");
                messagesByCount.merge(m.getIntProperty("JMSXDeliveryCount"), 1, Integer::sum);
            }
        }
        return messagesByCount;
    }
}
