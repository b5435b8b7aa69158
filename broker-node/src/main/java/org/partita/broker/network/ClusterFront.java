package org.partita.broker.network;

import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.network.connection.RemoteFeed;

/**
 * What a node's network front asks of the cluster the node belongs to (none on a node of its own):
 * who is linking from another member, the feeds of other nodes for a client consumer, and whether a
 * forwarded message was already taken.
 */
public interface ClusterFront {

    /**
     * The member node a HELLO comes from, or null if it is not a node link. A node link names itself
     * as user {@code $node:<name>} and presents the cluster's secret.
     *
     * @throws SecurityException if it claims to be a node but is not one of the members or the secret is wrong
     */
    String linkingNode(String user, String password);

    /**
     * Opens the feeds of the other nodes hosting partitions of {@code queue} for a client consumer,
     * or returns null when the queue is not spread over the cluster.
     *
     * @param destination the name the consumer used (with its consumer options, such as priority)
     */
    RemoteFeed openFeed(
            BrokerQueue queue, String destination, String selector, int credit, long windowBytes, RemoteFeed.Sink sink);

    /**
     * How long a client may hand prefetched messages to its application after it last heard from this
     * node (told in HELLO_OK): shorter than the time another node needs to take this node's
     * partitions over, so a client of a node that stopped answering stops before a redelivered copy
     * can be delivered elsewhere. 0: no limit.
     */
    default int deliveryLeaseMillis() {
        return 0;
    }

    /**
     * The layout (partitions, hosts, replicas, leaders) this node routes a clustered queue's messages
     * by now; a forward routed by another refuses to be stored here. Null: nothing is checked.
     */
    default String layoutOf(String queue) {
        return null;
    }

    /**
     * Stores a message node {@code from} forwarded to {@code queue}, once: forwarding is at least
     * once, so a copy of a message from {@code from} that was stored in that queue here, or is being
     * stored, is not stored again; its answer waits for that store (and stores the copy if that store
     * failed). The same message forwarded to another queue (each AppId of a fan-out queue has its own)
     * is another message.
     *
     * @param store stores the message; called at most once per call
     */
    java.util.concurrent.CompletableFuture<Void> storeOnce(
            String from,
            String queue,
            String messageId,
            java.util.function.Supplier<java.util.concurrent.CompletableFuture<Void>> store);

    /**
     * Completes an XA branch this node does not hold ({@code request}: its commit, rollback or forget)
     * on the member that holds it: a client that failed over from the node that prepared it asks
     * here. Completes with the XA code, or fails with an {@link org.partita.broker.core.xa.XaError}:
     * {@code XAER_NOTA} only when every member said it has no such branch, {@code XAER_RMFAIL} when a
     * member that could hold it cannot be asked now.
     */
    java.util.concurrent.CompletableFuture<Integer> completeBranchElsewhere(
            org.partita.protocol.WireXid xid, java.util.function.IntFunction<org.partita.protocol.Frame> request);

    /**
     * Completes the other parts of an XA branch split over several places ({@code node:<name>},
     * {@code set:<name>}) after this node completed its own: asks every other member, and completes
     * with {@code XA_OK} once each member holding one of those places (a set's by its leader) answered
     * done or "no such branch"; fails with {@code XAER_RMFAIL} while one of them cannot be asked (down,
     * or a set without a leader), or with a member's refusal.
     */
    java.util.concurrent.CompletableFuture<Integer> completeRestElsewhere(
            org.partita.protocol.WireXid xid,
            java.util.function.IntFunction<org.partita.protocol.Frame> request,
            java.util.List<String> places);

    /** The XA branches the other members hold (prepared or heuristically completed), for a recovery scan. */
    java.util.concurrent.CompletableFuture<java.util.List<org.partita.protocol.WireXid>> branchesElsewhere();
}
