package org.partita.cli;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import org.partita.jms.api.PartitaAdmin;
import org.partita.jms.client.PartitaConnectionFactory;
import picocli.CommandLine.Option;

/** How every subcommand reaches the node: {@code --url}, {@code --user}, {@code --password}, and {@code --json} for scripts. */
final class NodeOptions {
    static final String DEFAULT_URL = "tcp://127.0.0.1:61700";

    @Option(names = "--url", defaultValue = DEFAULT_URL, description = "the node, as a connection URL (default ${DEFAULT-VALUE})")
    String url;

    @Option(names = "--user", defaultValue = "${env:PARTITA_USER}", description = "user name (default: $PARTITA_USER)")
    String user;

    @Option(names = "--password", arity = "0..1", interactive = true, defaultValue = "${env:PARTITA_PASSWORD}",
            description = "password; --password alone asks for it (default: $PARTITA_PASSWORD)")
    String password;

    @Option(names = "--json", description = "print JSON instead of a table, for scripts")
    boolean json;

    /** An admin session on its own connection; close it to disconnect. */
    NodeSession connect() throws ExitCodes.Unreachable {
        try {
            Connection c = new PartitaConnectionFactory(url).createConnection(user, password);
            return new NodeSession(c, PartitaAdmin.on(c));
        } catch (JMSException e) {
            throw new ExitCodes.Unreachable("cannot use the node at " + url + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new ExitCodes.Unreachable("cannot use the node at " + url + ": " + e.getMessage(), e);
        }
    }

    record NodeSession(Connection connection, PartitaAdmin admin) implements AutoCloseable {
        @Override
        public void close() throws JMSException {
            connection.close();
        }
    }
}
