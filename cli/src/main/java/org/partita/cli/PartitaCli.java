package org.partita.cli;

import java.io.PrintWriter;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code partita}: administers a Partita node over its own protocol, as the Java
 * {@code PartitaAdmin} does. Tables for people, {@code --output json} for scripts, exit codes that
 * tell failures apart ({@link ExitCodes}), one-line errors. Every command and subcommand takes
 * {@code --help} ({@code -h}), {@code partita help <command>} says the same, and the node options
 * ({@link NodeOptions}) go anywhere on the line.
 */
@Command(
        name = "partita",
        version = "Partita 0.1.0",
        description = "Administers a Partita node.",
        subcommands = {
            QueueCommand.class,
            ListCommands.Partitions.class,
            ListCommands.Consumers.class,
            ListCommands.Subscriptions.class,
            ListCommands.Connections.class,
            DlqCommand.class,
            StatusCommands.class,
            StatusCommands.Cluster.class,
            UserCommand.class,
            CommandLine.HelpCommand.class,
            AutoComplete.GenerateCompletion.class
        })
public final class PartitaCli {
    @Mixin
    NodeOptions node;

    /** The command line of {@code partita}, every command with --help and --version. */
    static CommandLine commandLine() {
        CommandLine cmd = new CommandLine(new PartitaCli());
        withHelp(cmd);
        return cmd;
    }

    private static void withHelp(CommandLine cmd) {
        cmd.getCommandSpec().mixinStandardHelpOptions(true);
        cmd.getSubcommands().values().forEach(PartitaCli::withHelp);
    }

    /** Runs the command line with these writers; returns the exit code. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cmd = commandLine()
                .setOut(out)
                .setErr(err)
                .setExecutionExceptionHandler(new ExitCodes())
                .setParameterExceptionHandler((e, a) -> {
                    String command = e.getCommandLine().getCommandSpec().qualifiedName(" ");
                    e.getCommandLine()
                            .getErr()
                            .println("partita: " + e.getMessage().replace('\n', ' ') + " (see '" + command
                                    + " --help')");
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
