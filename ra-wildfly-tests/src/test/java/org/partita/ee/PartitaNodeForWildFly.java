package org.partita.ee;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;

/**
 * The Partita node WildFly's resource adapter talks to: embedded in the test JVM, on the loopback
 * port the build reserved and handed to WildFly as {@code partita.url}, with the test queues
 * declared before the application deploys (so its message-driven beans find their partitions).
 * It runs once for the test JVM, since WildFly runs once for it too.
 */
public final class PartitaNodeForWildFly implements BeforeAllCallback, ExtensionContext.Store.CloseableResource {
    private static PartitaNode node;
    private static Path dataDir;

    @Override
    public synchronized void beforeAll(ExtensionContext context) throws Exception {
        if (node != null) {
            return;
        }
        int port = Integer.parseInt(System.getProperty("partita.port", "0"));
        dataDir = Files.createTempDirectory("partita-wildfly");
        node = PartitaNode.start(NodeConfig.defaults().withPort(port).withDataDir(dataDir));
        node.broker().updateQueue("ee.orders", "partitions=8");
        node.broker().updateQueue("ee.poison", "maxDeliveryAttempts=3&deadLetterQueue=ee.dead");
        node.broker().updateQueue("ee.requests", "maxDeliveryAttempts=2&deadLetterQueue=ee.dead");
        context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).put(PartitaNodeForWildFly.class.getName(), this);
    }

    public static PartitaNode node() {
        return node;
    }

    /** Stops the node and starts it again on the same port and data, as an operator's restart. */
    static synchronized void restart() {
        int port = node.port();
        node.close();
        node = PartitaNode.start(NodeConfig.defaults().withPort(port).withDataDir(dataDir));
    }

    @Override
    public void close() throws Exception {
        if (node != null) {
            node.close();
            node = null;
            try (Stream<Path> files = Files.walk(dataDir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
