package org.partita.broker.it.partition;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.broker.it.NodeExtension;
import org.partita.jms.api.PartitaConsumer;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.protocol.PartitionKeys;

/**
 * A partition moving away from a consumer that has a deep prefetch buffer: the client gives back
 * what its application has not taken, at once and unflagged, so the handoff waits only for what
 * the application holds; and nothing of the partition reaches that application after it moved.
 */
@Tag("slow")
@Timeout(60)
class PartitionHandoffTest {
    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    private static String keyOf(int partition, int partitions, int n) {
        int found = 0;
        for (int i = 0; ; i++) {
            if (PartitionKeys.partition("key" + i, partitions) == partition && found++ == n) {
                return "key" + i;
            }
        }
    }

    private static void fill(Session s, String queue, int perPartition) throws Exception {
        MessageProducer p = s.createProducer(s.createQueue(queue));
        for (int i = 0; i < perPartition; i++) {
            for (int partition = 0; partition < 2; partition++) {
                TextMessage m = s.createTextMessage("p" + partition + "-" + i);
                m.setStringProperty("JMSXGroupID", keyOf(partition, 2, 0));
                m.setIntProperty("partition", partition);
                m.setIntProperty("seq", i);
                p.send(m);
            }
        }
    }

    @Test
    void aSlowOwnerWithAFullBufferGivesBackWhatItHasNotTakenAtOnce() throws Exception {
        String queue = "handoff?partitions=2&rebalanceDelay=200&maxHandoffTime=20000";
        PartitaConnectionFactory deepPrefetch =
                new PartitaConnectionFactory(node.node().url() + "?prefetch=1000");
        try (Connection ca = deepPrefetch.createConnection();
                Connection cb = node.factory().createConnection()) {
            Session sa = ca.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageConsumer a = sa.createConsumer(sa.createQueue(queue));
            ca.start();
            fill(sa, queue, 200);
            // A's application ends up holding one message of partition 0, unacknowledged; the sticky
            // spread keeps partition 0 with A and moves partition 1, whose messages fill A's buffer.
            int takenOfPartition1 = 0;
            Message held = a.receive(5000);
            while (held.getIntProperty("partition") != 0) {
                held.acknowledge();
                takenOfPartition1++;
                held = a.receive(5000);
            }
            Thread.sleep(300); // past the settle window, so the next consumer is a scale-up, not a start
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> ((PartitaConsumer) a).getOwnedPartitions().size() == 2);

            Session sb = cb.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageConsumer b = sb.createConsumer(sb.createQueue(queue));
            cb.start();
            long joined = System.nanoTime();
            // Partition 1's messages were in A's buffer; they reach B long before the 20 s handoff limit.
            Message first = b.receive(10_000);
            assertNotNull(first, "the moved partition reaches the new consumer");
            long waitedMillis = (System.nanoTime() - joined) / 1_000_000;
            assertTrue(waitedMillis < 10_000, "waited " + waitedMillis + " ms");
            assertEquals(1, first.getIntProperty("partition"));
            assertEquals(takenOfPartition1, first.getIntProperty("seq"), "the partition continues in order");
            assertFalse(first.getJMSRedelivered(), "a message only prefetched by A comes back unflagged");
            assertEquals(1, first.getIntProperty("JMSXDeliveryCount"));
            int next = takenOfPartition1 + 1;
            for (Message m; (m = b.receive(1000)) != null; ) {
                assertEquals(1, m.getIntProperty("partition"));
                assertEquals(next, m.getIntProperty("seq"));
                next++;
                m.acknowledge();
            }
            assertEquals(200, next, "B has the rest of the partition");
            held.acknowledge();
        }
    }

    @Test
    void nothingOfAMovedPartitionReachesTheOldOwnersApplicationEvenPastTheHandoffLimit() throws Exception {
        String queue = "late?partitions=2&rebalanceDelay=200&maxHandoffTime=500";
        try (Connection ca = node.factory().createConnection();
                Connection cb = node.factory().createConnection()) {
            Session sa = ca.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageConsumer a = sa.createConsumer(sa.createQueue(queue));
            ca.start();
            fill(sa, queue, 50);
            Message held = a.receive(5000);
            assertNotNull(held);
            Thread.sleep(300); // past the settle window (time must pass), so B's arrival is a scale-up, not a start

            Session sb = cb.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageConsumer b = sb.createConsumer(sb.createQueue(queue));
            cb.start();
            // A keeps its message past maxHandoffTime: its partition, if it moves, is taken back
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> ((PartitaConsumer) b).getOwnedPartitions().size() == 1);
            Set<Integer> bOwns = ((PartitaConsumer) b).getOwnedPartitions();
            int moved = bOwns.iterator().next();
            List<Message> atB = new ArrayList<>();
            for (Message m; (m = b.receive(1500)) != null; ) {
                atB.add(m);
                m.acknowledge();
            }
            assertEquals(
                    50 + (held.getIntProperty("partition") == moved ? 1 : 0),
                    atB.size(),
                    "B has the moved partition, and A's held message if it was of it");
            for (Message m; (m = a.receive(500)) != null; ) {
                assertTrue(
                        m.getIntProperty("partition") != moved,
                        "A's application received " + ((TextMessage) m).getText() + " of partition " + moved
                                + " after it moved to B");
                m.acknowledge();
            }
        }
    }
}
