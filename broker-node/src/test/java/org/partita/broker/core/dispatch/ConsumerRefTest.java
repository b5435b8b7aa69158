package org.partita.broker.core.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.partita.broker.core.queue.QueueEntry;
import org.partita.protocol.selector.Selector;

/** A consumer's room as dispatch reads it: credits, capacity in messages and bytes, its selector. */
class ConsumerRefTest {
    private final EngineFixture f = new EngineFixture();

    private QueueEntry sized(String text, int bytes) {
        return f.entry(text + "x".repeat(bytes), Map.of(), 4, 0L, 0L);
    }

    @Test
    void creditsBoundWhatItTakesUntilMoreAreGiven() {
        ConsumerRef c = f.consumer("c", 2);
        c.deliver(sized("a", 10), -1);
        assertTrue(c.hasRoom());
        c.deliver(sized("b", 10), -1);
        assertFalse(c.hasRoom(), "two credits, two deliveries");
        c.addCredits(1);
        assertTrue(c.hasRoom());
        c.clearCredits();
        assertFalse(c.hasRoom(), "a drain takes every credit back");
    }

    @Test
    void capacityBoundsUnacknowledgedMessagesWhateverItsCredit() {
        ConsumerRef c = f.consumer("c", 100);
        c.capacity(2, 0);
        QueueEntry a = sized("a", 10);
        c.deliver(a, -1);
        c.deliver(sized("b", 10), -1);
        assertFalse(c.hasRoom(), "two unacknowledged: at capacity");
        c.settled(a);
        assertTrue(c.hasRoom(), "one settled, room for one more");
    }

    @Test
    void byteCapacityLetsOneMessageThroughWhateverItsSize() {
        ConsumerRef c = f.consumer("c", 100);
        c.capacity(0, 1_000);
        QueueEntry big = sized("big", 5_000);
        assertTrue(c.canTake(big), "nothing held: one message always fits");
        c.deliver(big, -1);
        assertFalse(c.canTake(sized("small", 10)), "over its bytes while big is held");
        c.settled(big);
        assertTrue(c.canTake(sized("small", 10)));
    }

    @Test
    void aSelectorSeesTheDeliveryCountTheMessageWouldCarry() throws Exception {
        ConsumerRef retries =
                new ConsumerRef("retries", (x, e, p) -> {}, Selector.parse("JMSXDeliveryCount > 1"), 10, 0);
        QueueEntry e = sized("m", 1);
        assertFalse(retries.canTake(e), "its first delivery has count 1");
        e.deliveredTo(f.consumer("other", 1));
        e.returned(true);
        assertTrue(retries.canTake(e), "seen once: it would come with count 2");
    }

    @Test
    void itsFiguresCountDeliveriesAndAcknowledgements() {
        ConsumerRef c = f.consumer("c", 5, 3);
        QueueEntry a = sized("a", 10);
        c.deliver(a, -1);
        c.deliver(sized("b", 10), -1);
        c.settled(a);
        c.acknowledged();
        ConsumerFigures r = c.figures(List.of(1, 2));
        assertEquals(3, r.priority());
        assertEquals(3, r.credits());
        assertEquals(1, r.inFlight());
        assertEquals(a.size(), r.inFlightBytes(), "b, as large as a, is still held");
        assertEquals(2, r.delivered());
        assertEquals(1, r.acknowledged());
        assertEquals(List.of(1, 2), r.partitions());
    }
}
