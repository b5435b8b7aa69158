package org.partita.broker.core.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.partita.broker.core.queue.QueueEntry;

/** The walk every engine makes over its waiting messages: order, expiry, delay, and where it stops. */
class BacklogScanTest {
    private static final long NOW = 10_000;
    private final EngineFixture f = new EngineFixture();
    private final Backlog backlog = new Backlog(Backlog.BY_PRIORITY);
    private final ConsumerRef a = f.consumer("a", 100);

    private QueueEntry add(String text, int priority, long expiration, long deliveryTime) {
        QueueEntry e = f.entry(text, Map.of(), priority, expiration, deliveryTime);
        backlog.add(e);
        return e;
    }

    private static List<String> texts(Backlog b) {
        List<String> out = new ArrayList<>();
        b.forEach(e -> out.add(EngineFixture.text(e)));
        return out;
    }

    private long scanAll() {
        return BacklogScan.deliver(backlog, NOW, f, e -> a, () -> true, e -> true);
    }

    @Test
    void deliversInBacklogOrderAndEmptiesIt() {
        add("low", 1, 0, 0);
        add("high", 9, 0, 0);
        add("low2", 1, 0, 0);
        assertEquals(Long.MAX_VALUE, scanAll(), "nothing delayed: no wake-up wanted");
        assertEquals(List.of("a:high", "a:low", "a:low2"), f.deliveries);
        assertEquals(0, backlog.size());
    }

    @Test
    void anExpiredMessageIsExpiredNotDelivered() {
        add("old", 4, NOW - 1, 0);
        add("exact", 4, NOW, 0);
        add("fresh", 4, NOW + 1, 0);
        scanAll();
        assertEquals(List.of("old", "exact"), f.expired, "expired at or before now");
        assertEquals(List.of("a:fresh"), f.deliveries);
        assertEquals(0, backlog.size());
    }

    @Test
    void aDelayedMessageStaysAndTheEarliestDelayTellsWhenToRunAgain() {
        add("later", 4, 0, NOW + 500);
        add("sooner", 4, 0, NOW + 200);
        add("due", 4, 0, NOW);
        assertEquals(NOW + 200, scanAll());
        assertEquals(List.of("a:due"), f.deliveries, "a message is due at its delivery time");
        assertEquals(List.of("later", "sooner"), texts(backlog));
    }

    @Test
    void aDelayedMessageIsNotExpiredBeforeItIsDue() {
        add("delayed", 4, NOW - 1, NOW + 100);
        assertEquals(NOW + 100, scanAll());
        assertEquals(List.of(), f.expired, "its expiry is looked at when it is due");
        assertEquals(1, backlog.size());
    }

    @Test
    void aMessageNoConsumerTakesWaitsWhileLaterOnesGo() {
        add("skip", 4, 0, 0);
        add("take", 4, 0, 0);
        BacklogScan.deliver(
                backlog, NOW, f, e -> EngineFixture.text(e).equals("skip") ? null : a, () -> true, e -> true);
        assertEquals(List.of("a:take"), f.deliveries);
        assertEquals(List.of("skip"), texts(backlog));
    }

    @Test
    void aMessageThatDoesNotFitStopsTheWalk() {
        add("m1", 4, 0, 0);
        add("big", 4, 0, 0);
        add("m3", 4, 0, 0);
        BacklogScan.deliver(
                backlog, NOW, f, e -> a, () -> true, e -> !EngineFixture.text(e).equals("big"));
        assertEquals(List.of("a:m1"), f.deliveries, "m3 may not overtake big");
        assertEquals(List.of("big", "m3"), texts(backlog));
    }

    @Test
    void theWalkStopsWhenNoConsumerHasCredit() {
        for (int i = 0; i < 5; i++) {
            add("m" + i, 4, 0, 0);
        }
        int[] left = {2};
        BacklogScan.deliver(backlog, NOW, f, e -> a, () -> left[0]-- > 0, e -> true);
        assertEquals(List.of("a:m0", "a:m1"), f.deliveries);
        assertEquals(3, backlog.size());
    }

    private QueueEntry keyed(String text, String key) {
        QueueEntry e = f.entry(text, key == null ? Map.of() : Map.of("JMSXGroupID", key), 4, 0, 0);
        backlog.add(e);
        return e;
    }

    @Test
    void aMessageWaitingToBeRedeliveredHoldsBackItsKeyOnly() {
        QueueEntry failed = keyed("k1", "k");
        failed.redeliverAt(NOW + 500);
        keyed("j1", "j");
        keyed("k2", "k");
        keyed("free", null);
        keyed("j2", "j");
        assertEquals(NOW + 500, scanAll(), "the walk wants to run again when k1 is due");
        assertEquals(
                List.of("a:j1", "a:free", "a:j2"), f.deliveries, "k2 waits behind k1; other keys and unkeyed ones go");
        assertEquals(List.of("k1", "k2"), texts(backlog));
        assertEquals(Long.MAX_VALUE, BacklogScan.deliver(backlog, NOW + 500, f, e -> a, () -> true, e -> true));
        assertEquals(List.of("a:k1", "a:k2"), f.deliveries.subList(3, 5), "due at its time, then its key in order");
    }

    @Test
    void anUnkeyedMessageWaitingToBeRedeliveredWaitsAlone() {
        QueueEntry failed = keyed("u1", null);
        failed.redeliverAt(NOW + 100);
        keyed("u2", null);
        keyed("k1", "k");
        assertEquals(NOW + 100, scanAll());
        assertEquals(List.of("a:u2", "a:k1"), f.deliveries);
    }
}
