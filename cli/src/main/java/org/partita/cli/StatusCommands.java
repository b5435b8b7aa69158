package org.partita.cli;

import picocli.CommandLine.Command;

/** {@code partita node status} and {@code partita cluster status}. */
@Command(name = "node", description = "The node itself.", subcommands = StatusCommands.Status.class)
final class StatusCommands {

    /** {@code partita cluster status}. */
    @Command(name = "cluster", description = "The cluster the node belongs to.", subcommands = ClusterStatus.class)
    static final class Cluster {}

    @Command(
            name = "status",
            description = "Members and their state (up, down), the consensus leader, the node"
                    + " hosting each partition of each clustered queue, messages waiting to be forwarded to each node.")
    static final class ClusterStatus extends NodeCommand {
        @Override
        void run(NodeOptions.NodeSession s, Output out) throws Exception {
            out.fields(Output.typed(s.admin().clusterStatus()));
        }
    }

    @Command(name = "status", description = "Name, address, uptime, connections, messages held, store size, memory.")
    static final class Status extends NodeCommand {
        @Override
        void run(NodeOptions.NodeSession s, Output out) throws Exception {
            out.fields(Output.typed(s.admin().nodeStatus()));
        }
    }
}
