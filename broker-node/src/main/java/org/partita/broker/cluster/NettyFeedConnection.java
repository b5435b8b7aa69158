package org.partita.broker.cluster;

import java.util.concurrent.CompletableFuture;
import org.partita.jms.transport.BrokerConnection;
import org.partita.jms.transport.NettyBrokerConnection;

/** What a feed part asks of the other node, over the node link's connection; equal for the same connection. */
record NettyFeedConnection(NettyBrokerConnection netty) implements FeedConnection {
    @Override
    public CompletableFuture<Void> openSession(int sessionId, boolean transacted) {
        return netty.openSession(sessionId, transacted);
    }

    @Override
    public CompletableFuture<Void> openConsumer(BrokerConnection.ConsumerSpec spec) {
        return netty.openConsumer(spec);
    }

    @Override
    public void credit(int consumerId, int messages) {
        netty.credit(consumerId, messages);
    }

    @Override
    public CompletableFuture<Void> drain(int consumerId) {
        return netty.drain(consumerId);
    }

    @Override
    public CompletableFuture<Void> updateConsumer(
            int consumerId, Integer priority, Integer capacityMessages, Long capacityBytes) {
        return netty.updateConsumer(consumerId, priority, capacityMessages, capacityBytes);
    }

    @Override
    public CompletableFuture<Void> spare(int consumerId, boolean spare) {
        return netty.spare(consumerId, spare);
    }

    @Override
    public CompletableFuture<Void> ack(int sessionId, long[] deliveryIds, boolean confirm) {
        return netty.ack(sessionId, deliveryIds, confirm);
    }

    @Override
    public CompletableFuture<Void> release(int sessionId, long[] redeliver, long[] unseen) {
        return netty.release(sessionId, redeliver, unseen);
    }

    @Override
    public CompletableFuture<Long> recover(int sessionId, long[] seen) {
        return netty.recover(sessionId, seen);
    }

    @Override
    public CompletableFuture<Void> closeConsumer(int consumerId) {
        return netty.closeConsumer(consumerId);
    }

    @Override
    public CompletableFuture<Void> closeSession(int sessionId) {
        return netty.closeSession(sessionId);
    }
}
