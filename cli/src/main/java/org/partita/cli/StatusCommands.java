package org.partita.cli;

import picocli.CommandLine.Command;

/** {@code partita node status}. */
@Command(name = "node", description = "The node itself.", subcommands = StatusCommands.Status.class)
final class StatusCommands {

    @Command(name = "status", description = "Name, address, uptime, connections, messages held, store size, memory.")
    static final class Status extends NodeCommand {
        @Override
        void run(NodeOptions.NodeSession s, Output out) throws Exception {
            out.fields(Output.typed(s.admin().nodeStatus()));
        }
    }
}
