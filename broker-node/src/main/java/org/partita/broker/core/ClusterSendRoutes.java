package org.partita.broker.core;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.partita.broker.core.queue.BrokerQueue;

/**
 * Where client sends to clustered queues go when they are stored, rather than when they were
 * sent: a send routed before a change of its queue's partitions or hosts (a transaction's, or one
 * held while the change drained the old layout) goes where the layout agreed now says; which
 * clustered queue holds a send back while its layout changes; and which send on its own overflows
 * to another node directly.
 */
final class ClusterSendRoutes {
    private final ClusterHooks cluster;
    private final Function<String, BrokerQueue> queues;
    /** The queues a message of a queue is put into where it is kept: itself, or a fan-out queue's AppId queues. */
    private final Function<BrokerQueue, List<BrokerQueue>> storedIn;

    ClusterSendRoutes(
            ClusterHooks cluster,
            Function<String, BrokerQueue> queues,
            Function<BrokerQueue, List<BrokerQueue>> storedIn) {
        this.cluster = cluster;
        this.queues = queues;
        this.storedIn = storedIn;
    }

    /** The clustered queue among the sends' destinations whose sends are held now; null if none is. */
    String heldBy(List<Broker.PendingSend> sends) {
        for (Broker.PendingSend s : sends) {
            if (s.routed()) {
                for (BrokerQueue t : s.targets()) {
                    BrokerQueue via = clusteredVia(t);
                    if (via != null && cluster.holdsSends(via.name())) {
                        return via.name();
                    }
                }
            }
        }
        return null;
    }

    /**
     * A client's send on its own to one clustered queue (or to a fan-out queue's AppId queues), handed
     * to another node directly when it is an unkeyed message this node has no room for, or when the
     * queue is replicated and another node serves its partition ({@link ClusterHooks#overflow}); null
     * otherwise.
     */
    java.util.concurrent.CompletableFuture<Void> overflow(Broker.PendingSend s) {
        if (!s.routed()) {
            return null;
        }
        BrokerQueue fanOut = fanOutSentTo(s.targets(), s.message());
        if (fanOut == null && s.targets().size() != 1) {
            return null;
        }
        BrokerQueue via = fanOut != null ? fanOut : clusteredVia(s.targets().get(0));
        java.util.concurrent.CompletableFuture<Void> elsewhere =
                via == null ? null : cluster.overflow(via, s.message());
        if (elsewhere != null) {
            s.targets(List.of()); // queued on no queue of this node, whose consumers must not pace its producer
        }
        return elsewhere;
    }

    /** Routes client sends to clustered queues again, by the layout agreed now. */
    void reroute(List<Broker.PendingSend> sends) {
        for (Broker.PendingSend s : sends) {
            if (!s.routed()) {
                continue;
            }
            List<BrokerQueue> targets = s.targets();
            BrokerQueue fanOut = fanOutSentTo(targets, s.message());
            if (fanOut != null) {
                BrokerQueue routed = cluster.route(fanOut, s.message());
                if (routed != fanOut) {
                    s.targets(List.of(routed));
                }
                continue;
            }
            List<BrokerQueue> now = null; // made only when a target moved: this runs for every send
            for (int i = 0; i < targets.size(); i++) {
                BrokerQueue t = targets.get(i);
                BrokerQueue via = clusteredVia(t);
                BrokerQueue target = via == null ? t : cluster.route(via, s.message());
                if (target != t && now == null) {
                    now = new ArrayList<>(targets.subList(0, i));
                }
                if (now != null) {
                    // a fan-out queue's message routed back here from its forward log goes into its
                    // AppId queues, as when it was first sent here (Broker.queueTargets)
                    now.addAll(target == via ? storedIn.apply(via) : List.of(target));
                }
            }
            if (now != null) {
                s.targets(now);
            }
        }
    }

    /**
     * The clustered fan-out queue whose AppId queues {@code targets} are, every one of them, for a
     * keyed message; null otherwise. A keyed send to a fan-out queue whose partition this node serves
     * targets its AppId queues (an entry in each), but is routed again, and overflows, as a send to the
     * fan-out queue: one made again after its replica set's leader changed then goes the way the key's
     * next sends go (straight to the set's leader behind the key's earlier sends, or through the queue's
     * forward log), not through forward logs of each AppId queue that the next sends would overtake. An
     * unkeyed message has no order to keep and goes AppId queue by AppId queue, each where it has room
     * (the fan-out queue itself holds nothing, so it is never full).
     */
    private BrokerQueue fanOutSentTo(List<BrokerQueue> targets, org.partita.broker.core.queue.MessageRef message) {
        if (targets.isEmpty() || !message.keyed()) {
            return null;
        }
        String name = Broker.fanOutQueueName(targets.get(0).name());
        BrokerQueue parent = name == null ? null : queues.apply(name);
        if (parent == null
                || !org.partita.broker.core.queue.QueueOptions.FANOUT.equals(
                        parent.options().mode())
                || parent.options().appIds().size() != targets.size()
                || !cluster.clustered(parent.options())) {
            return null;
        }
        return storedIn.apply(parent).equals(targets) ? parent : null;
    }

    /**
     * For sends about to be stored: once each of those that go to a replica set's forward log reached
     * the set's replicas ({@link ClusterHooks#reachedReplicas}); empty if none does.
     */
    List<java.util.concurrent.CompletableFuture<Void>> reachingReplicas(List<Broker.PendingSend> sends) {
        List<java.util.concurrent.CompletableFuture<Void>> out = null; // made only when one waits: every send asks
        for (Broker.PendingSend s : sends) {
            if (!s.routed()) {
                continue;
            }
            for (BrokerQueue t : s.targets()) {
                java.util.concurrent.CompletableFuture<Void> reached =
                        t.name().startsWith(Broker.FORWARD_LOG_PREFIX) ? cluster.reachedReplicas(t, s.message()) : null;
                if (reached != null) {
                    if (out == null) {
                        out = new ArrayList<>(2);
                    }
                    out.add(reached);
                }
            }
        }
        return out == null ? List.of() : out;
    }

    /**
     * The clustered queue a send's target stands for: the queue itself, or the queue a
     * store-and-forward log ({@code $forward:<node>:<queue>}) forwards to; null for other queues.
     */
    /** Whether a send's target is a clustered queue kept by replica sets, or a forward log to one. */
    boolean replicated(BrokerQueue target) {
        BrokerQueue via = clusteredVia(target);
        return via != null && cluster.replicated(via.options());
    }

    private BrokerQueue clusteredVia(BrokerQueue target) {
        String name = target.name();
        if (name.startsWith(Broker.FORWARD_LOG_PREFIX)) {
            int colon = name.indexOf(':', Broker.FORWARD_LOG_PREFIX.length());
            BrokerQueue q = colon < 0 ? null : queues.apply(name.substring(colon + 1));
            return q != null && cluster.clustered(q.options()) ? q : null;
        }
        return cluster.clustered(target.options()) ? target : null;
    }
}
