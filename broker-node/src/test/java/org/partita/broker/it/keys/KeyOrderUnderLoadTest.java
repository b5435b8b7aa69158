package org.partita.broker.it.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.broker.it.NodeExtension;

/**
 * Producers and consumers created together, a short burst at full speed, default queue options: each
 * key stays in order and every consumer works from the first second, on a plain queue (keys carried
 * by {@code JMSXGroupID}, as ActiveMQ and Artemis users send them) and on a partitioned one.
 */
@Tag("slow")
@Timeout(120)
class KeyOrderUnderLoadTest {
    /** Issue 10's load: 10,000 persistent 1 KiB messages (both tests together took 22 s on the shared 2-core machine). */
    private static final int MESSAGES = 10_000;

    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    @Test
    void aPlainQueueKeepsEveryKeyInOrderAndUsesEveryConsumerAtOnce() throws Exception {
        check(new KeyedBurst(node.factory(), "burst", 4, 8, MESSAGES).run(60_000));
    }

    @Test
    void aPartitionedQueueGivesEveryConsumerPartitionsAtOnce() throws Exception {
        check(new KeyedBurst(node.factory(), "burst?partitions=8", 4, 8, MESSAGES).run(60_000));
    }

    private static void check(KeyedBurst.Outcome o) {
        System.out.println("burst: " + o.distinctReceived() + " messages in " + o.elapsedMillis()
                + " ms, first arrival per consumer (ms): " + Arrays.toString(o.firstArrivalMillis()) + ", violations "
                + o.violations());
        assertEquals(MESSAGES, o.distinctReceived(), "every message arrives");
        assertEquals(
                0, o.violations(), "no message of a key arrives for the first time after a later one of the same key");
        assertEquals(0, o.duplicatesNotFlagged(), "a message seen twice is flagged redelivered");
        assertTrue(
                o.lateConsumers(1_000).isEmpty(),
                "consumers without a message in the first second: " + o.lateConsumers(1_000) + " (first arrivals "
                        + Arrays.toString(o.firstArrivalMillis()) + ")");
    }
}
