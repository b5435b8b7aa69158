package org.partita.broker.network;

import io.netty.channel.Channel;
import org.partita.broker.core.BrokerQueue;
import org.partita.broker.core.ConsumerRef;
import org.partita.broker.core.DeliverySink;
import org.partita.broker.core.QueueEntry;
import org.partita.broker.core.Subscription;
import org.partita.broker.core.Subscriptions;
import org.partita.jms.protocol.Frame;

/** A client's consumer on this node: bridges its queue's dispatch to Deliver frames. */
final class ServerConsumer implements DeliverySink {
    private final int id;
    private final ServerSession session;
    private final BrokerQueue queue;
    private final Channel channel;
    private final Subscription subscription;
    private final Subscriptions subscriptions;
    private ConsumerRef ref;
    private volatile boolean closed;

    /** @param subscription the topic subscription consumed, or null for a queue */
    ServerConsumer(int id, ServerSession session, BrokerQueue queue, Channel channel, Subscription subscription,
                   Subscriptions subscriptions) {
        this.id = id;
        this.session = session;
        this.queue = queue;
        this.channel = channel;
        this.subscription = subscription;
        this.subscriptions = subscriptions;
    }

    void bind(ConsumerRef ref) {
        this.ref = ref;
    }

    int id() {
        return id;
    }

    ServerSession session() {
        return session;
    }

    BrokerQueue queue() {
        return queue;
    }

    ConsumerRef ref() {
        return ref;
    }

    /** Stops deliveries: the queue forgets the consumer, and anything dispatched meanwhile goes back. */
    void close() {
        closed = true;
        queue.detach(ref);
        if (subscription != null) {
            subscriptions.consumerClosed(subscription);
        }
    }

    @Override
    public void partitionsChanged(ConsumerRef consumer, int[] owned) {
        if (!closed) {
            channel.writeAndFlush(new Frame.Partitions(id, owned), channel.voidPromise());
        }
    }

    @Override
    public void deliver(ConsumerRef consumer, QueueEntry entry, int partition) {
        if (closed) {
            queue.release(entry, consumer, false);
            return;
        }
        long deliveryId = session.track(entry, this);
        channel.writeAndFlush(new Frame.Deliver(id, deliveryId, entry.deliveryCount(), partition, entry.message().encoded()),
                channel.voidPromise());
    }
}
