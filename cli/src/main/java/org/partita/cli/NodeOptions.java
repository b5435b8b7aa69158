package org.partita.cli;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import org.partita.jms.api.PartitaAdmin;
import org.partita.jms.client.ConnectionOptions;
import org.partita.jms.client.PartitaConnectionFactory;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * How every command reaches the node, and how it prints: options of the {@code partita} command
 * that every subcommand inherits, so they go anywhere on the line ({@code partita --url X queue list},
 * {@code partita queue list --url X}), each with an environment variable for its default so that a
 * password need not be typed on the command line.
 */
final class NodeOptions {
    static final String DEFAULT_URL = "tcp://127.0.0.1:61700";

    enum Format {
        table,
        json
    }

    @Option(
            names = "--url",
            scope = ScopeType.INHERIT,
            defaultValue = "${env:PARTITA_URL:-" + DEFAULT_URL + "}",
            description =
                    "the node, as a connection URL with its options (default: $PARTITA_URL, else " + DEFAULT_URL + ")")
    String url;

    @Option(
            names = "--user",
            scope = ScopeType.INHERIT,
            defaultValue = "${env:PARTITA_USER}",
            description = "user name (default: $PARTITA_USER)")
    String user;

    @Option(
            names = "--password",
            scope = ScopeType.INHERIT,
            arity = "0..1",
            interactive = true,
            defaultValue = "${env:PARTITA_PASSWORD}",
            description = "password; --password alone asks for it without echo (default: $PARTITA_PASSWORD)")
    String password;

    @Option(
            names = "--trust-store",
            scope = ScopeType.INHERIT,
            defaultValue = "${env:PARTITA_TRUST_STORE}",
            description =
                    "for ssl:// nodes: a PKCS12 or JKS file of the certificates to trust (default: $PARTITA_TRUST_STORE)")
    String trustStore;

    @Option(
            names = "--trust-store-password",
            scope = ScopeType.INHERIT,
            defaultValue = "${env:PARTITA_TRUST_STORE_PASSWORD}",
            description = "the trust store's password (default: $PARTITA_TRUST_STORE_PASSWORD)")
    String trustStorePassword;

    @Option(
            names = "--output",
            scope = ScopeType.INHERIT,
            defaultValue = "${env:PARTITA_OUTPUT:-table}",
            description = "table (for people) or json (for scripts) (default: $PARTITA_OUTPUT, else table)")
    Format output;

    @Option(names = "--json", scope = ScopeType.INHERIT, description = "the same as --output json")
    boolean json;

    boolean printsJson() {
        return json || output == Format.json;
    }

    /** The URL with the trust store options added; a malformed URL is a usage error, found before any connection. */
    String effectiveUrl() throws ExitCodes.Refusal {
        String u = url;
        if (trustStore != null && !trustStore.isBlank()) {
            u += (u.contains("?") ? "&" : "?") + "trustStore=" + trustStore
                    + (trustStorePassword == null || trustStorePassword.isBlank()
                            ? ""
                            : "&trustStorePassword=" + trustStorePassword);
        }
        try {
            ConnectionOptions.parse(u);
        } catch (JMSException e) {
            throw new ExitCodes.Refusal(ExitCodes.USAGE, e.getMessage());
        }
        return u;
    }

    /** An admin session on its own connection; close it to disconnect. */
    NodeSession connect() throws ExitCodes.Unreachable, ExitCodes.Refusal {
        String u = effectiveUrl();
        try {
            Connection c = new PartitaConnectionFactory(u).createConnection(user, password);
            return new NodeSession(c, PartitaAdmin.on(c));
        } catch (JMSException | RuntimeException e) {
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
