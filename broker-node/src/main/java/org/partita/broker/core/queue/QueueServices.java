package org.partita.broker.core.queue;

import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.LongSupplier;
import org.partita.broker.core.partition.PartitionScope;
import org.partita.broker.store.MessageStore;

/** What a queue needs from its node: the store, a pool, timers, the time, and other queues by name. */
public interface QueueServices {
    MessageStore store();

    /** The node's budget of payload bytes held in memory. */
    PayloadMemory payloadMemory();

    Executor pool();

    ScheduledExecutorService timers();

    LongSupplier clock();

    /** A new message of this node, under a fresh id (a dead letter's copy, which carries properties of its own). */
    MessageRef newMessage(byte[] encoded, org.partita.protocol.WireMessage wire, Object origin);

    /**
     * Counts a message that queues hold and the store does not (a non-persistent one) against the
     * node's bound of them, until the last queue lets it go.
     */
    void countUnstored(MessageRef m);

    /** The queue named, created if needed, for dead letters and expired messages. */
    BrokerQueue terminalQueue(String name);

    /** The partitions of the queue this node hosts (all, unless the queue is spread over a cluster). */
    default PartitionScope scope(String queue, QueueOptions options) {
        return PartitionScope.ALL;
    }

    /**
     * The store that keeps the entries of a queue's partition: the node's own ({@link #store()}),
     * or, for a replicated partition of a clustered queue, its replica set's.
     */
    default MessageStore storeOf(String queue, QueueOptions options, int partition) {
        return store();
    }

    /** Whether the queue's partitions are kept by replica sets (each partition's entries in its set's store). */
    default boolean replicated(QueueOptions options) {
        return false;
    }

    /** The payload budget for messages kept in {@code store}, reading them back from it. */
    default PayloadMemory payloadMemoryOf(MessageStore store) {
        return payloadMemory();
    }

    /** Whether the queue is spread over a cluster (it then always partitions, even with one partition). */
    default boolean clustered(QueueOptions options) {
        return false;
    }

    /** A copy of {@code from} under a new id ({@code to}, dead-lettered) takes its large body along, if it has one. */
    default void bodyCopied(MessageRef from, MessageRef to) {}
}
