package org.partita.broker.core.dispatch;

import java.util.ArrayList;
import java.util.List;
import org.partita.broker.core.queue.QueueEntry;

/**
 * The work-queue behaviour of a plain queue: every message goes to the next consumer, round-robin,
 * among the consumers of the highest priority present that have room and whose selector takes it.
 * A message with a key ({@code JMSXGroupID}) goes to the consumer that holds its key while that
 * consumer still has unsettled messages of it, else to the next consumer like any other; so each
 * key stays in order and every consumer shares the keys ({@link KeyedBacklog}). A message waiting
 * out its delivery delay or its redelivery delay holds back its key only.
 */
public final class SharedQueueEngine implements DispatchEngine {
    private final Host host;
    private final KeyedBacklog backlog = new KeyedBacklog();
    private final List<ConsumerRef> consumers = new ArrayList<>();
    /** The same consumers, to ask whether one is still here without walking the list. */
    private final java.util.Set<ConsumerRef> present =
            java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    /**
     * The highest priority among the consumers, kept as they come, go and change: read at every
     * message, it must not cost a walk over 10,000 consumers of one queue (S9) each time.
     */
    private int top = Integer.MIN_VALUE;

    private int next;

    public SharedQueueEngine(Host host) {
        this.host = host;
    }

    @Override
    public void add(QueueEntry e) {
        backlog.add(e);
    }

    @Override
    public void consumerAdded(ConsumerRef c, long now) {
        consumers.add(c);
        present.add(c);
        top = Math.max(top, c.priority());
    }

    @Override
    public void consumerRemoved(ConsumerRef c, long now) {
        // Keys it still holds stay with it until its session settles them: a later message of such
        // a key must not overtake the ones it holds, which come back redelivered if not acknowledged.
        consumers.remove(c);
        present.remove(c);
        top = ConsumerRef.highestPriority(consumers);
    }

    @Override
    public void settled(QueueEntry e, long now) {
        backlog.settled(e);
    }

    @Override
    public void consumerChanged(ConsumerRef c, long now) {
        top = ConsumerRef.highestPriority(consumers); // its priority may have changed
    }

    @Override
    public long dispatch(long now) {
        long earliestDelayed = Long.MAX_VALUE;
        QueueEntry e = consumers.isEmpty() ? null : backlog.first();
        while (e != null && anyRoom()) {
            QueueEntry current = e;
            long deliveryTime = current.message().deliveryTime();
            if (deliveryTime > now) {
                earliestDelayed = Math.min(earliestDelayed, deliveryTime); // its key's later messages wait too
            } else if (host.isExpired(current, now)) {
                backlog.remove(current);
                host.expire(current);
            } else if (current.waitsForRedelivery(now)) {
                // Only the front is offered, so its key's later messages wait behind it in its lane;
                // an unkeyed message waits alone, and everything after it is delivered meanwhile.
                earliestDelayed = Math.min(earliestDelayed, current.redeliverAt());
            } else {
                ConsumerRef c = consumerFor(current);
                if (c != null) {
                    backlog.delivered(current, c);
                    backlog.remove(current);
                    host.deliver(c, current);
                }
            }
            e = backlog.after(current);
        }
        return earliestDelayed;
    }

    /** The holder of the entry's key if it can take it now; a free key or no key: the next in turn. */
    private ConsumerRef consumerFor(QueueEntry e) {
        ConsumerRef holder = backlog.holder(e);
        if (holder == null) {
            return pick(e);
        }
        // A holder that has left, or that a higher priority consumer now outranks, gets nothing more:
        // the key waits until the holder's session has settled what it holds.
        boolean eligible = present.contains(holder) && holder.priority() == top && !holder.takesOnePerKey();
        return eligible && holder.canTake(e) ? holder : null;
    }

    private boolean anyRoom() {
        for (ConsumerRef c : consumers) {
            if (c.hasRoom()) {
                return true;
            }
        }
        return false;
    }

    private ConsumerRef pick(QueueEntry e) {
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
        return backlog.all();
    }

    @Override
    public QueueEntry oldestWaiting() {
        return backlog.oldest();
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
        present.clear();
        top = Integer.MIN_VALUE;
    }
}
