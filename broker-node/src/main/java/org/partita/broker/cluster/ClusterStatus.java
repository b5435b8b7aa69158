package org.partita.broker.cluster;

import java.util.List;
import java.util.Map;

/**
 * The cluster as one node sees it, for the admin commands and JMX.
 *
 * @param leader the Raft leader that orders definition changes, or null while there is none
 */
public record ClusterStatus(String cluster, String self, String leader, List<Member> members, List<Queue> queues) {

    /** @param state {@code self}, {@code up} or {@code down}; {@code lastFailure} why the link is down */
    public record Member(String name, String address, String state, String lastFailure) {}

    /**
     * @param hosts          the node hosting each partition
     * @param forwardBacklog messages waiting here to go to each node
     * @param figures        what each partition's host said of it; a partition whose host did not
     *                       answer (down, or too slow) has none
     * @param options        the agreed definition
     * @param layoutChange   the options a change of partitions or hosts in progress leads to, or null
     * @param heldSends      sends held here until that change ends
     * @param replicas       per partition of a replicated queue, the nodes keeping it and when this
     *                       node last saw its leader change; empty for a queue that is not replicated
     */
    public record Queue(
            String name,
            int partitions,
            List<String> hosts,
            Map<String, Integer> forwardBacklog,
            Map<Integer, Partition> figures,
            String options,
            String layoutChange,
            int heldSends,
            Map<Integer, Replicas> replicas) {

        Queue withFigures(Map<Integer, Partition> f) {
            return new Queue(name, partitions, hosts, forwardBacklog, f, options, layoutChange, heldSends, replicas);
        }

        Queue withReplicas(Map<Integer, Replicas> r) {
            return new Queue(name, partitions, hosts, forwardBacklog, figures, options, layoutChange, heldSends, r);
        }

        Queue withHosts(List<String> h) {
            return new Queue(name, partitions, h, forwardBacklog, figures, options, layoutChange, heldSends, replicas);
        }
    }

    /**
     * @param nodes        the nodes keeping the partition, its preferred leader first
     * @param leaderSince  when this node last saw the set's leader change (epoch millis), or 0
     * @param followerLag  how many committed log entries each follower has yet to hold (in replica
     *                     order), as the set's leader sees it: this node's own figures when it leads the
     *                     set, else the leader's answer to {@code replica.lag}; empty while no leader
     *                     is known or it did not answer
     */
    public record Replicas(List<String> nodes, long leaderSince, java.util.Map<String, Long> followerLag) {}

    /**
     * One partition as its host sees it.
     *
     * @param owner     the consumer that owns it ({@code consumer <id> of <client address>} on the host,
     *                  or {@code consumer <id> of node <name>} for another node's consumers), or null
     * @param ownerNode the node whose client consumes it: the host, or the node the owner relays to
     */
    public record Partition(int depth, int inFlight, String owner, String ownerNode) {}

    ClusterStatus withQueues(List<Queue> q) {
        return new ClusterStatus(cluster, self, leader, members, q);
    }

    /**
     * Why there is no Raft leader, as far as this node can tell: too few members up for a majority
     * (nothing can be agreed until enough return), or an election under way among enough of them.
     */
    public String whyNoLeader() {
        long up = members.stream().filter(m -> !"down".equals(m.state())).count();
        int majority = members.size() / 2 + 1;
        if (up < majority) {
            return "only " + up + " of " + members.size() + " members are up as this node sees them; a majority ("
                    + majority + ") is needed to elect one: definitions cannot change until enough return";
        }
        return up + " of " + members.size() + " members are up as this node sees them, enough for a majority ("
                + majority + "): an election is under way (or this node has not heard its result yet)";
    }

    /** {@code name=value} lines, as the admin command {@code cluster.status} answers. */
    public String format() {
        StringBuilder sb = new StringBuilder();
        sb.append("cluster=")
                .append(cluster)
                .append('\n')
                .append("node=")
                .append(self)
                .append('\n')
                .append("leader=")
                .append(leader == null ? "" : leader)
                .append('\n');
        if (leader == null) {
            sb.append("leaderMissing=").append(whyNoLeader()).append('\n');
        }
        for (Member m : members) {
            sb.append("member.")
                    .append(m.name())
                    .append('=')
                    .append(m.state())
                    .append(' ')
                    .append(m.address());
            if (m.lastFailure() != null && !"up".equals(m.state())) {
                sb.append(" (").append(m.lastFailure()).append(')');
            }
            sb.append('\n');
        }
        for (Queue q : queues) {
            sb.append("queue.")
                    .append(q.name())
                    .append(".options=")
                    .append(q.options())
                    .append('\n');
            if (q.layoutChange() != null) {
                sb.append("queue.")
                        .append(q.name())
                        .append(".layoutChange=")
                        .append(q.layoutChange())
                        .append(" (sends held here: ")
                        .append(q.heldSends())
                        .append(")\n");
            }
            for (int p = 0; p < q.hosts().size(); p++) {
                String prefix = "queue." + q.name() + ".partition." + p + ".";
                sb.append(prefix).append("host=").append(q.hosts().get(p)).append('\n');
                Replicas r = q.replicas().get(p);
                if (r != null) {
                    sb.append(prefix)
                            .append("replicas=")
                            .append(String.join(",", r.nodes()))
                            .append('\n');
                    if (r.leaderSince() > 0) {
                        sb.append(prefix)
                                .append("leaderSince=")
                                .append(java.time.Instant.ofEpochMilli(r.leaderSince()))
                                .append('\n');
                    }
                    if (!r.followerLag().isEmpty()) {
                        sb.append(prefix)
                                .append("followerLag=")
                                .append(ReplicaLagGather.lagList(r.followerLag()))
                                .append('\n');
                    }
                }
                Partition f = q.figures().get(p);
                if (f != null) {
                    sb.append(prefix).append("depth=").append(f.depth()).append('\n');
                    sb.append(prefix).append("inFlight=").append(f.inFlight()).append('\n');
                    if (f.owner() != null) {
                        sb.append(prefix).append("owner=").append(f.owner()).append('\n');
                        sb.append(prefix)
                                .append("ownerNode=")
                                .append(f.ownerNode())
                                .append('\n');
                    }
                }
            }
            q.forwardBacklog()
                    .forEach((node, depth) -> sb.append("queue.")
                            .append(q.name())
                            .append(".forwardBacklog.")
                            .append(node)
                            .append('=')
                            .append(depth)
                            .append('\n'));
        }
        return sb.toString();
    }
}
