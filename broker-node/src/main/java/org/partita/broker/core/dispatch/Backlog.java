package org.partita.broker.core.dispatch;

import java.util.Comparator;
import java.util.Iterator;
import java.util.TreeSet;
import org.partita.broker.core.queue.MessageRef;
import org.partita.broker.core.queue.QueueEntry;

/**
 * The messages of a queue (or of one partition) waiting for a consumer, in delivery order. A
 * message handed back takes its old place again, since the order is a property of the message.
 */
public final class Backlog implements Iterable<QueueEntry> {
    /** Higher JMS priority first, then arrival. */
    static final Comparator<QueueEntry> BY_PRIORITY =
            Comparator.comparingInt((QueueEntry e) -> -e.message().priority()).thenComparingLong(QueueEntry::id);
    /** Arrival only: in a partitioned queue the order of a key wins over JMS priority. */
    static final Comparator<QueueEntry> BY_ARRIVAL = Comparator.comparingLong(QueueEntry::id);

    private final TreeSet<QueueEntry> entries;

    Backlog(Comparator<QueueEntry> order) {
        this.entries = new TreeSet<>(order);
    }

    void add(QueueEntry e) {
        entries.add(e);
    }

    boolean remove(QueueEntry e) {
        return entries.remove(e);
    }

    void clear() {
        entries.clear();
    }

    int size() {
        return entries.size();
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }

    QueueEntry first() {
        return entries.isEmpty() ? null : entries.first();
    }

    private static final QueueEntry[] PRIORITY_HEADS = new QueueEntry[10];

    static {
        for (int p = 0; p < PRIORITY_HEADS.length; p++) {
            PRIORITY_HEADS[p] = new QueueEntry(null, MessageRef.probe(p), 0);
        }
    }

    /** The entry that arrived first (lowest id): the first in arrival order, else the oldest head of a priority run. */
    QueueEntry oldest() {
        if (entries.isEmpty() || entries.comparator() == BY_ARRIVAL) {
            return first();
        }
        return oldestByPriority(entries);
    }

    /** The lowest id of a set in {@link #BY_PRIORITY} order: at most ten look-ups, one per priority run. */
    static QueueEntry oldestByPriority(java.util.NavigableSet<QueueEntry> entries) {
        QueueEntry oldest = null;
        for (int p = PRIORITY_HEADS.length - 1; p >= 0; p--) {
            QueueEntry head = entries.ceiling(PRIORITY_HEADS[p]);
            if (head != null && head.message().priority() == p && (oldest == null || head.id() < oldest.id())) {
                oldest = head;
            }
        }
        return oldest;
    }

    @Override
    public Iterator<QueueEntry> iterator() {
        return entries.iterator();
    }
}
