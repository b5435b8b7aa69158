package org.partita.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** A subcommand that talks to a node: connects with the {@code partita} command's options, runs, disconnects. */
abstract class NodeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public final Integer call() throws Exception {
        NodeOptions node = ((PartitaCli) spec.root().userObject()).node;
        try (NodeOptions.NodeSession session = node.connect()) {
            run(session, new Output(spec.commandLine().getOut(), node.printsJson()));
        }
        spec.commandLine().getOut().flush();
        return ExitCodes.OK;
    }

    abstract void run(NodeOptions.NodeSession session, Output out) throws Exception;
}
