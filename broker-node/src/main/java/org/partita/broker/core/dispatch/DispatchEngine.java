package org.partita.broker.core.dispatch;

import org.partita.broker.core.queue.QueueEntry;

/**
 * Who gets a queue's next message: one engine per routing behaviour (shared round-robin by
 * priority, key-partitioned with one owner per partition, ...). The queue owns storage rules and
 * acknowledgement; the engine only holds waiting entries and chooses consumers. Runs on the
 * queue's executor; times come from the node's clock so tests can drive them.
 */
public interface DispatchEngine {

    /** An entry is waiting: new, restored, or handed back. */
    void add(QueueEntry e);

    void consumerAdded(ConsumerRef c, long now);

    void consumerRemoved(ConsumerRef c, long now);

    /** A consumer's priority or capacity changed. */
    void consumerChanged(ConsumerRef c, long now);

    /** Takes a waiting entry out (a last value queue replaced it); false if it is not waiting. */
    boolean remove(QueueEntry e);

    /** An entry this engine delivered was acknowledged, released or taken back. */
    void settled(QueueEntry e, long now);

    /** Delivers what it can; returns when it next wants to run (epoch millis), or Long.MAX_VALUE. */
    long dispatch(long now);

    Iterable<QueueEntry> waiting();

    int waitingCount();

    /** Forgets every waiting entry (queue deletion). */
    void clear();

    /** The waiting entry that arrived first, for the figures; null if none (or the engine cannot tell). */
    default QueueEntry oldestWaiting() {
        return null;
    }

    /** What the queue asks of the engine's surroundings. */
    interface Host {
        boolean isExpired(QueueEntry e, long now);

        /** Removes an expired entry: dropped, or moved to the expiry queue. */
        void expire(QueueEntry e);

        /** Hands the entry to the consumer and counts it in flight. */
        void deliver(ConsumerRef c, QueueEntry e);

        /** Takes back an entry from a consumer that lost its partition; it comes back redelivered. */
        void revoke(QueueEntry e);

        /** A partition finished moving away from its owner (counted for the figures). */
        default void handedOff(int partition) {}
    }
}
