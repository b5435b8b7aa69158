package org.partita.tck.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Hashtable;
import java.util.Locale;
import java.util.stream.Stream;
import javax.naming.Context;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starts the provider under test once per JVM and hands the tests the JNDI environment that
 * reaches it. The provider is chosen by the system property {@code tck.provider}
 * ({@code partita}, the default, or {@code artemis}); it is stopped by a shutdown hook.
 *
 * <p>This class (and nothing under the chapter packages) knows provider classes: tests only see
 * {@code jakarta.jms} and {@code javax.naming}.
 */
public final class ProviderExtension implements BeforeAllCallback {

    /** JNDI name of a connection factory whose connections carry an administratively set client id. */
    public static final String CLIENT_ID_FACTORY = "ClientIdConnectionFactory";
    /** The client id configured on {@link #CLIENT_ID_FACTORY}. */
    public static final String ADMIN_CLIENT_ID = "tck-admin-client";

    private static Hashtable<String, Object> environment;
    private static String provider;

    @Override
    public void beforeAll(ExtensionContext context) {
        ensureStarted();
    }

    /** The provider this JVM tests: {@code partita} or {@code artemis}. */
    public static String provider() {
        String p = System.getProperty("tck.provider", "partita").trim().toLowerCase(Locale.ROOT);
        return p.isEmpty() ? "partita" : p;
    }

    /** A copy of the JNDI environment for {@code new InitialContext(env)}. */
    @SuppressWarnings("unchecked")
    public static synchronized Hashtable<String, Object> environment() {
        ensureStarted();
        return (Hashtable<String, Object>) environment.clone();
    }

    static synchronized void ensureStarted() {
        if (environment != null) {
            return;
        }
        provider = provider();
        long start = System.nanoTime();
        environment = switch (provider) {
            case "partita" -> Partita.start();
            case "artemis" -> Artemis.start();
            default ->
                throw new IllegalStateException("unknown tck.provider '" + provider + "': use partita or artemis");
        };
        System.out.printf(
                "[tck] %s started in %d ms; JNDI environment %s%n",
                provider, (System.nanoTime() - start) / 1_000_000, environment);
    }

    static Path tempDir(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** At JVM exit: stop the provider, then delete its data folder. */
    static void onExit(String name, AutoCloseable provider, Path dataDir) {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                provider.close();
                            } catch (Exception ignored) {
                                // the JVM is exiting
                            }
                            deleteQuietly(dataDir);
                        },
                        "tck-stop-" + name));
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | RuntimeException ignored) {
            // best effort: it is a temporary folder
        }
    }

    /** Partita: an in-process node on a free port, reached through Partita's JNDI provider. */
    private static final class Partita {
        static Hashtable<String, Object> start() {
            Path data = tempDir("tck-partita");
            org.partita.broker.embed.PartitaNode node = org.partita.broker.embed.PartitaNode.start(
                    org.partita.broker.config.NodeConfig.defaults().withPort(0).withDataDir(data));
            onExit("partita", node, data);
            Hashtable<String, Object> env = new Hashtable<>();
            env.put(Context.INITIAL_CONTEXT_FACTORY, "org.partita.jms.jndi.PartitaInitialContextFactory");
            env.put(Context.PROVIDER_URL, node.url());
            env.put("connectionFactory." + CLIENT_ID_FACTORY, node.url() + "?clientID=" + ADMIN_CLIENT_ID);
            return env;
        }
    }

    /**
     * ActiveMQ Artemis: an embedded broker with a persistent NIO journal, no security, queues and
     * addresses created on first use, and — like Partita — ten delivery attempts before a message
     * goes to the queue {@code DLQ}.
     */
    private static final class Artemis {
        static Hashtable<String, Object> start() {
            Path data = tempDir("tck-artemis");
            int port = freePort();
            try {
                org.apache.activemq.artemis.core.config.impl.ConfigurationImpl config =
                        new org.apache.activemq.artemis.core.config.impl.ConfigurationImpl();
                config.setName("tck-artemis");
                config.setPersistenceEnabled(true);
                config.setJournalType(org.apache.activemq.artemis.core.server.JournalType.NIO);
                config.setJournalDirectory(data.resolve("journal").toString());
                config.setBindingsDirectory(data.resolve("bindings").toString());
                config.setPagingDirectory(data.resolve("paging").toString());
                config.setLargeMessagesDirectory(data.resolve("large-messages").toString());
                config.setNodeManagerLockDirectory(data.resolve("lock").toString());
                config.setJournalFileSize(1024 * 1024);
                config.setJournalMinFiles(2);
                config.setSecurityEnabled(false);
                config.setJMXManagementEnabled(false);
                config.setCriticalAnalyzer(false);
                // not Artemis's default 90 %: past it Artemis blocks every producer, and a build machine's
                // disk that full would fail the suite on Artemis's threshold rather than on a JMS behaviour
                config.setMaxDiskUsage(-1);
                config.addAcceptorConfiguration("tck", "tcp://127.0.0.1:" + port);

                org.apache.activemq.artemis.core.settings.impl.AddressSettings settings =
                        new org.apache.activemq.artemis.core.settings.impl.AddressSettings()
                                .setAutoCreateQueues(true)
                                .setAutoCreateAddresses(true)
                                .setMaxDeliveryAttempts(10)
                                .setDeadLetterAddress(org.apache.activemq.artemis.api.core.SimpleString.of("DLQ"));
                config.addAddressSetting("#", settings);
                config.addQueueConfiguration(org.apache.activemq.artemis.api.core.QueueConfiguration.of("DLQ")
                        .setAddress("DLQ")
                        .setRoutingType(org.apache.activemq.artemis.api.core.RoutingType.ANYCAST));

                org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ broker =
                        new org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ();
                broker.setConfiguration(config);
                broker.start();
                onExit("artemis", broker::stop, data);
            } catch (Exception e) {
                throw new IllegalStateException("could not start the embedded Artemis broker", e);
            }
            String url = "tcp://127.0.0.1:" + port;
            Hashtable<String, Object> env = new Hashtable<>();
            env.put(Context.INITIAL_CONTEXT_FACTORY, "org.apache.activemq.artemis.jndi.ActiveMQInitialContextFactory");
            env.put("connectionFactory.ConnectionFactory", url);
            env.put("connectionFactory." + CLIENT_ID_FACTORY, url + "?clientID=" + ADMIN_CLIENT_ID);
            return env;
        }

        private static int freePort() {
            try (ServerSocket socket = new ServerSocket(0)) {
                socket.setReuseAddress(true);
                return socket.getLocalPort();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
