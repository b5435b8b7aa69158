package org.partita.broker.network.connection;

import java.util.Collection;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * What a client consumer of a queue spread over the cluster receives from the other nodes hosting
 * its partitions: the cluster opens a consumer on each of them over the node links, and this node
 * relays their deliveries. The client's credit and drains, priority changes and recovers go to all
 * of them; deliveries and the partitions owned come back through the {@link Sink}.
 */
public interface RemoteFeed {

    /** One relayed delivery, as the node it came from knows it. */
    interface Handle {
        /** Acknowledges it on its node; completes once that is durable there. */
        CompletableFuture<Void> ack();

        void release(boolean seen);

        /** The feed it came from (a recover fences each feed as a whole). */
        RemoteFeed feed();
    }

    /** Where relayed deliveries and partition changes go. Called on link threads; must not block. */
    interface Sink {
        void deliver(Handle handle, int deliveryCount, int partition, byte[] message);

        /** The partitions this consumer owns on the other nodes changed (their union). */
        void partitionsChanged(Set<Integer> owned);
    }

    /** The client granted credit: each node of the feed may deliver that much more. */
    void credit(int messages);

    /**
     * The client gave back the room of these deliveries (a consumer with a byte window): each node
     * that made some may deliver that many more, within its window.
     */
    void returned(java.util.List<Handle> delivered);

    /** Takes the credit back on every node; completes once nothing it allowed can still arrive. */
    CompletableFuture<Void> drain();

    void update(Integer priority, Integer capacityMessages, Long capacityBytes);

    /**
     * Whether this node gives the consumer none of its own partitions of the queue: the other
     * hosting nodes may then give it some of theirs (docs/cluster.md, "Consuming"). Called in the
     * order this node's assignments change.
     */
    void spare(boolean spare);

    /**
     * The client's session recovers (or rolls back): from now on, deliveries still on their way from
     * the other nodes are held back. Called before the session takes its own fence.
     */
    void holdDeliveries();

    /**
     * Gives back everything this feed delivered and the client did not acknowledge: {@code seen}
     * redelivered, the rest unseen; drops what crossed the recover on the wire, then lets later
     * deliveries through.
     */
    void recover(Collection<Handle> seen);

    /**
     * The client consumer closed: the consumers on the other nodes close too. Their sessions stay
     * open: what the application received through them is still its session's to acknowledge,
     * commit or roll back (JMS), until {@link #close}.
     */
    void closeConsumers();

    /** The client's session ended: the sessions on the other nodes end too (after {@link #closeConsumers}). */
    void close();
}
