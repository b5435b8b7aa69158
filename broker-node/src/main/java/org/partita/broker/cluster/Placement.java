package org.partita.broker.cluster;

import java.util.List;
import org.partita.broker.config.ClusterConfig;
import org.partita.broker.core.queue.QueueOptions;

/**
 * Where a clustered queue's partitions live: partition {@code p} of a queue with hosts
 * {@code h0..hn-1} (in the order its {@code hosts} option names them, {@code *} meaning every member
 * sorted by name, whatever the order of each node's list) is hosted by {@code h[p mod n]}. The rule depends only on
 * the agreed definition, so every node computes the same placement, and every hosting node gets at
 * least one partition (a clustered queue needs at least as many partitions as hosts).
 */
final class Placement {
    private Placement() {}

    static List<String> hosts(QueueOptions options, ClusterConfig cluster) {
        List<String> named = options.hosts();
        if (everyMember(named)) {
            // sorted: placement must not depend on the order each node's cluster.nodes lists them in
            return cluster.memberNames().stream().sorted().toList();
        }
        return named;
    }

    /** How many hosts the queue names, without building the list (asked at every send). */
    private static int hostCount(QueueOptions options, ClusterConfig cluster) {
        List<String> named = options.hosts();
        return everyMember(named) ? cluster.members().size() : named.size();
    }

    /** {@code hosts=*} (or {@code all}): every member of the cluster. */
    private static boolean everyMember(List<String> named) {
        return named.size() == 1 && (named.get(0).equals("*") || named.get(0).equalsIgnoreCase("all"));
    }

    static String hostOf(List<String> hosts, int partition) {
        return hosts.get(partition % hosts.size());
    }

    /** Replicas of each partition when a queue does not say, with this many hosts or more (else one per host). */
    static final int DEFAULT_REPLICAS = 3;

    /** How many nodes keep each partition of the queue: its {@code replicas}, else 3, or every host when fewer. */
    static int replicas(QueueOptions options, ClusterConfig cluster) {
        return options.replicas() > 0 ? options.replicas() : Math.min(DEFAULT_REPLICAS, hostCount(options, cluster));
    }

    /** Whether the queue is clustered and its partitions are kept by replica sets (more than one node each). */
    static boolean replicated(QueueOptions options, ClusterConfig cluster) {
        return !options.hosts().isEmpty() && replicas(options, cluster) > 1;
    }

    /**
     * How many of a replicated queue's hosts lead its partitions: its {@code leaders}, else every
     * host. Each of the first that many hosts is the preferred leader of one replica set, and the
     * partitions are spread over those sets. Fewer sets, each with more partitions, share Raft rounds:
     * on the benchmark's three nodes on two cores, one leader took S2 at 1.3 to 1.5 times and S4 at 1.6
     * times the rate of three (docs/cluster.md, "Leaders").
     */
    static int leaders(QueueOptions options, ClusterConfig cluster) {
        int hosts = hostCount(options, cluster);
        return options.leaders() > 0 ? Math.min(options.leaders(), hosts) : hosts;
    }

    /**
     * A clustered queue's layout as every node works it out from its definition: its partitions, hosts,
     * replicas and leaders, as they are in effect (an option left out and one given its default value
     * are alike). Two nodes route the queue's messages alike exactly when their layouts are equal.
     */
    static String layout(QueueOptions options, ClusterConfig cluster) {
        return options.partitions() + " partitions on " + String.join(",", hosts(options, cluster)) + ", "
                + replicas(options, cluster) + " replicas, " + leaders(options, cluster) + " leaders";
    }

    /** Whether options {@code a} and {@code b} lay a queue out alike on this cluster. */
    static boolean sameLayout(QueueOptions a, QueueOptions b, ClusterConfig cluster) {
        return layout(a, cluster).equals(layout(b, cluster));
    }

    /** The nodes that keep partition {@code partition} of a replicated queue. */
    static List<String> replicasOf(QueueOptions options, ClusterConfig cluster, int partition) {
        return replicasOf(hosts(options, cluster), replicas(options, cluster), leaders(options, cluster), partition);
    }

    /**
     * The nodes that keep partition {@code p}: the host of its set first (the set's preferred leader:
     * partition {@code p} is in set {@code p % leaders}), then the hosts after it in turn. With a leader
     * per host (the default), partitions of one host share a set, and each host leads one set.
     */
    static List<String> replicasOf(List<String> hosts, int replicas, int leaders, int partition) {
        List<String> out = new java.util.ArrayList<>(replicas);
        int first = partition % Math.min(leaders, hosts.size());
        for (int i = 0; i < replicas; i++) {
            out.add(hosts.get((first + i) % hosts.size()));
        }
        return out;
    }

    /** A replica set's name: its nodes in turn, the preferred leader first ({@code a+b+c}). */
    static String setName(List<String> replicas) {
        return String.join("+", replicas);
    }

    /** Why these options cannot define a clustered queue on this cluster, or null if they can. */
    static String problem(String queue, QueueOptions options, ClusterConfig cluster) {
        List<String> hosts = hosts(options, cluster);
        for (String h : hosts) {
            if (!cluster.isMember(h)) {
                return "queue '" + queue + "': host '" + h + "' is not a node of cluster '" + cluster.name() + "' "
                        + cluster.memberNames();
            }
        }
        if (hosts.stream().distinct().count() != hosts.size()) {
            return "queue '" + queue + "': hosts " + hosts + " names a node twice";
        }
        if (options.partitions() < hosts.size()) {
            return "queue '" + queue + "' has " + options.partitions() + " partitions for " + hosts.size()
                    + " hosts; each host needs at least one (partitions >= number of hosts)";
        }
        if (replicas(options, cluster) > hosts.size()) {
            return "queue '" + queue + "' asks for " + replicas(options, cluster)
                    + " replicas of each partition but has " + hosts.size()
                    + " hosts; replicas must be from 1 to the number of hosts";
        }
        if (options.leaders() > hosts.size()) {
            return "queue '" + queue + "' asks for " + options.leaders() + " leaders but has " + hosts.size()
                    + " hosts; leaders must be from 1 to the number of hosts";
        }
        return null;
    }
}
