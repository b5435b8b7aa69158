package org.partita.broker.core.dispatch;

import java.util.List;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.core.queue.QueueEntry;
import org.partita.protocol.selector.Selector;
import org.partita.protocol.selector.WireMessageContext;

/**
 * A consumer as its queue sees it: where to deliver, its selector and priority, and its room:
 * credits (messages its client buffer can still take), its byte window (the bytes sent to its
 * client buffer that the client has not given credit back for; at most one message past it) and
 * capacity (the most unacknowledged messages and bytes it will hold; 0 means no limit). Mutable
 * state is touched only on the queue's executor.
 */
public final class ConsumerRef {
    private final String description;
    private final DeliverySink sink;
    private final Selector selector;
    /** The cluster node a consumer attached through a node link lives on; null for this node's own. */
    private volatile String origin;
    /** Another node's consumer that its own node gives none of its partitions (a stand-in that is free). */
    private volatile boolean spare;
    /** Takes a key's next message only once it settled the previous one (a forwarder keeps keys in order so). */
    private volatile boolean onePerKey;

    private int credits;
    /** The most bytes its client buffer holds at once, one message past it at most; 0 for no bound. */
    private long windowBytes;
    /** Bytes delivered that the client has not given credit back for. */
    private long windowUsed;
    /** Recovers of its session under way: a held consumer takes nothing (see {@link BrokerQueue#hold}). */
    private int holds;

    private int priority;
    private int capacityMessages;
    private long capacityBytes;
    private int unacked;
    private long unackedBytes;
    private long delivered;
    private long acknowledged;
    private long redelivered;

    public ConsumerRef(String description, DeliverySink sink, Selector selector, int initialCredits, int priority) {
        this.description = description;
        this.sink = sink;
        this.selector = selector;
        this.credits = initialCredits;
        this.priority = priority;
    }

    public String origin() {
        return origin;
    }

    /** This consumer is another node's, attached here over a node link. */
    public void origin(String node) {
        origin = node;
    }

    public boolean spare() {
        return spare;
    }

    public void spare(boolean spare) {
        this.spare = spare;
    }

    /**
     * From now on this consumer holds at most one message of a key at a time: it may hand messages
     * on in a way that does not keep the order of several in flight (a forwarder whose send can fail).
     */
    public void onePerKey() {
        onePerKey = true;
    }

    boolean takesOnePerKey() {
        return onePerKey;
    }

    public Selector selector() {
        return selector;
    }

    int credits() {
        return credits;
    }

    public void addCredits(int n) {
        credits = (int) Math.min(Integer.MAX_VALUE, (long) credits + n);
    }

    /** The client gave back the room of {@code messages} deliveries, {@code bytes} long together. */
    public void creditReturned(int messages, long bytes) {
        addCredits(messages);
        windowUsed = Math.max(0, windowUsed - bytes);
    }

    /** Set before the consumer is attached to its queue. */
    public void window(long bytes) {
        windowBytes = Math.max(0, bytes);
    }

    public void clearCredits() {
        credits = 0;
        windowUsed = 0; // its client buffer counts from nothing again when credit comes back
    }

    public void hold() {
        holds++;
    }

    public void resume() {
        holds--;
    }

    public int priority() {
        return priority;
    }

    public void priority(int p) {
        priority = p;
    }

    public void capacity(int messages, long bytes) {
        capacityMessages = Math.max(0, messages);
        capacityBytes = Math.max(0, bytes);
    }

    /** Whether this consumer can take one more message of some size. */
    boolean hasRoom() {
        return holds == 0
                && credits > 0
                && (windowBytes == 0 || windowUsed < windowBytes)
                && (capacityMessages == 0 || unacked < capacityMessages);
    }

    /** Whether this consumer can take this message: room, byte capacity, selector. */
    boolean canTake(QueueEntry e) {
        return hasRoom() && fits(e) && accepts(e);
    }

    /** Whether the message fits the byte capacity (one message always fits when none is held). */
    boolean fits(QueueEntry e) {
        return capacityBytes == 0 || unacked == 0 || unackedBytes + e.size() <= capacityBytes;
    }

    /** Whether this consumer's selector takes the entry (as it would be delivered next). */
    boolean accepts(QueueEntry e) {
        return selector.matchesAll()
                || selector.matches(new WireMessageContext(e.message().wire(), e.deliveryCount() + 1));
    }

    static int highestPriority(Iterable<ConsumerRef> consumers) {
        int top = Integer.MIN_VALUE;
        for (ConsumerRef c : consumers) {
            top = Math.max(top, c.priority);
        }
        return top;
    }

    /** Delivers {@code e}, already counted as delivered to this consumer ({@link QueueEntry#deliveredTo}). */
    public void deliver(QueueEntry e, int partition) {
        credits--;
        if (windowBytes > 0) {
            windowUsed += e.size();
        }
        delivered++;
        if (e.deliveryCount() > 1) {
            redelivered++; // the application saw it before: it arrives flagged redelivered
        }
        unacked++;
        unackedBytes += e.size();
        sink.deliver(this, e, partition);
    }

    /** The delivery of {@code e} ended (acknowledged, handed back or taken back). */
    public void settled(QueueEntry e) {
        unacked--;
        unackedBytes -= e.size();
    }

    /** A message delivered to it was consumed. */
    public void acknowledged() {
        acknowledged++;
    }

    /** Its figures, with the partitions it owns. */
    public ConsumerFigures figures(List<Integer> partitions) {
        return new ConsumerFigures(
                description,
                priority,
                credits,
                unacked,
                unackedBytes,
                delivered,
                acknowledged,
                redelivered,
                selector.text(),
                partitions);
    }

    void partitionsChanged(int[] owned) {
        sink.partitionsChanged(this, owned);
    }

    @Override
    public String toString() {
        return description;
    }
}
