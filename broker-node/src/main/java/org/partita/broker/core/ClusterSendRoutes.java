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

    ClusterSendRoutes(ClusterHooks cluster, Function<String, BrokerQueue> queues) {
        this.cluster = cluster;
        this.queues = queues;
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
     * A client's send on its own to one clustered queue, handed to another node directly when it is
     * an unkeyed message this node has no room for ({@link ClusterHooks#overflow}); null otherwise.
     */
    java.util.concurrent.CompletableFuture<Void> overflow(Broker.PendingSend s) {
        if (!s.routed() || s.targets().size() != 1) {
            return null;
        }
        BrokerQueue via = clusteredVia(s.targets().get(0));
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
            List<BrokerQueue> now = null; // made only when a target moved: this runs for every send
            for (int i = 0; i < targets.size(); i++) {
                BrokerQueue t = targets.get(i);
                BrokerQueue via = clusteredVia(t);
                BrokerQueue target = via == null ? t : cluster.route(via, s.message());
                if (target != t && now == null) {
                    now = new ArrayList<>(targets);
                }
                if (now != null) {
                    now.set(i, target);
                }
            }
            if (now != null) {
                s.targets(now);
            }
        }
    }

    /**
     * For a transaction's sends about to be stored: once each of those that go to a replica set's
     * forward log reached the set's replicas ({@link ClusterHooks#reachedReplicas}); empty if none does.
     */
    List<java.util.concurrent.CompletableFuture<Void>> reachingReplicas(List<Broker.PendingSend> sends) {
        List<java.util.concurrent.CompletableFuture<Void>> out = new ArrayList<>();
        for (Broker.PendingSend s : sends) {
            if (!s.routed()) {
                continue;
            }
            for (BrokerQueue t : s.targets()) {
                java.util.concurrent.CompletableFuture<Void> reached =
                        t.name().startsWith(Broker.FORWARD_LOG_PREFIX) ? cluster.reachedReplicas(t, s.message()) : null;
                if (reached != null) {
                    out.add(reached);
                }
            }
        }
        return out;
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
