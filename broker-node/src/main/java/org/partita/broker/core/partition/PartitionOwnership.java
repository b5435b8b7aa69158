package org.partita.broker.core.partition;

import org.partita.broker.core.dispatch.ConsumerRef;

/**
 * Who owns one partition, as an explicit state machine:
 * <ul>
 *   <li>UNASSIGNED: no owner; nothing is delivered.</li>
 *   <li>ASSIGNED: {@code owner} receives the partition's messages, in order.</li>
 *   <li>DRAINING: the partition is moving from {@code owner} to {@code next}. Nobody receives new
 *       messages of it until the old owner has acknowledged what it holds, or the handoff deadline
 *       passed; then {@code next} becomes the owner and gets what was left, redelivered.</li>
 * </ul>
 * Time is passed in, so tests drive it.
 */
public final class PartitionOwnership {
    public enum State {
        UNASSIGNED,
        ASSIGNED,
        DRAINING
    }

    private State state = State.UNASSIGNED;
    private ConsumerRef owner;
    private ConsumerRef next;
    private long handoffDeadline;

    public State state() {
        return state;
    }

    public ConsumerRef owner() {
        return owner;
    }

    /** The consumer the partition is (or will be, once drained) assigned to. */
    public ConsumerRef target() {
        return state == State.DRAINING ? next : owner;
    }

    /** The consumer that may receive the partition's messages now, or null. */
    public ConsumerRef deliverable() {
        return state == State.ASSIGNED ? owner : null;
    }

    public long handoffDeadline() {
        return state == State.DRAINING ? handoffDeadline : Long.MAX_VALUE;
    }

    /**
     * Moves the partition to {@code to}. From UNASSIGNED it is immediate; from ASSIGNED the old
     * owner drains first; a draining partition just changes its destination. Back to the old owner
     * too: it still drains first, because its client has already been told the partition moved
     * away and is giving back what it had prefetched of it; delivering a later message to it before
     * those are back would put them behind that message.
     */
    public void moveTo(ConsumerRef to, long now, long maxHandoffMillis) {
        switch (state) {
            case UNASSIGNED -> {
                owner = to;
                state = State.ASSIGNED;
            }
            case ASSIGNED -> {
                if (owner != to) {
                    next = to;
                    handoffDeadline = now + maxHandoffMillis;
                    state = State.DRAINING;
                }
            }
            case DRAINING -> next = to;
        }
    }

    /**
     * Completes a handoff once the old owner holds nothing of the partition or the deadline passed.
     *
     * @return true if the handoff completed now (the caller takes back what the old owner still holds)
     */
    public boolean tick(long now, boolean oldOwnerHoldsMessages) {
        if (state != State.DRAINING || (oldOwnerHoldsMessages && now < handoffDeadline)) {
            return false;
        }
        owner = next;
        next = null;
        state = owner == null ? State.UNASSIGNED : State.ASSIGNED;
        return true;
    }

    /**
     * A consumer went away. If it owned the partition and still holds messages of it (they come
     * back when its session settles them), the partition drains, so no later message of a key can
     * overtake them; otherwise it is free at once.
     */
    public void consumerGone(ConsumerRef c, long now, boolean holdsMessages, long maxHandoffMillis) {
        if (state == State.ASSIGNED && owner == c) {
            if (holdsMessages) {
                next = null;
                handoffDeadline = now + maxHandoffMillis;
                state = State.DRAINING;
            } else {
                owner = null;
                state = State.UNASSIGNED;
            }
        } else if (state == State.DRAINING && next == c) {
            next = null;
        }
    }
}
