package org.partita.broker.it.cluster;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.jms.Connection;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.jms.api.PartitaAdmin;

/**
 * Unkeyed messages sent on a node that hosts none of a clustered queue are spread message by
 * message over the queue's partitions, not over its nodes: with 8 partitions on 3 nodes (3, 3 and
 * 2 partitions), each partition gets the same share.
 */
@Tag("slow")
@Timeout(120)
class ClusterSpreadTest {
    private static final int PARTITIONS = 8;
    private static final int PER_PARTITION = 25;

    @TempDir
    Path tmp;

    @Test
    void unkeyedSendsOnANodeHostingNoneAreSpreadEvenlyOverThePartitions() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 4).startAll();
                Connection conn = c.factory(3).createConnection()) {
            Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(
                    s.createQueue("spread?partitions=" + PARTITIONS + "&hosts=node1,node2,node3&replicas=1"));
            for (int i = 0; i < PARTITIONS * PER_PARTITION; i++) {
                p.send(s.createTextMessage("m" + i));
            }
            try (PartitaAdmin admin = PartitaAdmin.connect(c.factory(3))) {
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                    Map<String, String> status = admin.clusterStatus();
                    Map<Integer, Integer> depths = new TreeMap<>();
                    Map<Integer, Integer> expected = new TreeMap<>();
                    for (int partition = 0; partition < PARTITIONS; partition++) {
                        String depth = status.get("queue.spread.partition." + partition + ".depth");
                        depths.put(partition, depth == null ? -1 : Integer.parseInt(depth));
                        expected.put(partition, PER_PARTITION);
                    }
                    assertEquals(expected, depths, status.toString());
                });
            }
        }
    }
}
