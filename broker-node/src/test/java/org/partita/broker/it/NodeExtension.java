package org.partita.broker.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.client.PartitaConnectionFactory;

/** Starts a real node on a free loopback port with H2 in a temporary folder, for each test. */
public final class NodeExtension implements BeforeEachCallback, AfterEachCallback {
    private final UnaryOperator<NodeConfig> customize;
    private Path dataDir;
    private PartitaNode node;
    private NodeConfig config;

    /** A node on embedded defaults (a free port, a temporary data folder). */
    public NodeExtension() {
        this(c -> c);
    }

    /** A node whose defaults {@code customize} changes first. */
    public NodeExtension(UnaryOperator<NodeConfig> customize) {
        this.customize = customize;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws IOException {
        dataDir = Files.createTempDirectory("partita-test");
        config = customize.apply(NodeConfig.defaults()).withPort(0).withDataDir(dataDir);
        node = PartitaNode.start(config);
    }

    @Override
    public void afterEach(ExtensionContext context) throws IOException {
        if (node != null) {
            node.close();
        }
        try (Stream<Path> files = Files.walk(dataDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    public PartitaNode node() {
        return node;
    }

    public PartitaConnectionFactory factory() {
        return new PartitaConnectionFactory(node.url());
    }

    /** Stops the node and starts a new one on the same data folder and port. */
    public PartitaNode restart() {
        int port = node.port();
        node.close();
        node = PartitaNode.start(config.withPort(port));
        return node;
    }

    public Path dataDir() {
        return dataDir;
    }
}
