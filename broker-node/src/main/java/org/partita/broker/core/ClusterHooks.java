package org.partita.broker.core;

import java.util.concurrent.CompletableFuture;
import org.partita.broker.core.partition.PartitionScope;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.core.queue.MessageRef;
import org.partita.broker.core.queue.QueueFullException;
import org.partita.broker.core.queue.QueueOptions;
import org.partita.broker.store.MessageStore;

/**
 * What the broker core asks of the cluster a node may belong to, so that core knows no links and no
 * consensus: whether a queue is spread over nodes, how to agree on its definition, where a message
 * for it goes from this node, and which of its partitions this node hosts. A node on its own uses
 * {@link #STANDALONE}.
 */
public interface ClusterHooks {

    /** Whether these options make a queue spread over cluster nodes (they name its {@code hosts}). */
    boolean clustered(QueueOptions options);

    /**
     * Agrees a clustered queue's definition with the other nodes; completes once agreed. The local
     * queue is created or changed through {@link Broker#applyClusteredQueue} when the agreed
     * definition is applied on this node.
     */
    CompletableFuture<Void> define(String queue, QueueOptions options);

    /**
     * Where a message for a clustered queue goes from this node: {@code queue} itself when this node
     * hosts its partition (or, unkeyed, one with room), else the queue that forwards it to the node
     * that does.
     */
    BrokerQueue route(BrokerQueue queue, MessageRef message);

    /**
     * A client's unkeyed message sent on its own (not in a transaction) to a clustered queue this
     * node has no room for (its partitions here are full, or it hosts none of a queue with a depth
     * limit), handed straight to another node hosting the queue instead of being stored here: the
     * future completes once a node with room stored it, and fails with {@link QueueFullException}
     * when every node reached refused it as full (nothing is stored anywhere). Null when the message
     * goes where {@link #route} says.
     */
    default CompletableFuture<Void> overflow(BrokerQueue queue, MessageRef message) {
        return null;
    }

    /**
     * The agreed definition of a queue this node has not seen yet, asked of the cluster as a whole
     * (so a name used here just after another node defined it is not taken for a new local queue);
     * completes with null when the cluster has none.
     */
    CompletableFuture<String> lookup(String queue);

    /**
     * The definition the cluster agreed for a queue as it stands now (asked of the whole cluster,
     * since this node may not have applied the latest change yet); null if there is none.
     */
    default CompletableFuture<String> agreed(String queue) {
        return lookup(queue);
    }

    /** Whether a clustered queue's partitions are kept by replica sets ({@code replicas} above 1). */
    default boolean replicated(QueueOptions options) {
        return false;
    }

    /**
     * Whether a queue with options {@code a} keeps its partitions where it would with {@code b}'s, as
     * they are in effect on this cluster (an option left out and one given its default value are
     * alike): if not, changing from one to the other is a change of layout, which drains the old one.
     */
    default boolean sameLayout(QueueOptions a, QueueOptions b) {
        return a.sameLayout(b);
    }

    /**
     * The store of the replica set that keeps a replicated queue's partition on this node; null for
     * the node's own store (a queue that is not replicated).
     */
    default MessageStore storeOf(String queue, QueueOptions options, int partition) {
        return null;
    }

    /**
     * Whether a message with this JMSMessageID was stored lately in {@code queue} in a replica set this node keeps
     * (see {@link MessageStore#writtenLately}): null if not; else a future completing once that
     * write is durable, failing if it failed.
     */
    default CompletableFuture<Void> writtenLately(String queue, String messageId) {
        return null;
    }

    /**
     * For an unkeyed message sent again, not found by {@link #writtenLately} here: whether a replica
     * set of {@code queue} that this node does not serve stored it lately, as the serving leaders of
     * those sets say (asked over the links); null when this node serves every set of the queue, or
     * the queue has none. Fails with {@code IN_DOUBT} when that cannot be told within a bound (a set
     * without a serving leader all along).
     */
    default CompletableFuture<Boolean> storedInSetsServedElsewhere(String queue, String messageId) {
        return null;
    }

    /**
     * For a message about to be stored in {@code log}: if that is the forward log of a replica set
     * (a send to a partition whose set another node leads, in a transaction or behind its key), a future completing once the
     * set's leader stored the message (a majority of its replicas holds it), or once a bound passed
     * (it then waits in this node's log alone, as when the set has no leader); null for any other queue.
     * Registered before the message is stored, since it may be forwarded at once; cancelled if it is
     * not stored after all.
     */
    default CompletableFuture<Void> reachedReplicas(BrokerQueue log, MessageRef message) {
        return null;
    }

    /** This node's name in its cluster ({@code node} on a node of its own). */
    default String memberName() {
        return "node";
    }

    /** Whether this node serves the replica set now: it leads it and read its store back. */
    default boolean serves(String set) {
        return false;
    }

    /**
     * Whether a replica set this node keeps is between leaders as this node sees it (no leader known,
     * or led here and not read back yet): the prepared XA branches its store holds may be nowhere in
     * memory meanwhile, so "no such branch" cannot be said for sure.
     */
    default boolean setsSettling() {
        return false;
    }

    /** The partitions of a clustered queue this node hosts, and its preferences among consumers. */
    PartitionScope scope(String queue, QueueOptions options);

    /**
     * Changes a clustered queue's partition count or hosting nodes, agreed with the other nodes;
     * completes once every node routes by the new layout, or fails (the old layout kept) if the
     * change could not complete. The local queue is changed through {@link Broker#applyClusteredQueue}.
     */
    default CompletableFuture<Void> relayout(String queue, QueueOptions options) {
        return CompletableFuture.failedFuture(
                new IllegalArgumentException("queue '" + queue + "' is not spread over a cluster"));
    }

    /**
     * Whether sends to this clustered queue are held now: while its partitions or hosts change, what
     * is sent to it waits, in order, until the nodes agree the new layout (false for the thread that
     * lets the held sends go).
     */
    default boolean holdsSends(String queue) {
        return false;
    }

    /**
     * Holds {@code send} behind the sends already held for {@code queue}: it runs, in arrival order,
     * once the change of layout ended. False if the queue holds no sends (any more): run it now.
     */
    default boolean holdSend(String queue, Runnable send) {
        return false;
    }

    ClusterHooks STANDALONE = new ClusterHooks() {
        @Override
        public boolean clustered(QueueOptions options) {
            return false;
        }

        @Override
        public CompletableFuture<Void> define(String queue, QueueOptions options) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("queue '" + queue
                    + "' names hosts, but this node is not a member of a cluster (see docs/cluster.md)"));
        }

        @Override
        public CompletableFuture<String> lookup(String queue) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public BrokerQueue route(BrokerQueue queue, MessageRef message) {
            return queue;
        }

        @Override
        public PartitionScope scope(String queue, QueueOptions options) {
            return PartitionScope.ALL;
        }
    };
}
