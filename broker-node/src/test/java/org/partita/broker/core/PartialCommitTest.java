package org.partita.broker.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.core.partition.PartitionScope;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.core.queue.MessageRef;
import org.partita.broker.core.queue.QueueOptions;
import org.partita.broker.store.MessageStore;
import org.partita.broker.store.h2.H2MessageStore;
import org.partita.broker.store.replica.ReplicaInDoubtException;

/**
 * A transaction whose sends go to two stores (the node's and a replica set's) and whose write is
 * left in doubt by the set (it took the write and lost its leader). Found by the transacted
 * nemesis: the part the node's store took stayed out of memory, so it was delivered only after the
 * node restarted, after the producer's later messages of its keys.
 */
class PartialCommitTest {
    @TempDir
    Path tmp;

    @Test
    void thePartAnotherStoreTookIsQueuedAtOnceWhenTheSetLeavesItsPartInDoubt() {
        commitWhileTheSetFails(
                new ReplicaInDoubtException("the set took the write and lost its leader", null), List.of("to local"));
    }

    /** A set that refused its part outright: the commit is undone, the node's store's part taken back. */
    @Test
    void thePartAnotherStoreTookIsTakenBackWhenTheSetRefusesItsPart() {
        commitWhileTheSetFails(
                new org.partita.broker.store.StoreUnavailableException("the set's store cannot write", null),
                List.of());
    }

    /**
     * A transaction that consumed a message of a queue the node's store keeps, and sends to the set:
     * the node's store took the acknowledgement, the set refused its part. The message stays in flight
     * in memory (the session hands it back, flagged) and must be in the store too: before, a restart
     * at that moment lost it.
     */
    @Test
    void anAcknowledgementTheNodesStoreTookIsWrittenBackWhenTheSetRefusesItsPart() {
        AtomicBoolean failing = new AtomicBoolean();
        MessageStore setStore = H2MessageStore.open(tmp.resolve("set"), false);
        MessageStore set = failingOnDemand(
                setStore,
                failing,
                new org.partita.broker.store.StoreUnavailableException("the set's store cannot write", null));
        try (BrokerFixture node = new BrokerFixture(tmp.resolve("node"), oneReplicatedQueue(set))) {
            BrokerQueue local = node.broker().createQueue("local", QueueOptions.DEFAULTS);
            BrokerQueue replicated =
                    node.broker().createQueue("replicated", QueueOptions.DEFAULTS.with("partitions", "2"));
            node.send(local, "consumed in the transaction", java.util.Map.of());
            BrokerFixture.Receiver r = node.attach(local, "r", 1);
            org.partita.broker.core.queue.QueueEntry taken = r.next();

            failing.set(true);
            CompletableFuture<Void> commit = node.broker()
                    .commit(
                            List.of(new Broker.PendingSend(
                                    List.of(replicated), node.message(replicated, "to the set"))),
                            List.of(new Broker.Consumed(taken, r.ref)));
            assertThrows(java.util.concurrent.CompletionException.class, commit::join, "the commit failed");
            BrokerFixture.await(local.queuedWorkDone());

            node.restart(local);
            assertEquals(
                    List.of("consumed in the transaction"),
                    BrokerFixture.browse(node.broker().existingQueue("local")),
                    "the message whose acknowledgement was not committed is still stored");
        } finally {
            setStore.close();
        }
    }

    /** {@code store}, whose writes fail with {@code failure} while {@code failing} is set. */
    private static MessageStore failingOnDemand(MessageStore store, AtomicBoolean failing, Throwable failure) {
        return (MessageStore) Proxy.newProxyInstance(
                MessageStore.class.getClassLoader(), new Class<?>[] {MessageStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("write") && failing.get()) {
                        return CompletableFuture.failedFuture(failure);
                    }
                    try {
                        return method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /**
     * Commits a send to a queue kept in the node's store and one to a queue kept in the set's, the set
     * failing its part with {@code failure}: the local queue then holds {@code expected}, now and
     * after a restart (before, what the node's store took was out of memory until a restart).
     */
    private void commitWhileTheSetFails(Throwable failure, List<String> expected) {
        AtomicBoolean failing = new AtomicBoolean();
        MessageStore setStore = H2MessageStore.open(tmp.resolve("set"), false);
        MessageStore set = failingOnDemand(setStore, failing, failure);
        try (BrokerFixture node = new BrokerFixture(tmp.resolve("node"), oneReplicatedQueue(set))) {
            BrokerQueue local = node.broker().createQueue("local", QueueOptions.DEFAULTS);
            BrokerQueue replicated =
                    node.broker().createQueue("replicated", QueueOptions.DEFAULTS.with("partitions", "2"));
            MessageRef toLocal = node.message(local, "to local");
            MessageRef toSet = node.message(replicated, "to the set");

            failing.set(true);
            CompletableFuture<Void> commit = node.broker()
                    .commit(
                            List.of(
                                    new Broker.PendingSend(List.of(local), toLocal),
                                    new Broker.PendingSend(List.of(replicated), toSet)),
                            List.of());
            assertThrows(java.util.concurrent.CompletionException.class, commit::join, "the commit failed");

            assertEquals(expected, BrokerFixture.browse(local), "what the node's store holds is what waits");
            assertEquals(expected.size(), local.depth());
            assertEquals(List.of(), BrokerFixture.browse(replicated), "the set's part is not queued here");

            node.restart(local);
            assertEquals(
                    expected, BrokerFixture.browse(node.broker().existingQueue("local")), "the same after a restart");
        } finally {
            setStore.close();
        }
    }

    /** A node whose queues with two partitions keep their entries in {@code set}, as a replica set's would be. */
    private static ClusterHooks oneReplicatedQueue(MessageStore set) {
        ClusterHooks standalone = ClusterHooks.STANDALONE;
        return new ClusterHooks() {
            @Override
            public boolean clustered(QueueOptions options) {
                return standalone.clustered(options);
            }

            @Override
            public CompletableFuture<Void> define(String queue, QueueOptions options) {
                return standalone.define(queue, options);
            }

            @Override
            public BrokerQueue route(BrokerQueue queue, MessageRef message) {
                return standalone.route(queue, message);
            }

            @Override
            public CompletableFuture<String> lookup(String queue) {
                return standalone.lookup(queue);
            }

            @Override
            public PartitionScope scope(String queue, QueueOptions options) {
                return standalone.scope(queue, options);
            }

            @Override
            public boolean replicated(QueueOptions options) {
                return options.partitions() == 2;
            }

            @Override
            public MessageStore storeOf(String queue, QueueOptions options, int partition) {
                return replicated(options) ? set : null;
            }
        };
    }
}
