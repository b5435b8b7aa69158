package org.partita.broker.core;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.core.partition.PartitionScope;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.core.queue.MessageRef;
import org.partita.broker.core.queue.QueueFullException;
import org.partita.broker.core.queue.QueueOptions;
import org.partita.protocol.MessageCodec;
import org.partita.protocol.WireMessage;

/**
 * Where a client's send to a clustered queue goes is decided when it is stored, by the layout
 * agreed then, and a send to a queue whose layout is changing waits. The node is real (a Broker
 * over a real store); the cluster around it is {@link Layouts}, which says where messages go and
 * which queues hold their sends, as the cluster would after agreeing a change.
 */
class ClusterSendRoutesTest {
    private static final QueueOptions CLUSTERED = QueueOptions.DEFAULTS.with("hosts", "n1,n2");

    @TempDir
    Path tmp;

    private final Layouts cluster = new Layouts();
    private BrokerFixture node;
    private BrokerQueue orders;
    private BrokerQueue toN2;
    private BrokerQueue plain;
    private ClusterSendRoutes routes;

    @BeforeEach
    void start() {
        node = new BrokerFixture(tmp.resolve("node"), cluster);
        Broker b = node.broker();
        orders = b.createQueue("orders", CLUSTERED);
        toN2 = b.createQueue(Broker.FORWARD_LOG_PREFIX + "n2:orders", QueueOptions.TERMINAL);
        plain = b.createQueue("plain", QueueOptions.DEFAULTS);
        routes = new ClusterSendRoutes(cluster, b::existingQueue, b::storedIn);
    }

    @AfterEach
    void stop() {
        node.close();
    }

    private MessageRef message() {
        return textMessage("m");
    }

    private static List<String> names(Broker.PendingSend s) {
        return s.targets().stream().map(BrokerQueue::name).toList();
    }

    @Test
    void aSendIsHeldOnlyByAClusteredQueueChangingItsLayout() {
        Broker.PendingSend toOrders = Broker.PendingSend.routed(List.of(plain, orders), message());
        Broker.PendingSend viaLog = Broker.PendingSend.routed(List.of(toN2), message());
        Broker.PendingSend forwarded = new Broker.PendingSend(List.of(orders), message(), 1);
        assertNull(routes.heldBy(List.of(toOrders, viaLog)), "no change under way");

        cluster.holding.add("orders");
        assertEquals("orders", routes.heldBy(List.of(toOrders)));
        assertEquals("orders", routes.heldBy(List.of(viaLog)), "a forward log stands for the queue it forwards to");
        assertNull(routes.heldBy(List.of(forwarded)), "a message another node forwarded is not routed again");
        assertNull(
                routes.heldBy(List.of(Broker.PendingSend.routed(List.of(plain), message()))),
                "a queue of this node alone is never held");
    }

    @Test
    void rerouteSendsEachClusteredTargetWhereTheLayoutSaysNow() {
        Broker.PendingSend s = Broker.PendingSend.routed(List.of(plain, orders), message());
        cluster.routes.put("orders", toN2); // the message's partition moved to n2
        routes.reroute(List.of(s));
        assertEquals(List.of("plain", toN2.name()), names(s), "the plain queue stays, the clustered one moves");

        cluster.routes.put("orders", orders); // and back to this node
        routes.reroute(List.of(s));
        assertEquals(
                List.of("plain", "orders"), names(s), "a forward log's message goes where its queue's layout says");
    }

    @Test
    void aSendToAFanOutQueuesAppIdsIsRoutedAgainAndOverflowsAsASendToTheFanOutQueue() {
        Broker b = node.broker();
        BrokerQueue fan = b.createQueue("fan", CLUSTERED.with("mode", "fanout").with("appIds", "billing,audit"));
        List<BrokerQueue> appIds = b.storedIn(fan);
        assertEquals(
                List.of("fan#billing", "fan#audit"),
                appIds.stream().map(BrokerQueue::name).toList());
        BrokerQueue fanToN2 = b.createQueue(Broker.FORWARD_LOG_PREFIX + "n2:fan", QueueOptions.TERMINAL);
        // the AppId queues would route on their own to logs of their own, which the fan-out queue's
        // next sends never look at: a send made again after a change of leader would be overtaken
        cluster.routes.put("fan#billing", orders);
        cluster.routes.put("fan#audit", orders);

        Broker.PendingSend unkeyed = Broker.PendingSend.routed(appIds, message());
        cluster.routes.put("fan", fanToN2);
        routes.reroute(List.of(unkeyed));
        assertEquals(
                List.of("orders", "orders"),
                names(unkeyed),
                "an unkeyed message keeps no order: each AppId queue goes where it has room");
        cluster.routes.remove("fan");

        Broker.PendingSend s = Broker.PendingSend.routed(appIds, keyedMessage("m", "k1"));
        routes.reroute(List.of(s));
        assertEquals(appIds, s.targets(), "the fan-out queue's partition is still served here");

        cluster.routes.put("fan", fanToN2); // served elsewhere now
        routes.reroute(List.of(s));
        assertEquals(List.of(fanToN2.name()), names(s), "one entry, in the fan-out queue's forward log");

        cluster.routes.remove("fan"); // and served here again before it was stored
        routes.reroute(List.of(s));
        assertEquals(appIds, s.targets(), "into the AppId queues again, not the fan-out queue itself");

        CompletableFuture<Void> leader = new CompletableFuture<>();
        cluster.overflows.put("fan", leader);
        Broker.PendingSend alone = Broker.PendingSend.routed(appIds, keyedMessage("alone", "k1"));
        CompletableFuture<Void> sent = b.send(alone);
        assertFalse(sent.isDone(), "handed on as a send to the fan-out queue, confirmed once that is");
        leader.complete(null);
        BrokerFixture.await(sent);
        assertEquals(1, cluster.overflowed.get());
        assertEquals(List.of(), BrokerFixture.browse(appIds.get(0)), "not stored here");
    }

    @Test
    void aSendWaitingInAReplicaSetsForwardLogIsConfirmedOnceTheSetStoredItAloneOrInATransaction() {
        BrokerQueue toSet =
                node.broker().createQueue(Broker.FORWARD_LOG_PREFIX + "n2+n3+n1:orders", QueueOptions.TERMINAL);
        cluster.routes.put("orders", toSet); // behind the key's earlier messages in the set's log
        CompletableFuture<Void> alone =
                node.broker().send(Broker.PendingSend.routed(List.of(orders), keyedMessage("alone", "k1")));
        CompletableFuture<Void> commit = node.broker()
                .commit(
                        List.of(Broker.PendingSend.routed(List.of(orders), keyedMessage("in a transaction", "k1"))),
                        List.of());
        await().atMost(java.time.Duration.ofSeconds(10)).until(() -> cluster.reaching.size() == 2);
        assertEquals(List.of("alone", "in a transaction"), BrokerFixture.browse(toSet), "stored in the log");
        assertFalse(alone.isDone(), "not confirmed while only this node's log holds it");
        assertFalse(commit.isDone(), "nor the commit");
        cluster.reaching.forEach(r -> r.complete(null)); // the set's leader stored them
        BrokerFixture.await(alone);
        BrokerFixture.await(commit);
    }

    @Test
    void rerouteLeavesFinalTargetsAlone() {
        Broker.PendingSend forwarded = new Broker.PendingSend(List.of(orders), message(), 1);
        cluster.routes.put("orders", toN2);
        routes.reroute(List.of(forwarded));
        assertEquals(List.of("orders"), names(forwarded));
    }

    @Test
    void aSendHeldDuringAChangeIsStoredWhereTheNewLayoutSays() {
        cluster.holding.add("orders");
        Broker.PendingSend send = Broker.PendingSend.routed(List.of(orders), textMessage("held"));
        CompletableFuture<Void> stored = node.broker().send(send);
        assertFalse(stored.isDone(), "held while the layout changes");
        assertEquals(1, cluster.heldSends("orders"));
        assertEquals(0, orders.depth(), "nothing counted against the old target yet");

        cluster.routes.put("orders", toN2); // the change agreed: its partition is on n2 now
        cluster.endChange("orders");
        BrokerFixture.await(stored);
        assertEquals(List.of("held"), BrokerFixture.browse(toN2));
        assertEquals(List.of(), BrokerFixture.browse(orders));
    }

    @Test
    void onlyASendOnItsOwnOverflowsToAnotherNodeAndIsNotStoredHere() {
        CompletableFuture<Void> otherNode = new CompletableFuture<>();
        cluster.overflows.put("orders", otherNode);
        Broker.PendingSend alone = Broker.PendingSend.routed(List.of(orders), textMessage("alone"));
        CompletableFuture<Void> sent = node.broker().send(alone);
        assertFalse(sent.isDone(), "confirmed only once the other node stored it");
        assertEquals(List.of(), names(alone), "queued on no queue of this node");
        otherNode.complete(null);
        BrokerFixture.await(sent);
        assertEquals(1, cluster.overflowed.get());
        assertEquals(List.of(), BrokerFixture.browse(orders), "not stored here");

        BrokerFixture.await(node.broker()
                .commit(
                        List.of(Broker.PendingSend.routed(List.of(orders), textMessage("in a transaction"))),
                        List.of()));
        BrokerFixture.await(node.broker().send(new Broker.PendingSend(List.of(orders), textMessage("forwarded"), 0)));
        assertEquals(
                1,
                cluster.overflowed.get(),
                "a transaction's send, and a message another node forwarded, are" + " stored where they are routed");
        assertEquals(List.of("in a transaction", "forwarded"), BrokerFixture.browse(orders));
    }

    @Test
    void aSendRefusedByEveryOtherNodeFailsAndIsNotStoredHere() {
        cluster.overflows.put("orders", CompletableFuture.failedFuture(new QueueFullException("every node is full")));
        CompletableFuture<Void> sent =
                node.broker().send(Broker.PendingSend.routed(List.of(orders), textMessage("refused")));
        assertEquals(
                QueueFullException.class,
                assertThrows(java.util.concurrent.CompletionException.class, sent::join)
                        .getCause()
                        .getClass());
        assertEquals(List.of(), BrokerFixture.browse(orders));
    }

    @Test
    void aSendHeldDuringAChangeOverflowsWhenItGoes() {
        cluster.holding.add("orders");
        cluster.overflows.put("orders", CompletableFuture.completedFuture(null));
        CompletableFuture<Void> stored =
                node.broker().send(Broker.PendingSend.routed(List.of(orders), textMessage("held")));
        assertFalse(stored.isDone(), "held while the layout changes");
        assertEquals(0, cluster.overflowed.get(), "not sent to another node while held");

        cluster.endChange("orders");
        BrokerFixture.await(stored);
        assertEquals(1, cluster.overflowed.get());
        assertEquals(List.of(), BrokerFixture.browse(orders));
    }

    private MessageRef textMessage(String text) {
        return textMessage(text, Map.of());
    }

    /** A message of key {@code key} ({@code JMSXGroupID}). */
    private MessageRef keyedMessage(String text, String key) {
        return textMessage(text, Map.of("JMSXGroupID", key));
    }

    private MessageRef textMessage(String text, Map<String, Object> properties) {
        WireMessage wire = new WireMessage(
                "ID:" + text,
                1L,
                null,
                null,
                "q:orders",
                null,
                WireMessage.PERSISTENT,
                4,
                0L,
                0L,
                properties,
                WireMessage.BODY_TEXT,
                text.getBytes(StandardCharsets.UTF_8));
        return node.broker().newMessage(MessageCodec.encode(wire), wire, null);
    }

    /** The cluster as the node sees it: a queue with hosts is clustered; routes and held sends are set by the test. */
    static final class Layouts implements ClusterHooks {
        final Map<String, BrokerQueue> routes = new ConcurrentHashMap<>();
        final Set<String> holding = ConcurrentHashMap.newKeySet();
        private final Map<String, List<Runnable>> held = new HashMap<>();
        /** Per queue: what another node answers a send on its own this node has no room for. */
        final Map<String, CompletableFuture<Void>> overflows = new ConcurrentHashMap<>();

        final java.util.concurrent.atomic.AtomicInteger overflowed = new java.util.concurrent.atomic.AtomicInteger();

        /** What the sends stored in a replica set's forward log wait for: the set's leader storing them. */
        final List<CompletableFuture<Void>> reaching = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public CompletableFuture<Void> reachedReplicas(BrokerQueue log, MessageRef message) {
            if (!log.name().contains("+")) {
                return null; // a node's forward log: confirmed once stored here
            }
            CompletableFuture<Void> reached = new CompletableFuture<>();
            reaching.add(reached);
            return reached;
        }

        @Override
        public CompletableFuture<Void> overflow(BrokerQueue queue, MessageRef message) {
            CompletableFuture<Void> answer = overflows.get(queue.name());
            if (answer == null || holding.contains(queue.name())) {
                return null;
            }
            overflowed.incrementAndGet();
            return answer;
        }

        @Override
        public boolean clustered(QueueOptions options) {
            return !options.hosts().isEmpty();
        }

        @Override
        public CompletableFuture<Void> define(String queue, QueueOptions options) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public BrokerQueue route(BrokerQueue queue, MessageRef message) {
            return routes.getOrDefault(queue.name(), queue);
        }

        @Override
        public CompletableFuture<String> lookup(String queue) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public PartitionScope scope(String queue, QueueOptions options) {
            return PartitionScope.ALL;
        }

        @Override
        public boolean holdsSends(String queue) {
            return holding.contains(queue);
        }

        @Override
        public synchronized boolean holdSend(String queue, Runnable send) {
            if (!holding.contains(queue)) {
                return false;
            }
            held.computeIfAbsent(queue, q -> new ArrayList<>()).add(send);
            return true;
        }

        synchronized int heldSends(String queue) {
            return held.getOrDefault(queue, List.of()).size();
        }

        /** The nodes agreed the new layout: held sends go, in order. */
        void endChange(String queue) {
            List<Runnable> go;
            synchronized (this) {
                holding.remove(queue);
                go = held.remove(queue);
            }
            if (go != null) {
                go.forEach(Runnable::run);
            }
        }
    }
}
