package org.partita.broker.core.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.core.BrokerFixture;
import org.partita.broker.core.dispatch.ConsumerRef;
import org.partita.broker.core.dispatch.DeliverySink;

/**
 * A queue over a real store, driven as the network layer drives it: the order of deliveries, what
 * a recover, a stopped consumer's drain and a restart give back, and with which delivery count (a
 * count above 1 reaches the client as JMSRedelivered).
 */
class BrokerQueueTest {
    @TempDir
    Path tmp;

    private BrokerFixture node;

    @BeforeEach
    void start() {
        node = new BrokerFixture(tmp.resolve("node"));
    }

    @AfterEach
    void stop() {
        node.close();
    }

    private BrokerQueue queue(String name) {
        return node.broker().queue(name);
    }

    private static String text(QueueEntry e) {
        return BrokerFixture.text(e.message());
    }

    private static List<String> texts(List<QueueEntry> entries) {
        return entries.stream().map(BrokerQueueTest::text).toList();
    }

    private static List<Integer> counts(List<QueueEntry> entries) {
        return entries.stream().map(QueueEntry::deliveryCount).toList();
    }

    @Test
    void aShortQueueDispatchesOnTheCallersThreadAndALongOneOnItsExecutor() throws Exception {
        // Not on the store's writer, enqueueStored is reached by the sender's network thread when the
        // write completed before it attached: with few messages waiting and the queue's work idle,
        // that thread dispatches (no hand-off to a pool thread that may wait for a core); behind a
        // backlog the queue's executor does. Delivered, unacknowledged messages are no backlog.
        BrokerQueue q = queue("orders");
        Thread caller = Thread.currentThread();
        List<Thread> deliveredOn = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        ConsumerRef probes = new ConsumerRef(
                "records its thread",
                new DeliverySink() {
                    @Override
                    public void deliver(ConsumerRef consumer, QueueEntry entry, int partition) {
                        deliveredOn.add(Thread.currentThread());
                    }

                    @Override
                    public void partitionsChanged(ConsumerRef consumer, int[] owned) {}
                },
                org.partita.protocol.selector.Selector.parse("probe = TRUE"),
                1_000,
                0);
        BrokerFixture.await(q.attach(probes));
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(q::workIdle);

        int held = BrokerQueue.IN_PLACE_DEPTH + 8; // delivered and never acknowledged
        for (int i = 0; i < held; i++) {
            q.enqueueStored(storedMessage(q, "probe-" + i, true), 0);
        }
        assertEquals(held, deliveredOn.size(), "each was dispatched before enqueueStored returned");
        assertTrue(deliveredOn.stream().allMatch(t -> t == caller), "all on the caller's thread: " + deliveredOn);

        for (int i = 0; i < BrokerQueue.IN_PLACE_DEPTH + 8; i++) { // wait: the probe consumer does not take them
            q.enqueueStored(storedMessage(q, "filler-" + i, false), 0);
        }
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(q::workIdle);
        q.enqueueStored(storedMessage(q, "probe-behind-a-backlog", true), 0);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> deliveredOn.size() == held + 1);
        assertTrue(deliveredOn.get(held) != caller, "behind a backlog the queue's executor dispatched it");
    }

    /** A persistent message as the store's writer hands it to a queue: counted in and retained. */
    private MessageRef storedMessage(BrokerQueue q, String id, boolean probe) {
        org.partita.protocol.WireMessage wire = new org.partita.protocol.WireMessage(
                "ID:" + id,
                1L,
                null,
                null,
                "q:orders",
                null,
                org.partita.protocol.WireMessage.PERSISTENT,
                4,
                0,
                0,
                Map.of("probe", probe),
                org.partita.protocol.WireMessage.BODY_TEXT,
                new byte[0]);
        MessageRef m = node.broker().newMessage(org.partita.protocol.MessageCodec.encode(wire), wire, null);
        assertTrue(q.reserve(m));
        m.retain(1);
        return m;
    }

    @Test
    void higherPriorityFirstThenArrivalOrder() {
        BrokerQueue q = queue("orders");
        node.send(q, "p4-a", Map.of());
        node.sendWithPriority(q, "p9", 9);
        node.send(q, "p4-b", Map.of());
        node.sendWithPriority(q, "p1", 1);
        BrokerFixture.Receiver r = node.attach(q, "r", 10);
        assertEquals(List.of("p9", "p4-a", "p4-b", "p1"), texts(r.next(4)));
    }

    @Test
    void consumersTakeTurnsAndNoneGetsMoreThanItsCredit() {
        BrokerQueue q = queue("orders");
        BrokerFixture.Receiver a = node.attach(q, "a", 2);
        BrokerFixture.Receiver b = node.attach(q, "b", 10);
        for (int i = 0; i < 6; i++) {
            node.send(q, "m" + i, Map.of());
        }
        List<QueueEntry> toA = a.pending();
        List<QueueEntry> toB = b.pending();
        assertEquals(2, toA.size(), "a asked for two");
        assertEquals(4, toB.size());
        assertEquals(List.of("m0", "m2"), texts(toA), "turns while both have credit");
        assertEquals(List.of("m1", "m3", "m4", "m5"), texts(toB));
    }

    @Test
    void recoverHandsBackFlaggedInTheOriginalOrder() {
        BrokerQueue q = queue("orders");
        for (int i = 0; i < 3; i++) {
            node.send(q, "m" + i, Map.of());
        }
        BrokerFixture.Receiver r = node.attach(q, "r", 10);
        List<QueueEntry> first = r.next(3);
        assertEquals(List.of(1, 1, 1), counts(first));
        // the session recovers: the application saw all three
        q.releaseAll(first.stream()
                .map(e -> new BrokerQueue.Returned(e, r.ref, true))
                .toList());
        q.credit(r.ref, 3);
        List<QueueEntry> again = r.next(3);
        assertEquals(List.of("m0", "m1", "m2"), texts(again));
        assertEquals(List.of(2, 2, 2), counts(again), "seen before: redelivered");
    }

    @Test
    void aStoppedConsumersDrainGivesItsPrefetchBackUnflagged() {
        BrokerQueue q = queue("orders");
        BrokerFixture.Receiver r = node.attach(q, "r", 5);
        for (int i = 0; i < 3; i++) {
            node.send(q, "m" + i, Map.of());
        }
        List<QueueEntry> prefetched = r.next(3);
        BrokerFixture.await(q.drain(r.ref)); // the connection stops: its credit is taken back
        node.send(q, "m3", Map.of());
        assertEquals(List.of(), r.pending(), "nothing more reaches a drained consumer");
        // the client never handed them to the application: they go back as never delivered
        q.releaseAll(prefetched.stream()
                .map(e -> new BrokerQueue.Returned(e, r.ref, false))
                .toList());
        BrokerFixture.Receiver other = node.attach(q, "other", 10);
        List<QueueEntry> taken = other.next(4);
        assertEquals(List.of("m0", "m1", "m2", "m3"), texts(taken), "back at their old places");
        assertEquals(List.of(1, 1, 1, 1), counts(taken), "not flagged redelivered");
        assertEquals(List.of(), r.pending());
    }

    @Test
    void deliveriesOfPartitionsServedElsewhereNowAreNotPutBackWhenHandedBack() {
        // A replica set's leadership moved on: its new leader redelivers, flagged, what this node had
        // delivered; a consumer handing such a message back later (prefetched only, so unflagged)
        // must not give this node a second copy, delivered again should it lead the set once more.
        BrokerQueue q = node.broker().createQueue("orders", QueueOptions.DEFAULTS.with("partitions", "2"));
        BrokerFixture.Receiver r = node.attach(q, "r", 10);
        for (int i = 0; i < 4; i++) {
            node.send(q, "m" + i, Map.of("JMSXGroupID", "k" + i));
        }
        List<QueueEntry> prefetched = r.next(4);
        List<String> ofPartition1 = prefetched.stream()
                .filter(e -> e.partition() == 1)
                .map(BrokerQueueTest::text)
                .toList();
        assertTrue(ofPartition1.size() > 0 && ofPartition1.size() < 4, "keys in both partitions: " + ofPartition1);
        q.hostingChanged(p -> p == 0);
        q.releaseAll(prefetched.stream()
                .map(e -> new BrokerQueue.Returned(e, r.ref, false))
                .toList());
        BrokerFixture.Receiver other = node.attach(q, "other", 10);
        assertEquals(ofPartition1, texts(other.next(ofPartition1.size())), "partition 1 is still served here");
        assertEquals(List.of(), other.pending(), "nothing of partition 0 came back");
        assertEquals(ofPartition1.size(), q.depth());
    }

    @Test
    void aRestartRestoresWhatWasNotAcknowledgedWithItsDeliveryCount() {
        BrokerQueue q = queue("orders");
        for (int i = 0; i < 3; i++) {
            node.send(q, "m" + i, Map.of());
        }
        BrokerFixture.Receiver r = node.attach(q, "r", 2);
        List<QueueEntry> got = r.next(2);
        r.ack(got.get(0));
        q.release(got.get(1), r.ref, true); // seen and rolled back: its count is stored
        node.restart(q);

        BrokerQueue back = node.broker().existingQueue("orders");
        assertEquals(2, back.depth());
        assertEquals(List.of("m1", "m2"), BrokerFixture.browse(back), "m0 was acknowledged");
        BrokerFixture.Receiver after = node.attach(back, "after", 10);
        List<QueueEntry> restored = after.next(2);
        assertEquals(List.of("m1", "m2"), texts(restored));
        assertEquals(List.of(2, 1), counts(restored), "m1 comes back redelivered, m2 as new after a clean stop");
    }

    @Test
    void aMessageSeenTooOftenMovesToTheDeadLetterQueue() {
        BrokerQueue q = node.broker().createQueue("orders", QueueOptions.DEFAULTS.with("maxDeliveryAttempts", "2"));
        node.send(q, "poison", Map.of());
        node.send(q, "fine", Map.of());
        BrokerFixture.Receiver r = node.attach(q, "r", 1);
        for (int attempt = 1; attempt <= 2; attempt++) {
            QueueEntry e = r.next();
            assertEquals("poison", text(e));
            assertEquals(attempt, e.deliveryCount());
            q.release(e, r.ref, true);
            q.credit(r.ref, 1);
        }
        assertEquals("fine", text(r.next()), "after two attempts poison left the queue");
        BrokerQueue dlq = node.broker().existingQueue("DLQ");
        // the move lands once the store has it: wait for it, bounded
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> BrokerFixture.browse(dlq), List.of("poison")::equals);
    }

    @Test
    void aFullQueueRefusesTheSendAndStoresNothing() {
        BrokerQueue q = node.broker().createQueue("small", QueueOptions.DEFAULTS.with("maxDepthMessages", "2"));
        node.send(q, "m0", Map.of());
        node.send(q, "m1", Map.of());
        assertThrows(QueueFullException.class, () -> node.send(q, "m2", Map.of()));
        assertEquals(2, q.depth());
        node.restart(q);
        assertEquals(List.of("m0", "m1"), BrokerFixture.browse(node.broker().existingQueue("small")));
    }

    @Test
    void aDelayedMessageArrivesAtItsDeliveryTimeWithoutAnotherSend() {
        BrokerQueue q = queue("orders");
        BrokerFixture.Receiver r = node.attach(q, "r", 10);
        long due = System.currentTimeMillis() + 300;
        node.sendTimed(q, "later", 0, due);
        node.send(q, "now", Map.of());
        List<QueueEntry> both = r.next(2); // nothing is sent after: the queue's own timer delivers "later"
        QueueEntry later =
                both.stream().filter(e -> text(e).equals("later")).findFirst().orElseThrow();
        assertTrue(r.arrivedAt(later) >= due, "not before its delivery time");
        QueueEntry now =
                both.stream().filter(e -> text(e).equals("now")).findFirst().orElseThrow();
        assertTrue(
                r.arrivedAt(now) < due || r.arrivedAt(now) <= r.arrivedAt(later),
                "a message behind a delayed one is not held back by it");
    }

    @Test
    void anExpiredMessageGoesToTheExpiryQueueInsteadOfAConsumer() {
        BrokerQueue q = node.broker().createQueue("orders", QueueOptions.DEFAULTS.with("expiryQueue", "EXPIRED"));
        node.sendTimed(q, "stale", System.currentTimeMillis() - 1, 0);
        node.send(q, "fresh", Map.of());
        BrokerFixture.Receiver r = node.attach(q, "r", 10);
        assertEquals("fresh", text(r.next()));
        BrokerQueue expired = node.broker().existingQueue("EXPIRED");
        assertNotNull(expired, "stale was moved to the expiry queue, which was made for it");
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> BrokerFixture.browse(expired), List.of("stale")::equals);
        assertEquals(List.of(), r.pending());
    }
}
