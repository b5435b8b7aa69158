package org.partita.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** A subcommand that talks to a node: connects, runs, disconnects. */
abstract class NodeCommand implements Callable<Integer> {
    @Mixin
    NodeOptions node;

    @Spec
    CommandSpec spec;

    @Override
    public final Integer call() throws Exception {
        try (NodeOptions.NodeSession session = node.connect()) {
            run(session, new Output(spec.commandLine().getOut(), node.json));
        }
        spec.commandLine().getOut().flush();
        return ExitCodes.OK;
    }

    abstract void run(NodeOptions.NodeSession session, Output out) throws Exception;
}
