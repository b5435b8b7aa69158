package org.partita.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.partita.broker.config.ClusterConfig;

/**
 * The members of a Partita cluster the tool starts, embedded or in processes alike: three nodes on
 * free loopback ports, and the heartbeat they run with.
 */
final class ClusterMembers {
    static final int NODES = 3;
    static final long HEARTBEAT_MILLIS = 500;
    /**
     * The node's default: a replicated partition whose leader is lost has another within twice this
     * (its Raft election timeout is a fifth of it), so the failover scenario measures what a cluster
     * with default settings does.
     */
    static final long DOWN_AFTER_MILLIS = ClusterConfig.DEFAULT_DOWN_AFTER_MILLIS;

    private ClusterMembers() {}

    /** A cluster of {@link #NODES} members named node1, node2, ... */
    static ClusterConfig pick(String name) throws IOException {
        List<ClusterConfig.Member> members = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            members.add(new ClusterConfig.Member("node" + (i + 1), "127.0.0.1", freePort(members)));
        }
        return ClusterConfig.of(name, members).withHeartbeat(HEARTBEAT_MILLIS, DOWN_AFTER_MILLIS);
    }

    /**
     * A port free together with the two a node listens on above it: the consensus port (definitions)
     * at one offset, the replica server (replicated partitions) at twice that. All three below the
     * system's ephemeral ports: one picked among those was once given to an outgoing connection of
     * the nodes starting before it, and the run failed ("No available port to bind to").
     */
    private static int freePort(List<ClusterConfig.Member> taken) throws IOException {
        int offset = ClusterConfig.DEFAULT_CONSENSUS_PORT_OFFSET;
        while (true) {
            int port = Ports.belowEphemeral(2 * offset);
            List<Integer> needed = List.of(port, port + offset, port + 2 * offset);
            boolean clash = needed.get(2) > 65535
                    || taken.stream()
                            .anyMatch(m -> needed.contains(m.port())
                                    || needed.contains(m.port() + offset)
                                    || needed.contains(m.port() + 2 * offset));
            if (!clash && needed.stream().allMatch(Ports::isFree)) {
                return port;
            }
        }
    }
}
