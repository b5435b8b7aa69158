package org.partita.broker.network.connection;

import java.util.concurrent.CompletableFuture;

/**
 * A delivery relayed from the node of the cluster that hosts the message's partition; settling it
 * goes back over the node link.
 */
record RemoteDelivery(long id, RemoteFeed.Handle handle, ServerConsumer consumer) implements Delivery {

    @Override
    public CompletableFuture<Void> ack() {
        return handle.ack();
    }

    @Override
    public void release(boolean seen) {
        handle.release(seen);
    }
}
