package org.partita.broker.core.partition;

import java.util.HashSet;
import java.util.Set;
import org.partita.broker.core.dispatch.DispatchEngine;
import org.partita.broker.core.queue.QueueEntry;

/**
 * A change of a live queue's partition count. The old layout keeps delivering what it holds; a
 * key's messages in the new layout wait until every message of that key in the old layout has
 * been acknowledged (or dead-lettered, or expired), so a key's order never breaks. Keys are
 * tracked by the new partition they map to: new partition {@code p} is held while any old message
 * whose key maps to {@code p} is still there. Unkeyed messages hold nothing.
 */
public final class Repartitioning {
    private final DispatchEngine old;
    private final int newPartitions;
    private final int[] blockers;
    private final Set<QueueEntry> oldEntries = new HashSet<>();

    /** @param held every entry of the old layout: waiting and delivered-but-unacknowledged */
    public Repartitioning(DispatchEngine old, int newPartitions, Iterable<QueueEntry> held) {
        this.old = old;
        this.newPartitions = newPartitions;
        this.blockers = new int[newPartitions];
        for (QueueEntry e : held) {
            oldEntries.add(e);
            int p = target(e);
            if (p >= 0) {
                blockers[p]++;
            }
        }
    }

    public DispatchEngine old() {
        return old;
    }

    private int target(QueueEntry e) {
        return e.message().partition(newPartitions);
    }

    public boolean owns(QueueEntry e) {
        return oldEntries.contains(e);
    }

    /** An old-layout entry left the queue for good. */
    public void left(QueueEntry e) {
        if (oldEntries.remove(e)) {
            int p = target(e);
            if (p >= 0) {
                blockers[p]--;
            }
        }
    }

    public boolean held(int newPartition) {
        return newPartition < blockers.length && blockers[newPartition] > 0;
    }

    public boolean holdsAnything() {
        for (int b : blockers) {
            if (b > 0) {
                return true;
            }
        }
        return false;
    }

    public boolean done() {
        return oldEntries.isEmpty();
    }
}
