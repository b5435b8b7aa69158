package org.partita.broker.core.dispatch;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.partita.broker.core.queue.QueueEntry;

/**
 * The waiting messages of a plain (unpartitioned) queue, arranged so that a key's order holds
 * while all consumers share the keys.
 *
 * <p>The <em>front</em> holds, in delivery order (JMS priority, then arrival), every unkeyed message
 * and the earliest waiting message of each key; a key's later messages wait in its {@link Lane},
 * behind their head, in arrival order. Only the front is ever offered to consumers, so a key's
 * message can never be delivered ahead of an earlier one of the same key (whatever their
 * priorities), and a key whose holder is busy costs one skipped entry per pass, not one per message.
 *
 * <p>A lane also records which consumer holds the key: the consumer that has unsettled messages of
 * it. While it does, the key's messages go only to it; once it has settled them all, the key is
 * free again and its next message may go to any consumer (the rule of FIFO message groups in cloud
 * queues): no key is pinned for ever and none stalls when its consumer leaves.
 */
final class KeyedBacklog {
    private final TreeSet<QueueEntry> front = new TreeSet<>(Backlog.BY_PRIORITY);
    private final Map<Integer, Lane> lanes = new HashMap<>();
    private int size;

    /** One key's state: its earliest waiting message (in the front), the rest, its holder. */
    private static final class Lane {
        QueueEntry head;
        /** Waiting messages after the head, by arrival; created for the second one only. */
        TreeSet<QueueEntry> behind;

        ConsumerRef holder;
        int held;

        boolean idle() {
            return head == null && held == 0;
        }
    }

    void add(QueueEntry e) {
        size++;
        if (!e.message().keyed()) {
            front.add(e);
            return;
        }
        Lane lane = lanes.computeIfAbsent(e.message().keyHash(), k -> new Lane());
        if (lane.head == null) {
            lane.head = e;
            front.add(e);
        } else if (e.id() < lane.head.id()) {
            // handed back: it is older than the waiting head, so it goes first again
            front.remove(lane.head);
            behind(lane).add(lane.head);
            lane.head = e;
            front.add(e);
        } else {
            behind(lane).add(e);
        }
    }

    private static TreeSet<QueueEntry> behind(Lane lane) {
        if (lane.behind == null) {
            lane.behind = new TreeSet<>(Backlog.BY_ARRIVAL);
        }
        return lane.behind;
    }

    /** Takes a waiting entry out (delivered, expired, replaced); false if it was not waiting. */
    boolean remove(QueueEntry e) {
        if (!e.message().keyed()) {
            return removed(front.remove(e));
        }
        Lane lane = lanes.get(e.message().keyHash());
        if (lane == null) {
            return false;
        }
        if (lane.head == e) {
            front.remove(e);
            lane.head = lane.behind == null ? null : lane.behind.pollFirst();
            if (lane.head != null) {
                front.add(lane.head);
            }
            forgetIfIdle(e, lane);
            return removed(true);
        }
        return removed(lane.behind != null && lane.behind.remove(e));
    }

    private boolean removed(boolean r) {
        if (r) {
            size--;
        }
        return r;
    }

    /** The consumer that holds the entry's key, or null if the key is free (or the entry has none). */
    ConsumerRef holder(QueueEntry e) {
        if (!e.message().keyed()) {
            return null;
        }
        Lane lane = lanes.get(e.message().keyHash());
        return lane == null ? null : lane.holder;
    }

    /** The entry was delivered to {@code c}: its key is held by {@code c} until all its messages settle. */
    void delivered(QueueEntry e, ConsumerRef c) {
        if (e.message().keyed()) {
            Lane lane = lanes.computeIfAbsent(e.message().keyHash(), k -> new Lane());
            lane.holder = c;
            lane.held++;
        }
    }

    /** A delivered entry was acknowledged, handed back or taken back. */
    void settled(QueueEntry e) {
        if (!e.message().keyed()) {
            return;
        }
        Lane lane = lanes.get(e.message().keyHash());
        if (lane != null && lane.held > 0 && --lane.held == 0) {
            lane.holder = null;
            forgetIfIdle(e, lane);
        }
    }

    private void forgetIfIdle(QueueEntry e, Lane lane) {
        if (lane.idle()) {
            lanes.remove(e.message().keyHash());
        }
    }

    QueueEntry first() {
        return front.isEmpty() ? null : front.first();
    }

    /** The entry that arrived first: a key's earliest message is its lane's head, so it is in the front. */
    QueueEntry oldest() {
        return Backlog.oldestByPriority(front);
    }

    /**
     * The front entry after {@code e} in delivery order; {@code e} need not be waiting any more, so
     * a walk can go on after taking it (a key's next message, promoted behind it, comes next).
     */
    QueueEntry after(QueueEntry e) {
        return front.higher(e);
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Every waiting entry in delivery order (for browsing and re-layouts). */
    List<QueueEntry> all() {
        List<QueueEntry> out = new ArrayList<>(size);
        out.addAll(front);
        for (Lane lane : lanes.values()) {
            if (lane.behind != null) {
                out.addAll(lane.behind);
            }
        }
        if (out.size() > front.size()) {
            out.sort(Backlog.BY_PRIORITY);
        }
        return out;
    }

    /** Forgets every waiting entry; what consumers hold stays recorded until it settles. */
    void clear() {
        front.clear();
        lanes.values().removeIf(lane -> {
            lane.head = null;
            lane.behind = null;
            return lane.held == 0;
        });
        size = 0;
    }
}
