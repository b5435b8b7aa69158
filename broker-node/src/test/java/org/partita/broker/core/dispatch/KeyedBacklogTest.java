package org.partita.broker.core.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.broker.core.queue.QueueEntry;

/** The plain queue's backlog: only a key's earliest waiting message is offered. */
class KeyedBacklogTest {
    private final EngineFixture f = new EngineFixture();
    private final KeyedBacklog backlog = new KeyedBacklog();

    private List<String> front() {
        List<String> out = new ArrayList<>();
        for (QueueEntry e = backlog.first(); e != null; e = backlog.after(e)) {
            out.add(EngineFixture.text(e));
        }
        return out;
    }

    @Test
    void onlyTheHeadOfEachKeyIsOfferedWhateverTheLaterOnesPriority() {
        backlog.add(f.entry("a1", "a", 1));
        backlog.add(f.entry("b1", "b"));
        backlog.add(f.entry("a2", "a", 9));
        backlog.add(f.entry("plain", null, 9));
        assertEquals(List.of("plain", "b1", "a1"), front(), "priority orders the front; a2 waits behind a1");
        assertEquals(4, backlog.size());
        assertEquals(4, backlog.all().size(), "browsing sees every waiting message");
    }

    @Test
    void takingAHeadPromotesTheKeysNextMessageBehindIt() {
        QueueEntry a1 = f.entry("a1", "a");
        backlog.add(a1);
        backlog.add(f.entry("b1", "b"));
        backlog.add(f.entry("a2", "a"));
        assertTrue(backlog.remove(a1));
        assertEquals(List.of("b1", "a2"), front());
        QueueEntry next = backlog.after(a1);
        assertEquals("b1", EngineFixture.text(next), "a walk that took a1 goes on");
        assertEquals("a2", EngineFixture.text(backlog.after(next)), "and reaches a2 in the same walk");
    }

    @Test
    void aMessageHandedBackGoesInFrontOfItsKeyAgain() {
        QueueEntry a1 = f.entry("a1", "a");
        QueueEntry a2 = f.entry("a2", "a");
        backlog.add(a1);
        backlog.add(a2);
        backlog.remove(a1); // delivered
        assertEquals(List.of("a2"), front());
        backlog.add(a1); // handed back
        assertEquals(List.of("a1"), front());
        assertEquals(2, backlog.size());
    }

    @Test
    void aKeyIsHeldWhileItsConsumerHasUnsettledMessagesOfIt() {
        ConsumerRef c = f.consumer("c", 10);
        QueueEntry a1 = f.entry("a1", "a");
        QueueEntry a2 = f.entry("a2", "a");
        backlog.add(a1);
        backlog.add(a2);
        assertNull(backlog.holder(a1));
        backlog.delivered(a1, c);
        backlog.remove(a1);
        backlog.delivered(a2, c);
        backlog.remove(a2);
        QueueEntry a3 = f.entry("a3", "a");
        backlog.add(a3);
        assertSame(c, backlog.holder(a3));
        backlog.settled(a1);
        assertSame(c, backlog.holder(a3), "still holds a2");
        backlog.settled(a2);
        assertNull(backlog.holder(a3), "free once everything settled");
        assertNull(backlog.holder(f.entry("x", null)), "an unkeyed message has no holder");
    }

    @Test
    void removingAWaitingMessageBehindItsHeadAndClearing() {
        QueueEntry a1 = f.entry("a1", "a");
        QueueEntry a2 = f.entry("a2", "a");
        backlog.add(a1);
        backlog.add(a2);
        assertTrue(backlog.remove(a2));
        assertFalse(backlog.remove(a2));
        assertEquals(1, backlog.size());
        backlog.clear();
        assertTrue(backlog.isEmpty());
        assertNull(backlog.first());
    }
}
