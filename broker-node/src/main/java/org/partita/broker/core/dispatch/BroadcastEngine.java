package org.partita.broker.core.dispatch;

import java.util.ArrayList;
import java.util.List;
import org.partita.broker.core.queue.QueueEntry;

/**
 * Broadcast: nothing is kept. Each message goes, at that instant, to every consumer of the highest
 * priority present that has room and whose selector takes it, at most once; with nobody there it
 * is gone. Consumers come and go without registration.
 */
public final class BroadcastEngine implements DispatchEngine {
    private final Host host;
    private final List<ConsumerRef> consumers = new ArrayList<>();

    public BroadcastEngine(Host host) {
        this.host = host;
    }

    @Override
    public void add(QueueEntry e) {
        if (e.deliveryCount() > 0) {
            return; // handed back: at most once means never again
        }
        int top = ConsumerRef.highestPriority(consumers);
        for (ConsumerRef c : consumers) {
            if (c.priority() == top && c.canTake(e)) {
                host.deliver(c, new QueueEntry(e.queue(), e.message(), 0));
            }
        }
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
    public void consumerChanged(ConsumerRef c, long now) {
        // priorities are read per message
    }

    @Override
    public boolean remove(QueueEntry e) {
        return false;
    }

    @Override
    public void settled(QueueEntry e, long now) {
        // nothing to track
    }

    @Override
    public long dispatch(long now) {
        return Long.MAX_VALUE;
    }

    @Override
    public Iterable<QueueEntry> waiting() {
        return List.of();
    }

    @Override
    public int waitingCount() {
        return 0;
    }

    @Override
    public void clear() {
        consumers.clear();
    }
}
