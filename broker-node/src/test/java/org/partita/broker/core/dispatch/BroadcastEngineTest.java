package org.partita.broker.core.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.broker.core.queue.QueueEntry;

/** docs/routing-modes.md, broadcast: to every consumer of the top priority present, at most once, nothing kept. */
class BroadcastEngineTest {
    private final EngineFixture host = new EngineFixture();
    private final BroadcastEngine engine = new BroadcastEngine(host);

    BroadcastEngineTest() {
        host.engine = engine;
    }

    @Test
    void everyConsumerPresentGetsEachMessageOnce() {
        ConsumerRef a = host.consumer("a", 10);
        ConsumerRef b = host.consumer("b", 10);
        engine.consumerAdded(a, 0);
        engine.consumerAdded(b, 0);
        engine.add(host.entry("m1", null));
        engine.add(host.entry("m2", null));
        assertEquals(List.of("a:m1", "b:m1", "a:m2", "b:m2"), host.deliveries);
        assertEquals(0, engine.waitingCount(), "nothing is kept");
    }

    @Test
    void withNobodyThereAMessageIsGoneAndALateConsumerGetsOnlyWhatFollows() {
        engine.add(host.entry("lost", null));
        ConsumerRef late = host.consumer("late", 10);
        engine.consumerAdded(late, 0);
        engine.add(host.entry("seen", null));
        assertEquals(List.of("late:seen"), host.deliveries);
    }

    @Test
    void onlyTheHighestPriorityPresentReceives() {
        ConsumerRef low = host.consumer("low", 10, 0);
        ConsumerRef high = host.consumer("high", 10, 5);
        engine.consumerAdded(low, 0);
        engine.consumerAdded(high, 0);
        engine.add(host.entry("m1", null));
        engine.consumerRemoved(high, 0);
        engine.add(host.entry("m2", null));
        assertEquals(List.of("high:m1", "low:m2"), host.deliveries);
    }

    @Test
    void aConsumerWithoutRoomMissesTheMessageAndAHandedBackOneIsNeverSentAgain() {
        ConsumerRef full = host.consumer("full", 0);
        ConsumerRef room = host.consumer("room", 10);
        engine.consumerAdded(full, 0);
        engine.consumerAdded(room, 0);
        engine.add(host.entry("m1", null));
        assertEquals(List.of("room:m1"), host.deliveries);
        QueueEntry back = host.heldBy(room).get(0);
        back.returned(true);
        engine.add(back);
        assertEquals(List.of("room:m1"), host.deliveries, "at most once");
    }
}
