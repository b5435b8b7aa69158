package org.partita.cli;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.Callable;
import org.partita.protocol.auth.PasswordHash;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code partita user hash USER}: a users-file line, made without a node. */
@Command(name = "user", description = "Node users.", subcommands = UserCommand.Hash.class)
final class UserCommand {

    @Command(
            name = "hash",
            description = "Reads a password (from the console without echo, else the first line of "
                    + "standard input) and prints the users-file line for USER.")
    static final class Hash implements Callable<Integer> {
        @Parameters(paramLabel = "USER")
        String user;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            String name = user.strip();
            if (name.isEmpty() || name.contains("=") || name.startsWith("#") || !name.equals(user)) {
                throw new ExitCodes.Refusal(
                        ExitCodes.USAGE,
                        "user name '" + user + "' cannot be written in a users file:"
                                + " it must be non-empty, without '=', not start with '#' or with spaces");
            }
            char[] password;
            java.io.Console console = System.console();
            if (console != null) {
                password = console.readPassword("password for %s: ", user);
            } else {
                String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
                password = line == null ? new char[0] : line.toCharArray();
            }
            if (password == null || password.length == 0) {
                throw new ExitCodes.Refusal(ExitCodes.USAGE, "empty password");
            }
            spec.commandLine().getOut().println(user + " = " + PasswordHash.create(password));
            spec.commandLine().getOut().flush();
            Arrays.fill(password, ' ');
            return ExitCodes.OK;
        }
    }
}
