package org.partita.broker.cluster;

import java.util.concurrent.CompletableFuture;
import org.partita.jms.transport.BrokerConnection;

/**
 * The requests a {@link FeedPart} makes of the other node over a node link: a session and a
 * consumer there. Two are equal when they go over the same connection: a part compares the one it
 * opened on with its link's now, as a connection opened again reaches a restarted node that knows
 * nothing of the part's session.
 */
interface FeedConnection {
    CompletableFuture<Void> openSession(int sessionId, boolean transacted);

    CompletableFuture<Void> openConsumer(BrokerConnection.ConsumerSpec spec);

    void credit(int consumerId, int messages);

    CompletableFuture<Void> drain(int consumerId);

    CompletableFuture<Void> updateConsumer(
            int consumerId, Integer priority, Integer capacityMessages, Long capacityBytes);

    CompletableFuture<Void> spare(int consumerId, boolean spare);

    CompletableFuture<Void> ack(int sessionId, long[] deliveryIds, boolean confirm);

    CompletableFuture<Void> release(int sessionId, long[] redeliver, long[] unseen);

    /** Completes with the fence: deliveries numbered up to it are void. */
    CompletableFuture<Long> recover(int sessionId, long[] seen);

    CompletableFuture<Void> closeConsumer(int consumerId);

    CompletableFuture<Void> closeSession(int sessionId);
}
