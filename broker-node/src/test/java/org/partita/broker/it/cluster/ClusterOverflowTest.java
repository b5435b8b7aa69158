package org.partita.broker.it.cluster;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.Session;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.core.BrokerQueue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Unkeyed messages of a clustered queue stay on the node they were sent to while it has room, then
 * go to another hosting node with room; when every hosting node is full, the send fails with
 * {@link ResourceAllocationException} and the refused message is nowhere.
 */
@Tag("slow")
@Timeout(120)
class ClusterOverflowTest {
    private static final int MAX_DEPTH = 5;
    @TempDir
    Path tmp;

    @Test
    void unkeyedSendsOverflowToAnotherNodeThenFailWhenEveryNodeIsFull() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 2).startAll()) {
            // overflow goes only to a node this one is linked to
            await().atMost(Duration.ofSeconds(20)).until(() -> c.node(0).cluster().status().format().contains("member.node2=up"));
            String queue = "jobs?partitions=2&hosts=*&maxDepthMessages=" + MAX_DEPTH;
            Set<String> confirmed = new HashSet<>();
            String refused = null;
            try (Connection conn = c.factory(0).createConnection()) {
                Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer p = s.createProducer(s.createQueue(queue));
                p.setDeliveryMode(DeliveryMode.PERSISTENT);
                // Node1's own room, then the overflow to node2, which takes it once it knows the queue.
                for (int i = 0; i < MAX_DEPTH * 2; i++) {
                    Message m = s.createTextMessage("job " + i);
                    p.send(m);
                    confirmed.add(m.getJMSMessageID());
                }
                await().atMost(Duration.ofSeconds(20)).until(() -> depthOn(c, 1) >= MAX_DEPTH);
                // Both full now: node1 learns it from node2's first refusal of a forwarded message
                // (what is on its way meanwhile waits in the forward log); bounded in count and time.
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                for (int i = MAX_DEPTH * 2; i < 5_000 && refused == null && System.nanoTime() < deadline; i++) {
                    Message m = s.createTextMessage("job " + i);
                    try {
                        p.send(m);
                        confirmed.add(m.getJMSMessageID());
                    } catch (ResourceAllocationException full) {
                        assertTrue(full.getMessage().contains("full"), full.getMessage());
                        refused = m.getJMSMessageID();
                    }
                }
            }
            assertNotNull(refused, "a send fails once both nodes are full");
            assertEquals(MAX_DEPTH, depthOn(c, 0), "node1 filled its own partitions first");
            assertEquals(MAX_DEPTH, depthOn(c, 1), "the overflow went to node2");

            Set<String> received = new HashSet<>();
            try (Connection conn = c.factory(1).createConnection()) {
                Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageConsumer consumer = s.createConsumer(s.createQueue("jobs"));
                conn.start();
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (received.size() < confirmed.size() && System.nanoTime() < deadline) {
                    Message m = consumer.receive(1000);
                    if (m != null) {
                        received.add(m.getJMSMessageID());
                    }
                }
                assertNull(consumer.receive(1000), "nothing beyond what was confirmed");
            }
            assertEquals(confirmed, received, "every confirmed message arrives, once");
            assertTrue(!received.contains(refused), "the refused message was not stored");
        }
    }

    /** Messages the queue holds on one node (0 while that node has not applied its definition yet). */
    private static int depthOn(EmbeddedCluster c, int node) {
        BrokerQueue q = c.node(node).broker().existingQueue("jobs");
        return q == null ? 0 : q.depth();
    }
}
