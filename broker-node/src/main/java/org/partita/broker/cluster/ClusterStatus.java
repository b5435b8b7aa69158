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
    public record Member(String name, String address, String state, String lastFailure) {
    }

    /** @param hosts the node hosting each partition; {@code forwardBacklog} messages waiting here to go to each node */
    public record Queue(String name, int partitions, List<String> hosts, Map<String, Integer> forwardBacklog) {
    }

    /** {@code name=value} lines, as the admin command {@code cluster.status} answers. */
    public String format() {
        StringBuilder sb = new StringBuilder();
        sb.append("cluster=").append(cluster).append('\n').append("node=").append(self).append('\n')
                .append("leader=").append(leader == null ? "" : leader).append('\n');
        for (Member m : members) {
            sb.append("member.").append(m.name()).append('=').append(m.state()).append(' ').append(m.address());
            if (m.lastFailure() != null && !"up".equals(m.state())) {
                sb.append(" (").append(m.lastFailure()).append(')');
            }
            sb.append('\n');
        }
        for (Queue q : queues) {
            for (int p = 0; p < q.hosts().size(); p++) {
                sb.append("queue.").append(q.name()).append(".partition.").append(p).append(".host=").append(q.hosts().get(p)).append('\n');
            }
            q.forwardBacklog().forEach((node, depth) ->
                    sb.append("queue.").append(q.name()).append(".forwardBacklog.").append(node).append('=').append(depth).append('\n'));
        }
        return sb.toString();
    }
}
