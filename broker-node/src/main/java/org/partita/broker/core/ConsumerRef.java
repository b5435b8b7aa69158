package org.partita.broker.core;

import org.partita.jms.protocol.selector.Selector;

/**
 * A consumer as its queue sees it: where to deliver, how many more messages it has room for
 * (credits), its selector and priority. Mutable state is touched only on the queue's executor.
 */
public final class ConsumerRef {
    private final String description;
    private final DeliverySink sink;
    private final Selector selector;
    private final Object connectionKey;
    private final boolean noLocal;
    private int credits;
    private int priority;

    public ConsumerRef(String description, DeliverySink sink, Selector selector, Object connectionKey,
                       boolean noLocal, int initialCredits, int priority) {
        this.description = description;
        this.sink = sink;
        this.selector = selector;
        this.connectionKey = connectionKey;
        this.noLocal = noLocal;
        this.credits = initialCredits;
        this.priority = priority;
    }

    public Selector selector() {
        return selector;
    }

    public Object connectionKey() {
        return connectionKey;
    }

    public boolean noLocal() {
        return noLocal;
    }

    int credits() {
        return credits;
    }

    void addCredits(int n) {
        credits = (int) Math.min(Integer.MAX_VALUE, (long) credits + n);
    }

    int priority() {
        return priority;
    }

    void priority(int p) {
        priority = p;
    }

    /** Whether this consumer's selector takes the entry (as it would be delivered next). */
    boolean accepts(QueueEntry e) {
        return selector.matchesAll()
                || selector.matches(new org.partita.jms.protocol.selector.WireMessageContext(e.message().wire(), e.deliveryCount() + 1));
    }

    static int highestPriority(Iterable<ConsumerRef> consumers) {
        int top = Integer.MIN_VALUE;
        for (ConsumerRef c : consumers) {
            top = Math.max(top, c.priority);
        }
        return top;
    }

    void deliver(QueueEntry e) {
        credits--;
        sink.deliver(this, e);
    }

    @Override
    public String toString() {
        return description;
    }
}
