package org.partita.broker.core.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.partita.broker.core.queue.QueueEntry;

/** Dispatch on a plain queue: round-robin, and keys with one consumer at a time. */
class SharedQueueEngineTest {
    private final EngineFixture f = new EngineFixture();
    private final SharedQueueEngine engine = new SharedQueueEngine(f);
    private ConsumerRef a;
    private ConsumerRef b;

    @BeforeEach
    void twoConsumers() {
        f.engine = engine;
        a = f.consumer("a", 10);
        b = f.consumer("b", 10);
        engine.consumerAdded(a, 0);
        engine.consumerAdded(b, 0);
    }

    @Test
    void unkeyedMessagesGoRoundRobin() {
        for (int i = 0; i < 4; i++) {
            engine.add(f.entry("m" + i, null));
        }
        engine.dispatch(0);
        assertEquals(List.of("a:m0", "b:m1", "a:m2", "b:m3"), f.deliveries);
    }

    @Test
    void aKeysMessagesGoToItsHolderUntilItHasSettledThemAll() {
        engine.add(f.entry("k1", "k"));
        engine.add(f.entry("k2", "k"));
        engine.add(f.entry("j1", "j"));
        engine.dispatch(0);
        assertEquals(List.of("a:k1", "a:k2", "b:j1"), f.deliveries, "k is a's once a has k1");
        engine.add(f.entry("k3", "k"));
        engine.dispatch(0);
        assertEquals("a:k3", f.deliveries.get(3), "a still holds k1 and k2");
        f.ackAll(engine, a, 0);
        engine.add(f.entry("y", null)); // a's turn
        engine.add(f.entry("k4", "k"));
        engine.add(f.entry("k5", "k"));
        engine.dispatch(0);
        assertEquals(
                List.of("a:y", "b:k4", "b:k5"), f.deliveries.subList(4, 7), "k is free: the next in turn takes it");
    }

    @Test
    void aHolderWithoutRoomHoldsBackOnlyItsOwnKeys() {
        ConsumerRef small = f.consumer("small", 1);
        SharedQueueEngine e = new SharedQueueEngine(f);
        f.engine = e;
        e.consumerAdded(small, 0);
        e.consumerAdded(b, 0);
        e.add(f.entry("k1", "k"));
        e.add(f.entry("k2", "k"));
        e.add(f.entry("x1", null));
        e.add(f.entry("j1", "j"));
        e.dispatch(0);
        assertEquals(List.of("small:k1", "b:x1", "b:j1"), f.deliveries, "k2 waits for the full holder of k");
        f.ackAll(e, small, 0);
        e.dispatch(0);
        assertEquals("small:k2", f.deliveries.get(3), "k freed, the next in turn takes k2");
    }

    @Test
    void aDepartedHoldersKeyWaitsForItsSessionThenGoesOn() {
        engine.add(f.entry("k1", "k"));
        engine.dispatch(0);
        assertEquals(List.of("a:k1"), f.deliveries);
        engine.consumerRemoved(a, 0);
        engine.add(f.entry("k2", "k"));
        engine.dispatch(0);
        assertEquals(
                1, f.deliveries.size(), "k2 may not overtake k1, which the departed consumer's session still holds");
        QueueEntry k1 = f.heldBy(a).get(0);
        f.revoke(k1); // its session hands it back
        engine.settled(k1, 0);
        engine.dispatch(0);
        assertEquals(List.of("a:k1", "b:k1", "b:k2"), f.deliveries, "k1 again first, then k2, to the consumer left");
        assertEquals(2, k1.deliveryCount());
    }

    @Test
    void aHigherPriorityConsumerTakesAKeyOnceItsHolderSettled() {
        engine.add(f.entry("k1", "k"));
        engine.dispatch(0);
        ConsumerRef high = f.consumer("high", 10, 5);
        engine.consumerAdded(high, 0);
        engine.add(f.entry("k2", "k"));
        engine.add(f.entry("x", null));
        engine.dispatch(0);
        assertEquals(List.of("a:k1", "high:x"), f.deliveries, "a is outranked: k waits instead of going to it");
        f.ackAll(engine, a, 0);
        engine.dispatch(0);
        assertTrue(f.deliveries.contains("high:k2"));
    }

    @Test
    void theHighestPriorityFollowsConsumersThatChangeOrLeave() {
        ConsumerRef high = f.consumer("high", 10, 5);
        engine.consumerAdded(high, 0);
        engine.add(f.entry("m1", null));
        engine.dispatch(0);
        b.priority(9);
        engine.consumerChanged(b, 0);
        engine.add(f.entry("m2", null));
        engine.dispatch(0);
        engine.consumerRemoved(b, 0);
        engine.add(f.entry("m3", null));
        engine.dispatch(0);
        high.priority(0);
        engine.consumerChanged(high, 0);
        engine.add(f.entry("m4", null));
        engine.add(f.entry("m5", null));
        engine.dispatch(0);
        assertEquals(
                List.of("high:m1", "b:m2", "high:m3", "a:m4", "high:m5"),
                f.deliveries,
                "raised above high, b takes over; gone, high again; lowered to a's, both in turn");
    }

    @Test
    void aMessageWaitingToBeRedeliveredHoldsBackItsKeyWhileOthersFlow() {
        engine.add(f.entry("k1", "k"));
        engine.dispatch(0);
        QueueEntry k1 = f.heldBy(a).get(0);
        k1.redeliverAt(1_000); // a rolled back: k1 waits out its redelivery delay
        f.revoke(k1);
        engine.settled(k1, 0);
        engine.add(f.entry("k2", "k"));
        engine.add(f.entry("j1", "j"));
        engine.add(f.entry("x", null));
        assertEquals(1_000, engine.dispatch(10), "dispatch wants to run again when k1 is due");
        assertEquals(List.of("a:k1", "b:j1", "a:x"), f.deliveries, "k2 may not pass k1; j1 and x go meanwhile");
        assertEquals(Long.MAX_VALUE, engine.dispatch(1_000));
        assertEquals(List.of("b:k1", "b:k2"), f.deliveries.subList(3, 5), "k1 when due, then k2 behind it");
    }

    @Test
    void anUnkeyedMessageWaitingToBeRedeliveredHoldsBackNothing() {
        QueueEntry u1 = f.entry("u1", null);
        u1.redeliverAt(500);
        engine.add(u1);
        engine.add(f.entry("u2", null));
        engine.add(f.entry("k1", "k"));
        assertEquals(500, engine.dispatch(0));
        assertEquals(List.of("a:u2", "b:k1"), f.deliveries);
        engine.dispatch(500);
        assertEquals("a:u1", f.deliveries.get(2));
    }
}
