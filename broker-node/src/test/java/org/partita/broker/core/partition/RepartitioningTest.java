package org.partita.broker.core.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.core.BrokerFixture;
import org.partita.broker.core.dispatch.EngineFixture;
import org.partita.broker.core.dispatch.SharedQueueEngine;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.core.queue.QueueEntry;

/**
 * A change of a live queue's partition count: a key's messages in the new layout wait until the
 * old layout holds none of that key, so no key's order breaks; the bookkeeping alone, then a queue
 * over a real store changed while a consumer holds a message.
 */
class RepartitioningTest {
    private static final int NEW_PARTITIONS = 4;
    private final EngineFixture f = new EngineFixture();

    @TempDir
    Path tmp;

    /** A key whose messages land in a new partition other than {@code not}'s. */
    private String keyOutside(int not) {
        for (int i = 0; ; i++) {
            String key = "key" + i;
            if (f.entry("probe", key).message().partition(NEW_PARTITIONS) != not) {
                return key;
            }
        }
    }

    private static int newPartition(QueueEntry e) {
        return e.message().partition(NEW_PARTITIONS);
    }

    @Test
    void aNewPartitionIsHeldWhileTheOldLayoutHoldsAMessageOfItsKeys() {
        QueueEntry k1 = f.entry("k1", "k");
        QueueEntry k2 = f.entry("k2", "k");
        int pk = newPartition(k1);
        QueueEntry j = f.entry("j", keyOutside(pk));
        int pj = newPartition(j);
        Repartitioning r = new Repartitioning(new SharedQueueEngine(f), NEW_PARTITIONS, List.of(k1, k2, j));

        assertTrue(r.held(pk));
        assertTrue(r.held(pj));
        assertTrue(r.owns(k1), "an old entry belongs to the old layout until it leaves");
        r.left(j);
        assertFalse(r.held(pj), "j's partition is free once j left");
        assertTrue(r.held(pk));
        r.left(k1);
        assertTrue(r.held(pk), "k2 still holds k's partition");
        r.left(k2);
        assertFalse(r.held(pk));
        assertFalse(r.holdsAnything());
        assertTrue(r.done());
        assertFalse(r.owns(k1));
    }

    @Test
    void unkeyedMessagesHoldNoPartitionButMustStillDrain() {
        QueueEntry plain = f.entry("plain", null);
        Repartitioning r = new Repartitioning(new SharedQueueEngine(f), NEW_PARTITIONS, List.of(plain));
        assertFalse(r.holdsAnything());
        assertFalse(r.done(), "the old layout still delivers it");
        r.left(plain);
        assertTrue(r.done());
    }

    @Test
    void anEntryThatLeavesTwiceOrWasNeverOldChangesNothing() {
        QueueEntry k1 = f.entry("k1", "k");
        QueueEntry k2 = f.entry("k2", "k");
        Repartitioning r = new Repartitioning(new SharedQueueEngine(f), NEW_PARTITIONS, List.of(k1, k2));
        r.left(k1);
        r.left(k1);
        r.left(f.entry("k3", "k"));
        assertTrue(r.held(newPartition(k1)), "k2 is still there: k's partition stays held");
    }

    @Test
    void aKeysNewMessagesWaitForItsOldMessageInFlightOthersDoNot() {
        try (BrokerFixture node = new BrokerFixture(tmp.resolve("node"))) {
            BrokerQueue q = node.broker().queue("orders");
            BrokerFixture.Receiver r = node.attach(q, "r", 10);
            node.send(q, "k1", Map.of("JMSXGroupID", "k"));
            QueueEntry k1 = r.next();

            node.broker().updateQueue("orders", "partitions=" + NEW_PARTITIONS);
            String other = keyOutside(newPartition(k1));
            node.send(q, "k2", Map.of("JMSXGroupID", "k"));
            node.send(q, "o1", Map.of("JMSXGroupID", other));
            List<QueueEntry> now = r.pending();
            assertEquals(
                    List.of("o1"),
                    now.stream().map(e -> BrokerFixture.text(e.message())).toList(),
                    "k2 waits for k1, which the old layout delivered; another key goes on");

            r.ack(k1);
            assertEquals("k2", BrokerFixture.text(r.next().message()), "k's old message is gone: k2 follows it");
            assertFalse(q.repartitioning(), "the old layout has drained");
        }
    }
}
