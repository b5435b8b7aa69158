package org.partita.broker.core.xa;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import org.partita.broker.core.Broker;
import org.partita.broker.core.queue.QueueEntry;
import org.partita.protocol.WireXid;

/**
 * One XA transaction branch on this node: the sends and consumptions of the sessions associated
 * with it, until it commits or rolls back. Guarded by its {@link XaBranches}; the network front
 * holds it only as the token of a session's association.
 */
public final class XaBranch {
    enum State {
        /** Sessions work in it (or did, and ended). */
        WORKING,
        /** Its work was rolled back (a timeout, TMFAIL); it waits for its transaction manager to hear so. */
        ROLLBACK_ONLY,
        PREPARING,
        /** Durable: its consumed entries are locked, its sends stored in its record. */
        PREPARED,
        COMPLETING,
        HEURISTIC_COMMITTED,
        HEURISTIC_ROLLED_BACK
    }

    final WireXid xid;
    /** The connection that started it: a branch it leaves unprepared ends with it. */
    final Object owner;

    final List<Broker.PendingSend> sends = new ArrayList<>();
    /** Bytes of the messages sent in it, held to {@code limits.transactionBytes} like a local transaction. */
    long sentBytes;
    /** Told {@link #sentBytes} once the branch no longer holds its sends (the node-wide count of open transactions). */
    java.util.function.LongConsumer giveBack = bytes -> {};

    final List<Broker.Consumed> consumed = new ArrayList<>();
    /** What it consumed on other nodes: settled there after it commits. */
    final List<OutsideWork> outside = new ArrayList<>();
    /** Entries consumed, locked at prepare (or restored locked at start-up). */
    final List<QueueEntry> locked = new ArrayList<>();

    final Set<Object> active = new HashSet<>();
    final Set<Object> suspended = new HashSet<>();
    State state = State.WORKING;
    int rollbackCode;
    String rollbackReason;
    ScheduledFuture<?> timeout;
    long preparedAt;
    /**
     * The stores holding this node's parts of the prepared branch (null stands for the node's own
     * store): more than one when its work lives in replica sets' stores too.
     */
    final Set<org.partita.broker.store.MessageStore> stores = new java.util.LinkedHashSet<>();
    /** Every place holding a part, as its records name them; empty when the node's store holds it all. */
    List<String> places = List.of();

    final boolean restored;

    XaBranch(WireXid xid, Object owner, boolean restored) {
        this.xid = xid;
        this.owner = owner;
        this.restored = restored;
    }

    boolean associated() {
        return !active.isEmpty() || !suspended.isEmpty();
    }

    boolean inDoubt() {
        return state == State.PREPARED || state == State.HEURISTIC_COMMITTED || state == State.HEURISTIC_ROLLED_BACK;
    }

    InDoubtBranch view() {
        return new InDoubtBranch(
                xid, state.name(), sends.size(), state == State.PREPARED ? locked.size() : 0, preparedAt, restored);
    }

    @Override
    public String toString() {
        return "XA branch " + xid + " (" + state + ")";
    }
}
