package org.partita.broker.core.topic;

import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.core.queue.MessageRef;
import org.partita.protocol.selector.Selector;
import org.partita.protocol.selector.WireMessageContext;

/**
 * A queue fed by topics: every message published to a topic its pattern matches, and that its
 * selector accepts, is put into {@code queue}. JMS topic subscriptions (durable, shared, plain) are
 * subscriptions; so are queues that subscribe to topic patterns.
 *
 * @param noLocalOf  when not null, messages sent by this connection are not taken (JMS noLocal)
 * @param feedsQueue true when this is a queue's {@code subscriptions} option: messages go where
 *                   the queue routes them (its AppIds for a fan-out queue)
 */
public record Subscription(
        String name, BrokerQueue queue, TopicPattern pattern, Selector selector, Object noLocalOf, boolean feedsQueue) {

    /** A JMS topic subscription (not a queue's own topic feed). */
    public Subscription(String name, BrokerQueue queue, TopicPattern pattern, Selector selector, Object noLocalOf) {
        this(name, queue, pattern, selector, noLocalOf, false);
    }

    boolean takes(String topic, MessageRef m) {
        if (!pattern.matches(topic)) {
            return false;
        }
        if (noLocalOf != null && noLocalOf == m.origin()) {
            return false;
        }
        return selector.matchesAll() || selector.matches(new WireMessageContext(m.wire(), 1));
    }
}
