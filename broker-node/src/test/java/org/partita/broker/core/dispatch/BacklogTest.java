package org.partita.broker.core.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.partita.broker.core.queue.MessageRef;
import org.partita.broker.core.queue.QueueEntry;
import org.partita.protocol.MessageCodec;
import org.partita.protocol.WireMessage;

/** The oldest waiting entry, whichever order the backlog delivers in, and its age. */
class BacklogTest {
    private static QueueEntry entry(long id, int priority, long timestamp) {
        return entry(id, priority, timestamp, Map.of());
    }

    private static QueueEntry entry(long id, int priority, long timestamp, Map<String, Object> properties) {
        WireMessage wire = new WireMessage(
                "ID:" + id,
                timestamp,
                null,
                null,
                "queue:q",
                null,
                WireMessage.PERSISTENT,
                priority,
                0L,
                0L,
                properties,
                WireMessage.BODY_TEXT,
                new byte[] {1});
        return new QueueEntry(null, new MessageRef(id, MessageCodec.encode(wire), wire, null), 0);
    }

    @Test
    void inPriorityOrderTheOldestIsFoundAmongThePriorityRuns() {
        Backlog b = new Backlog(Backlog.BY_PRIORITY);
        assertNull(b.oldest());
        b.add(entry(5, 9, 500));
        b.add(entry(7, 9, 700));
        b.add(entry(3, 4, 300));
        b.add(entry(2, 0, 200));
        b.add(entry(8, 0, 800));
        assertEquals(5, b.first().id(), "priority 9 is delivered first");
        assertEquals(2, b.oldest().id(), "but the oldest is the lowest id, at priority 0");
        b.remove(b.oldest());
        assertEquals(3, b.oldest().id());
    }

    @Test
    void aKeyedBacklogFindsTheOldestAmongItsFront() {
        KeyedBacklog b = new KeyedBacklog();
        assertNull(b.oldest());
        b.add(entry(6, 9, 600));
        b.add(entry(3, 2, 300, Map.of("JMSXGroupID", "k")));
        b.add(entry(4, 8, 400, Map.of("JMSXGroupID", "k")));
        assertEquals(3, b.oldest().id());
        b.remove(b.oldest());
        assertEquals(4, b.oldest().id(), "the key's next message is promoted to the front");
    }

    @Test
    void inArrivalOrderTheOldestIsTheFirst() {
        Backlog b = new Backlog(Backlog.BY_ARRIVAL);
        b.add(entry(4, 1, 400));
        b.add(entry(9, 9, 900));
        assertEquals(4, b.oldest().id());
    }

    @Test
    void theAgeComesFromTheJmsTimestampAndIsUnknownWithoutOne() {
        assertEquals(1_500, entry(1, 4, 1_000).message().ageMillis(2_500));
        assertEquals(-1, entry(2, 4, 0).message().ageMillis(2_500), "timestamps disabled: no age");
    }
}
