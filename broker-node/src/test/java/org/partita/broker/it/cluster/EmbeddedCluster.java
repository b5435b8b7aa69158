package org.partita.broker.it.cluster;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.partita.broker.cluster.FreePorts;
import org.partita.broker.config.ClusterConfig;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.client.PartitaConnectionFactory;

/** Nodes of one cluster started in this JVM on loopback ports, each with its own data folder. */
final class EmbeddedCluster implements AutoCloseable {
    private final ClusterConfig cluster;
    private final Path dir;
    private final PartitaNode[] nodes;
    private final java.util.function.UnaryOperator<NodeConfig> customize;

    EmbeddedCluster(Path dir, int size) {
        this(dir, size, c -> c);
    }

    /** Nodes whose configs {@code customize} changes (users, roles, TLS...). */
    EmbeddedCluster(Path dir, int size, java.util.function.UnaryOperator<NodeConfig> customize) {
        this.customize = customize;
        this.dir = dir;
        List<Integer> ports = FreePorts.pairs(size, ClusterConfig.DEFAULT_CONSENSUS_PORT_OFFSET);
        List<ClusterConfig.Member> members = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            members.add(new ClusterConfig.Member("node" + (i + 1), "127.0.0.1", ports.get(i)));
        }
        this.cluster = ClusterConfig.of("test", members).withHeartbeat(200, 2_000);
        this.nodes = new PartitaNode[size];
    }

    EmbeddedCluster startAll() {
        for (int i = 0; i < nodes.length; i++) {
            start(i);
        }
        return this;
    }

    NodeConfig config(int i) {
        ClusterConfig.Member m = cluster.members().get(i);
        return customize.apply(NodeConfig.defaults()
                .withNodeName(m.name())
                .withPort(m.port())
                .withDataDir(dir.resolve(m.name()))
                .withCluster(cluster));
    }

    /**
     * Starts node {@code i} on its fixed port. A node started again after a while may find its port
     * taken for a moment by an outgoing connection's ephemeral port (the other nodes keep dialing
     * it): it tries again for up to 10 s.
     */
    PartitaNode start(int i) {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                nodes[i] = PartitaNode.start(config(i));
                return nodes[i];
            } catch (org.partita.broker.embed.NodeStartException e) {
                if (!(e.getCause() instanceof java.net.BindException) || System.nanoTime() > deadline) {
                    throw e;
                }
                org.awaitility.Awaitility.await()
                        .pollDelay(java.time.Duration.ofMillis(200))
                        .until(() -> true);
            }
        }
    }

    void stop(int i) {
        if (nodes[i] != null) {
            nodes[i].close();
            nodes[i] = null;
        }
    }

    PartitaNode node(int i) {
        return nodes[i];
    }

    PartitaConnectionFactory factory(int i) {
        return new PartitaConnectionFactory(
                "tcp://127.0.0.1:" + cluster.members().get(i).port());
    }

    ClusterConfig config() {
        return cluster;
    }

    @Override
    public void close() {
        for (int i = nodes.length - 1; i >= 0; i--) {
            stop(i);
        }
    }
}
