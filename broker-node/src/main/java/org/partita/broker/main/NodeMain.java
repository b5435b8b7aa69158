package org.partita.broker.main;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.partita.broker.config.ConfigException;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.config.NodeConfigFile;
import org.partita.broker.embed.PartitaNode;
import org.partita.broker.security.UserNames;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code java -jar partita-node.jar [--config FILE] [--port N] [--data DIR] [--metrics-port N] [--log-json]}: starts one node on
 * embedded defaults, overridden by the config file, overridden by the options. Stops cleanly on
 * SIGTERM or Ctrl-C.
 */
@Command(
        name = "partita-node",
        mixinStandardHelpOptions = true,
        version = "Partita 0.1.0",
        description = "Starts a Partita broker node.")
public final class NodeMain implements Callable<Integer> {
    /** Looked up only once the options chose the logging configuration (--log-json, --log-level). */
    private static org.slf4j.Logger log() {
        return org.slf4j.LoggerFactory.getLogger(NodeMain.class);
    }

    @Option(names = "--config", description = "node config file (name = value lines)")
    Path config;

    @Option(names = "--port", description = "TCP port to listen on (default 61700)")
    Integer port;

    @Option(names = "--host", description = "address to listen on (default 127.0.0.1)")
    String host;

    @Option(names = "--data", description = "folder of the node's H2 database (default ./data)")
    Path data;

    @Option(
            names = "--metrics-port",
            paramLabel = "N",
            description =
                    "HTTP port of the Prometheus endpoint (/metrics) and the web console (/) on the node's host (off by default)")
    Integer metricsPort;

    @Option(names = "--log-json", description = "log one JSON object per line instead of text")
    boolean logJson;

    /** The levels the node's log takes; another word is refused as a usage error rather than read as DEBUG. */
    enum LogLevel {
        ERROR,
        WARN,
        INFO,
        DEBUG,
        TRACE
    }

    @Option(
            names = "--log-level",
            paramLabel = "LEVEL",
            description = "ERROR, WARN, INFO (default), DEBUG (connections opened and closed) or TRACE; any case")
    LogLevel logLevel;

    @Option(
            names = "--stop-timeout",
            paramLabel = "SECONDS",
            description =
                    "longest a clean stop (SIGTERM) may take before the process halts; the journal recovers the rest (default 30)")
    int stopTimeoutSeconds = 30;

    @Option(
            names = "--hash-password",
            paramLabel = "USER",
            description = "read a password from standard input and print a users-file line for USER, then exit")
    String hashPasswordFor;

    @Override
    public Integer call() throws InterruptedException {
        if (hashPasswordFor != null) {
            return hashPassword();
        }
        // before anything logs: the logging configuration is chosen once, at the first logger
        if (logJson) {
            System.setProperty("logback.configurationFile", "logback-json.xml");
        }
        if (logLevel != null) {
            System.setProperty("partita.log.level", logLevel.name());
        }
        // out of memory, the node exits for its supervisor to restart it instead of staying up unresponsive
        org.partita.broker.process.FatalErrors.haltOnFatalErrors();
        NodeConfig c = NodeConfig.defaults();
        try {
            if (config != null) {
                c = NodeConfigFile.read(config, c);
            }
        } catch (ConfigException e) {
            System.err.println("partita-node: " + e.getMessage());
            return 2;
        }
        if (port != null) {
            c = c.withPort(port);
        }
        if (host != null) {
            c = c.withHost(host);
        }
        if (data != null) {
            c = c.withDataDir(data);
        }
        if (metricsPort != null) {
            try {
                c = c.withMetricsPort(metricsPort);
            } catch (IllegalArgumentException e) {
                System.err.println("partita-node: --metrics-port: " + e.getMessage());
                return 2;
            }
        }
        log().info(
                        config == null
                                ? "no config file: embedded defaults and command-line options"
                                : "config file " + config.toAbsolutePath().normalize());
        PartitaNode node;
        try {
            node = PartitaNode.start(c);
        } catch (ConfigException | IllegalArgumentException e) {
            System.err.println("partita-node: " + e.getMessage());
            return 2;
        } catch (RuntimeException e) {
            // one line an operator can act on (port in use, data folder in use, store unreadable)
            System.err.println("partita-node: cannot start: " + e.getMessage());
            log().debug("start-up failure", e);
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        StopDeadline.onShutdown(java.time.Duration.ofSeconds(Math.max(1, stopTimeoutSeconds)), () -> {
            node.close();
            stopped.countDown();
        });
        System.out.println("Partita node " + c.nodeName() + " ready at " + node.url());
        stopped.await();
        return 0;
    }

    private int hashPassword() {
        String refusal = UserNames.refusal(hashPasswordFor);
        if (refusal != null) {
            System.err.println("partita-node: " + refusal);
            return 2;
        }
        java.io.Console console = System.console();
        char[] password;
        if (console != null) {
            password = console.readPassword("password for %s: ", hashPasswordFor);
        } else {
            try {
                String line = new java.io.BufferedReader(
                                new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8))
                        .readLine();
                password = line == null ? new char[0] : line.toCharArray();
            } catch (java.io.IOException e) {
                System.err.println("partita-node: cannot read the password: " + e.getMessage());
                return 2;
            }
        }
        if (password == null || password.length == 0) {
            System.err.println("partita-node: empty password");
            return 2;
        }
        System.out.println(hashPasswordFor + " = " + org.partita.protocol.auth.PasswordHash.create(password));
        java.util.Arrays.fill(password, ' ');
        return 0;
    }

    /** The command line of the node: enum values (--log-level) in any case; a bad value is a usage error (exit 2). */
    static CommandLine commandLine() {
        return new CommandLine(new NodeMain()).setCaseInsensitiveEnumValuesAllowed(true);
    }

    public static void main(String[] args) {
        int code = commandLine().execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }
}
