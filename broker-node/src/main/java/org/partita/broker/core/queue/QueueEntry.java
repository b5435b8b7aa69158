package org.partita.broker.core.queue;

import org.partita.broker.core.dispatch.ConsumerRef;

/**
 * A message in one queue. Touched only on its queue's executor, except the immutable fields.
 * {@code deliveryCount} counts deliveries the application has seen; a delivery that was only
 * prefetched and handed back does not count.
 */
public final class QueueEntry {
    private final BrokerQueue queue;
    private final MessageRef message;
    private int deliveryCount;
    private ConsumerRef holder;
    private int partition = -1;
    private boolean keptPastExpiration;
    /** Epoch millis before which a message handed back is not delivered again (its redelivery delay); 0: none. */
    private long redeliverAt;
    /**
     * A last value queue took a newer value of this entry's key while this one was away (in flight,
     * or locked by a transaction): it is settled when it comes back, never delivered again, even
     * once the newer value has been consumed.
     */
    private boolean replaced;

    public QueueEntry(BrokerQueue queue, MessageRef message, int deliveryCount) {
        this.queue = queue;
        this.message = message;
        this.deliveryCount = deliveryCount;
    }

    public BrokerQueue queue() {
        return queue;
    }

    public MessageRef message() {
        return message;
    }

    /** Bytes the message takes, for capacity and depth limits. */
    public int size() {
        return message.size();
    }

    public long id() {
        return message.id();
    }

    public int deliveryCount() {
        return deliveryCount;
    }

    public void deliveredTo(ConsumerRef consumer) {
        holder = consumer;
        deliveryCount++;
    }

    public void returned(boolean seen) {
        holder = null;
        if (!seen) {
            deliveryCount--;
        }
    }

    void replaced() {
        replaced = true;
    }

    boolean isReplaced() {
        return replaced;
    }

    /** Its partition is served by another node now: whoever holds it settles nothing here any more. */
    void letGo() {
        holder = null;
    }

    /** A prepared XA branch took the entry from its consumer; it keeps its delivery count. */
    void locked() {
        holder = null;
    }

    public ConsumerRef holder() {
        return holder;
    }

    /**
     * When the message handed back may be delivered again: until then it waits, and so do the later
     * messages of its key, but nothing else. Kept in memory only: a restart ends the wait.
     */
    public long redeliverAt() {
        return redeliverAt;
    }

    public void redeliverAt(long at) {
        redeliverAt = at;
    }

    /** Whether it still waits out its redelivery delay at {@code now}. */
    public boolean waitsForRedelivery(long now) {
        return redeliverAt > now;
    }

    /** In the expiry queue a message stays although its expiration passed. */
    void keepPastExpiration() {
        keptPastExpiration = true;
    }

    boolean keptPastExpiration() {
        return keptPastExpiration;
    }

    /** The partition this entry belongs to in a partitioned queue; -1 until placed, and on plain queues. */
    public int partition() {
        return partition;
    }

    public void partition(int p) {
        partition = p;
    }
}
