package org.partita.broker.core;

import java.util.Comparator;
import java.util.Iterator;
import java.util.TreeSet;

/**
 * The messages of a queue waiting for a consumer, in delivery order: higher JMS priority first,
 * then arrival. A message handed back takes its old place again.
 */
final class Backlog implements Iterable<QueueEntry> {
    private static final Comparator<QueueEntry> ORDER =
            Comparator.comparingInt((QueueEntry e) -> -e.message().priority()).thenComparingLong(QueueEntry::id);

    private final TreeSet<QueueEntry> entries = new TreeSet<>(ORDER);

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

    @Override
    public Iterator<QueueEntry> iterator() {
        return entries.iterator();
    }
}
