package org.partita.broker.core.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.partita.broker.core.dispatch.ConsumerRef;
import org.partita.protocol.selector.Selector;

/** The ownership state machine, driven by hand-set times. */
class PartitionOwnershipTest {
    private static final long HANDOFF = 3000;
    private final ConsumerRef a = consumer("a");
    private final ConsumerRef b = consumer("b");

    static ConsumerRef consumer(String name) {
        return new ConsumerRef(name, (c, e, p) -> {}, Selector.matchAll(), 10, 0);
    }

    @Test
    void firstAssignmentIsImmediate() {
        PartitionOwnership o = new PartitionOwnership();
        assertNull(o.deliverable());
        o.moveTo(a, 0, HANDOFF);
        assertEquals(PartitionOwnership.State.ASSIGNED, o.state());
        assertSame(a, o.deliverable());
    }

    @Test
    void movingDrainsTheOldOwnerAndDeliversToNobodyMeanwhile() {
        PartitionOwnership o = new PartitionOwnership();
        o.moveTo(a, 0, HANDOFF);
        o.moveTo(b, 100, HANDOFF);
        assertEquals(PartitionOwnership.State.DRAINING, o.state());
        assertNull(o.deliverable(), "nobody receives while the old owner drains");
        assertSame(b, o.target());
        assertFalse(o.tick(200, true), "old owner still holds messages and the deadline is ahead");
        assertTrue(o.tick(300, false), "old owner acknowledged everything: handoff completes");
        assertSame(b, o.deliverable());
    }

    @Test
    void handoffCompletesAtTheDeadlineEvenIfMessagesAreStillHeld() {
        PartitionOwnership o = new PartitionOwnership();
        o.moveTo(a, 0, HANDOFF);
        o.moveTo(b, 1000, HANDOFF);
        assertFalse(o.tick(3999, true));
        assertEquals(4000, o.handoffDeadline());
        assertTrue(o.tick(4000, true));
        assertSame(b, o.deliverable());
    }

    @Test
    void movingBackToTheOldOwnerStillWaitsUntilWhatItHeldIsBack() {
        // its client was told the partition moved away and gives back what it prefetched: a later
        // message delivered to it before those are back in the partition would overtake them
        PartitionOwnership o = new PartitionOwnership();
        o.moveTo(a, 0, HANDOFF);
        o.moveTo(b, 0, HANDOFF);
        o.moveTo(a, 10, HANDOFF);
        assertEquals(PartitionOwnership.State.DRAINING, o.state());
        assertSame(a, o.target());
        assertNull(o.deliverable(), "nothing new is delivered while its prefetched messages are on their way back");
        assertFalse(o.tick(20, true));
        assertTrue(o.tick(30, false));
        assertSame(a, o.deliverable());
    }

    @Test
    void ownerLeavingWithNothingHeldFreesThePartitionAtOnce() {
        PartitionOwnership o = new PartitionOwnership();
        o.moveTo(a, 0, HANDOFF);
        o.consumerGone(a, 50, false, HANDOFF);
        assertEquals(PartitionOwnership.State.UNASSIGNED, o.state());
        assertNull(o.target());
    }

    @Test
    void ownerLeavingWhileHoldingMessagesDrainsSoNoLaterMessageOvertakesThem() {
        PartitionOwnership o = new PartitionOwnership();
        o.moveTo(a, 0, HANDOFF);
        o.consumerGone(a, 50, true, HANDOFF);
        assertEquals(PartitionOwnership.State.DRAINING, o.state());
        assertNull(o.target(), "needs a new target");
        o.moveTo(b, 60, HANDOFF);
        assertNull(o.deliverable());
        assertTrue(o.tick(70, false), "the gone owner's messages came back");
        assertSame(b, o.deliverable());
    }

    @Test
    void handoffTargetLeavingKeepsDrainingWithoutTarget() {
        PartitionOwnership o = new PartitionOwnership();
        o.moveTo(a, 0, HANDOFF);
        o.moveTo(b, 0, HANDOFF);
        o.consumerGone(b, 10, false, HANDOFF);
        assertNull(o.target());
        assertTrue(o.tick(20, false));
        assertEquals(PartitionOwnership.State.UNASSIGNED, o.state());
    }
}
