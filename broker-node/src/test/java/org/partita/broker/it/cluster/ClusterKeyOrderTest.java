package org.partita.broker.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.it.keys.KeyedBurst;

/**
 * The keyed burst users run, on a three-node cluster: producers on every node, eight consumers created
 * together on the three nodes (2, 3 and 3 while the nodes host 3, 3 and 2 of the 8 partitions, so a
 * partition moves to another node's spare consumer while the load runs): every key stays in order,
 * every message arrives, every consumer works from the first seconds.
 */
@Tag("slow")
@Timeout(180)
class ClusterKeyOrderTest {
    private static final int MESSAGES = 6_000;
    private static final int[] CONSUMER_NODE = {0, 0, 1, 1, 1, 2, 2, 2};

    @TempDir
    Path tmp;

    @Test
    void keysStayInOrderWhileConsumersOnThreeNodesStartTogetherWithTheLoad() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3).startAll()) {
            KeyedBurst.Outcome o = new KeyedBurst(
                            i -> c.factory(CONSUMER_NODE[i]),
                            i -> c.factory(i % 3),
                            "keys?partitions=8&hosts=*",
                            3,
                            CONSUMER_NODE.length,
                            MESSAGES)
                    .run(120_000);
            System.out.println("cluster burst: " + o.distinctReceived() + " messages in " + o.elapsedMillis()
                    + " ms, first arrival per consumer (ms): " + Arrays.toString(o.firstArrivalMillis())
                    + ", violations "
                    + o.violations());
            assertEquals(MESSAGES, o.distinctReceived(), "every message arrives");
            assertEquals(
                    0,
                    o.violations(),
                    "no message of a key arrives for the first time after a later one of the same key");
            assertEquals(0, o.duplicatesNotFlagged(), "a message seen twice is flagged redelivered");
            assertTrue(
                    o.lateConsumers(5_000).isEmpty(),
                    "consumers without a message in the first 5 s: " + o.lateConsumers(5_000) + " (first arrivals "
                            + Arrays.toString(o.firstArrivalMillis()) + ")");
        }
    }
}
