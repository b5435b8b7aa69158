package org.partita.broker.cluster;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.partita.broker.store.replica.ReplicaSetFigures;
import org.partita.jms.transport.NettyBrokerConnection;

/**
 * How far each follower of a replica set is behind, for any node's {@code cluster.status}: only a
 * set's leader knows it (Ratis's log appenders run there), so the node asked reads its own sets and
 * asks each other node leading a set, once, for its answer to the admin command {@code replica.lag}.
 * The same answer names the sets a node leads, which is how a node learns the leader of a set it is
 * not in (with more nodes than replicas it hears nothing of that set's elections).
 */
public final class ReplicaLagGather {
    private ReplicaLagGather() {}

    /**
     * This node's answer to {@code replica.lag}: a line per set it leads, {@code <set>=<follower>:<entries>,...}
     * (the form {@code cluster.status} shows as {@code followerLag}; node names hold neither ':' nor ',').
     */
    public static String format(List<ReplicaSetFigures> figures) {
        StringBuilder out = new StringBuilder();
        for (ReplicaSetFigures f : figures) {
            if (f.leading() && !f.lagEntries().isEmpty()) {
                out.append(f.set()).append('=').append(lagList(f.lagEntries())).append('\n');
            }
        }
        return out.toString();
    }

    /** {@code <follower>:<entries>,...} in the map's order. */
    static String lagList(Map<String, Long> lag) {
        StringBuilder out = new StringBuilder();
        lag.forEach((follower, entries) -> out.append(out.length() == 0 ? "" : ",")
                .append(follower)
                .append(':')
                .append(entries));
        return out.toString();
    }

    /** {@code replica.lag}'s lines, by set then follower; what it does not understand is skipped. */
    static Map<String, Map<String, Long>> parse(String reply) {
        Map<String, Map<String, Long>> bySet = new HashMap<>();
        for (String line : reply.split("\n")) {
            int eq = line.indexOf('=');
            if (eq <= 0) {
                continue;
            }
            Map<String, Long> lag = new HashMap<>();
            for (String pair : line.substring(eq + 1).split(",")) {
                int colon = pair.lastIndexOf(':');
                try {
                    if (colon > 0) {
                        lag.put(
                                pair.substring(0, colon).trim(),
                                Long.parseLong(pair.substring(colon + 1).trim()));
                    }
                } catch (NumberFormatException notOurs) {
                    // not a lag figure
                }
            }
            bySet.put(line.substring(0, eq).trim(), lag);
        }
        return bySet;
    }

    /**
     * The status with the follower lag of every replicated partition whose set another node leads,
     * as that node answered within {@code timeoutMillis}; partitions whose leader is down, unknown
     * or silent keep no lag figure.
     */
    static CompletableFuture<ClusterStatus> fillFromLeaders(
            ClusterStatus status, Map<String, PeerLink> links, long timeoutMillis) {
        Set<String> leaders = new LinkedHashSet<>();
        for (ClusterStatus.Queue q : status.queues()) {
            q.replicas().forEach((p, r) -> {
                String leader = leaderOf(q, p);
                if (r.followerLag().isEmpty() && leader != null && !leader.equals(status.self())) {
                    leaders.add(leader);
                }
            });
        }
        if (leaders.isEmpty()) {
            return CompletableFuture.completedFuture(status);
        }
        return askEach(leaders, links, timeoutMillis).thenApply(answers -> {
            Map<String, Map<String, Long>> bySet = new HashMap<>();
            answers.values().forEach(bySet::putAll);
            return status.withQueues(
                    status.queues().stream().map(q -> withLag(q, bySet)).toList());
        });
    }

    /**
     * The status with the leader of every replicated partition whose set this node is not in, and that
     * set's follower lag, as the set's members answered within {@code timeoutMillis}: the member that
     * names the set among those it leads. Partitions none of whose members answers so stay unknown.
     */
    static CompletableFuture<ClusterStatus> fillLeadersOfOtherSets(
            ClusterStatus status, Map<String, PeerLink> links, long timeoutMillis) {
        Set<String> members = new LinkedHashSet<>();
        for (ClusterStatus.Queue q : status.queues()) {
            q.replicas().forEach((p, r) -> {
                if (leaderOf(q, p) == null && !r.nodes().contains(status.self())) {
                    members.addAll(r.nodes());
                }
            });
        }
        if (members.isEmpty()) {
            return CompletableFuture.completedFuture(status);
        }
        return askEach(members, links, timeoutMillis).thenApply(answers -> {
            Map<String, String> leaderOfSet = new HashMap<>();
            Map<String, Map<String, Long>> lagBySet = new HashMap<>();
            answers.forEach((member, answer) -> answer.forEach((set, lag) -> {
                leaderOfSet.put(set, member);
                lagBySet.put(set, lag);
            }));
            return status.withQueues(status.queues().stream()
                    .map(q -> withLag(withLeaders(q, leaderOfSet), lagBySet))
                    .toList());
        });
    }

    /** Each node's answer to {@code replica.lag} (by set then follower), by node; empty for one that did not answer in time. */
    private static CompletableFuture<Map<String, Map<String, Map<String, Long>>>> askEach(
            Set<String> nodes, Map<String, PeerLink> links, long timeoutMillis) {
        Map<String, CompletableFuture<Map<String, Map<String, Long>>>> answers = new LinkedHashMap<>();
        for (String node : nodes) {
            answers.put(node, ask(links.get(node), timeoutMillis));
        }
        return CompletableFuture.allOf(answers.values().toArray(CompletableFuture[]::new))
                .thenApply(v -> {
                    Map<String, Map<String, Map<String, Long>>> out = new LinkedHashMap<>();
                    answers.forEach((node, answer) -> out.put(node, answer.join()));
                    return out;
                });
    }

    /** The queue with each unknown leader ("?") of a set in {@code leaderOfSet} named. */
    private static ClusterStatus.Queue withLeaders(ClusterStatus.Queue q, Map<String, String> leaderOfSet) {
        List<String> hosts = new java.util.ArrayList<>(q.hosts());
        q.replicas().forEach((p, r) -> {
            String leader = leaderOfSet.get(Placement.setName(r.nodes()));
            if (p < hosts.size() && leader != null && "?".equals(hosts.get(p))) {
                hosts.set(p, leader);
            }
        });
        return q.withHosts(List.copyOf(hosts));
    }

    private static CompletableFuture<Map<String, Map<String, Long>>> ask(PeerLink link, long timeoutMillis) {
        NettyBrokerConnection c = link == null ? null : link.connection();
        if (c == null) {
            return CompletableFuture.completedFuture(Map.of()); // down: its figures are unknown
        }
        return c.admin("replica.lag", "")
                .thenApply(ReplicaLagGather::parse)
                .completeOnTimeout(Map.of(), timeoutMillis, TimeUnit.MILLISECONDS)
                .exceptionally(t -> Map.of()); // a node of an older version, or one that went down meanwhile
    }

    private static ClusterStatus.Queue withLag(ClusterStatus.Queue q, Map<String, Map<String, Long>> bySet) {
        Map<Integer, ClusterStatus.Replicas> replicas = new LinkedHashMap<>();
        q.replicas().forEach((p, r) -> {
            Map<String, Long> lag = bySet.get(Placement.setName(r.nodes()));
            if (!r.followerLag().isEmpty() || lag == null) {
                replicas.put(p, r);
                return;
            }
            Map<String, Long> ordered = new LinkedHashMap<>(); // in replica order, as this node's own figures
            for (String n : r.nodes()) {
                Long entries = lag.get(n);
                if (entries != null) {
                    ordered.put(n, entries);
                }
            }
            replicas.put(p, new ClusterStatus.Replicas(r.nodes(), r.leaderSince(), ordered));
        });
        return q.withReplicas(replicas);
    }

    /** The partition's leader as the status names it (its host column), or null while unknown. */
    private static String leaderOf(ClusterStatus.Queue q, int partition) {
        if (partition >= q.hosts().size()) {
            return null;
        }
        String leader = q.hosts().get(partition);
        return "?".equals(leader) ? null : leader;
    }
}
