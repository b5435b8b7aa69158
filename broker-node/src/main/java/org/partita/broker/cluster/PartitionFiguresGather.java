package org.partita.broker.cluster;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.partita.broker.core.Broker;
import org.partita.broker.core.partition.PartitionFigures;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.jms.transport.NettyBrokerConnection;

/**
 * Asks each node hosting partitions of a clustered queue for their figures (this node reads its own
 * queue; another answers the admin command {@code queue.figures} over the link) and keeps, of each
 * answer, the partitions that node hosts: only the host knows a partition's depth and owner.
 */
final class PartitionFiguresGather {
    private static final String OF_NODE = " of node ";

    private PartitionFiguresGather() {}

    static CompletableFuture<ClusterStatus.Queue> gather(
            ClusterStatus.Queue q, String self, Broker broker, Map<String, PeerLink> links, long timeoutMillis) {
        Set<String> hosts = new LinkedHashSet<>(q.hosts());
        List<CompletableFuture<Map<Integer, ClusterStatus.Partition>>> answers = new ArrayList<>();
        for (String host : hosts) {
            answers.add(ask(q.name(), host, self, broker, links.get(host))
                    .thenApply(all -> hostedBy(all, q.hosts(), host))
                    .completeOnTimeout(Map.of(), timeoutMillis, TimeUnit.MILLISECONDS)
                    .exceptionally(t -> Map.of()));
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
                .thenApply(v -> {
                    Map<Integer, ClusterStatus.Partition> figures = new TreeMap<>();
                    answers.forEach(a -> figures.putAll(a.join()));
                    return q.withFigures(figures);
                });
    }

    private static CompletableFuture<Map<Integer, ClusterStatus.Partition>> ask(
            String queue, String host, String self, Broker broker, PeerLink link) {
        if (host.equals(self)) {
            BrokerQueue local = broker.existingQueue(queue);
            return local == null
                    ? CompletableFuture.completedFuture(Map.of())
                    : local.partitionFigures().thenApply(figures -> fromLocal(figures, host));
        }
        NettyBrokerConnection c = link == null ? null : link.connection();
        if (c == null) {
            return CompletableFuture.completedFuture(Map.of()); // down: its figures are unknown
        }
        return c.admin("queue.figures", queue).thenApply(reply -> fromReply(reply, host));
    }

    private static Map<Integer, ClusterStatus.Partition> fromLocal(
            List<PartitionFigures.Current> figures, String host) {
        Map<Integer, ClusterStatus.Partition> out = new TreeMap<>();
        for (PartitionFigures.Current f : figures) {
            out.put(
                    f.partition(),
                    new ClusterStatus.Partition(f.depth(), f.inFlight(), f.owner(), ownerNode(f.owner(), host)));
        }
        return out;
    }

    /** {@code partition.<p>.depth=..} lines, as {@code queue.figures} answers. */
    static Map<Integer, ClusterStatus.Partition> fromReply(String reply, String host) {
        Map<Integer, Map<String, String>> byPartition = new TreeMap<>();
        for (String line : reply.split("\n")) {
            int eq = line.indexOf('=');
            if (!line.startsWith("partition.") || eq < 0) {
                continue;
            }
            String key = line.substring("partition.".length(), eq);
            int dot = key.indexOf('.');
            if (dot < 0) {
                continue;
            }
            try {
                int p = Integer.parseInt(key.substring(0, dot));
                byPartition
                        .computeIfAbsent(p, k -> new java.util.HashMap<>())
                        .put(key.substring(dot + 1), line.substring(eq + 1));
            } catch (NumberFormatException notAPartition) {
                // another figure: not ours
            }
        }
        Map<Integer, ClusterStatus.Partition> out = new TreeMap<>();
        byPartition.forEach((p, fields) -> {
            String owner = fields.get("owner");
            owner = owner == null || owner.isEmpty() || owner.equals("null") ? null : owner;
            out.put(
                    p,
                    new ClusterStatus.Partition(
                            intOf(fields.get("depth")), intOf(fields.get("inFlight")), owner, ownerNode(owner, host)));
        });
        return out;
    }

    private static int intOf(String v) {
        try {
            return v == null ? 0 : Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The host's own client consumers are on the host; a relayed one is named by the node it serves. */
    static String ownerNode(String owner, String host) {
        if (owner == null) {
            return null;
        }
        int at = owner.lastIndexOf(OF_NODE);
        return at >= 0 ? owner.substring(at + OF_NODE.length()) : host;
    }

    private static Map<Integer, ClusterStatus.Partition> hostedBy(
            Map<Integer, ClusterStatus.Partition> all, List<String> hosts, String host) {
        Map<Integer, ClusterStatus.Partition> out = new TreeMap<>();
        all.forEach((p, f) -> {
            if (p < hosts.size() && hosts.get(p).equals(host)) {
                out.put(p, f);
            }
        });
        return out;
    }
}
