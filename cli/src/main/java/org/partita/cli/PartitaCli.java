package org.partita.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/**
 * {@code partita}: administers a Partita node over its own protocol, as the Java
 * {@code PartitaAdmin} does. Tables for people, {@code --json} for scripts, exit codes that tell
 * failures apart ({@link ExitCodes}), one-line errors.
 */
@Command(name = "partita", mixinStandardHelpOptions = true, version = "Partita 0.1.0",
        description = "Administers a Partita node.",
        subcommands = {QueueCommand.class, ListCommands.Partitions.class, ListCommands.Consumers.class,
                ListCommands.Subscriptions.class, ListCommands.Connections.class, DlqCommand.class,
                StatusCommands.class, StatusCommands.Cluster.class, UserCommand.class})
public final class PartitaCli {

    /** Runs the command line with these writers; returns the exit code. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cmd = new CommandLine(new PartitaCli())
                .setOut(out).setErr(err)
                .setExecutionExceptionHandler(new ExitCodes())
                .setParameterExceptionHandler((e, a) -> {
                    e.getCommandLine().getErr().println("partita: " + e.getMessage().replace('\n', ' ')
                            + " (see 'partita " + String.join(" ", e.getCommandLine().getCommandSpec().qualifiedName(" ")
                            .replaceFirst("^partita ?", "")) + " --help')");
                    return ExitCodes.USAGE;
                });
        int code = cmd.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    public static void main(String[] args) {
        System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }
}
