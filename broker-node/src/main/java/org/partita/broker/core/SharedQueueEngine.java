package org.partita.broker.core;

import java.util.ArrayList;
import java.util.List;

/**
 * The work-queue behaviour: every message goes to the next consumer, round-robin, among the
 * consumers of the highest priority present that have credit and whose selector takes it.
 */
final class SharedQueueEngine implements DispatchEngine {
    private final Host host;
    private final Backlog backlog = new Backlog(Backlog.BY_PRIORITY);
    private final List<ConsumerRef> consumers = new ArrayList<>();
    private int next;

    SharedQueueEngine(Host host) {
        this.host = host;
    }

    @Override
    public void add(QueueEntry e) {
        backlog.add(e);
    }

    @Override
    public void consumerAdded(ConsumerRef c, long now) {
        consumers.add(c);
    }

    @Override
    public void consumerRemoved(ConsumerRef c, long now) {
        consumers.remove(c);
    }

    @Override
    public void settled(QueueEntry e, long now) {
        // nothing to track: any consumer may take any message
    }

    @Override
    public void consumerChanged(ConsumerRef c, long now) {
        // priorities are read at each pick
    }

    @Override
    public long dispatch(long now) {
        if (consumers.isEmpty() || backlog.isEmpty()) {
            return Long.MAX_VALUE;
        }
        return BacklogScan.deliver(backlog, now, host, this::pick, this::anyCredit);
    }

    private boolean anyCredit() {
        for (ConsumerRef c : consumers) {
            if (c.hasRoom()) {
                return true;
            }
        }
        return false;
    }

    private ConsumerRef pick(QueueEntry e) {
        int top = ConsumerRef.highestPriority(consumers);
        int n = consumers.size();
        for (int i = 0; i < n; i++) {
            int idx = (next + i) % n;
            ConsumerRef c = consumers.get(idx);
            if (c.priority() == top && c.canTake(e)) {
                next = (idx + 1) % n;
                return c;
            }
        }
        return null;
    }

    @Override
    public Iterable<QueueEntry> waiting() {
        return backlog;
    }

    @Override
    public int waitingCount() {
        return backlog.size();
    }

    @Override
    public boolean remove(QueueEntry e) {
        return backlog.remove(e);
    }

    @Override
    public void clear() {
        backlog.clear();
        consumers.clear();
    }
}
