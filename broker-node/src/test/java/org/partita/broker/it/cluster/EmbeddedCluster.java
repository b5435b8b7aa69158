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
    /** The members and their ports; new ports if the first ones were taken before the nodes bound them. */
    private ClusterConfig cluster;
    /** Whether a node was started: from then on the ports and data folders stay. */
    private boolean everStarted;

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
        this.cluster = onPorts(FreePorts.pairs(size, ClusterConfig.DEFAULT_CONSENSUS_PORT_OFFSET));
        this.nodes = new PartitaNode[size];
    }

    private ClusterConfig onPorts(List<Integer> ports) {
        List<ClusterConfig.Member> members = new ArrayList<>();
        for (int i = 0; i < ports.size(); i++) {
            members.add(new ClusterConfig.Member("node" + (i + 1), "127.0.0.1", ports.get(i)));
        }
        return ClusterConfig.of("test", members).withHeartbeat(200, 2_000);
    }

    /**
     * Starts every node. At the first start the ports were picked free and released; should one be
     * taken by the time its node binds it (its own or its consensus port), every node stops, their
     * folders are cleared, and the cluster starts over on new ports ({@link FreePorts#startOnFreePorts}).
     * Started again, the nodes keep their ports and data ({@link #start}).
     */
    EmbeddedCluster startAll() {
        if (everStarted) {
            for (int i = 0; i < nodes.length; i++) {
                start(i);
            }
            return this;
        }
        everStarted = true;
        boolean[] first = {true};
        try {
            FreePorts.startOnFreePorts(nodes.length, ClusterConfig.DEFAULT_CONSENSUS_PORT_OFFSET, ports -> {
                if (!first[0]) {
                    cluster = onPorts(ports);
                }
                first[0] = false;
                try {
                    for (int i = 0; i < nodes.length; i++) {
                        nodes[i] = PartitaNode.start(config(i));
                    }
                    return this;
                } catch (RuntimeException e) {
                    close();
                    for (ClusterConfig.Member m : cluster.members()) {
                        deleteTree(dir.resolve(m.name()));
                    }
                    throw e;
                }
            });
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return this;
    }

    /** Deletes {@code p} and all below it, if it exists (a node's data folder). */
    static void deleteTree(Path p) {
        if (!java.nio.file.Files.exists(p)) {
            return;
        }
        try (java.util.stream.Stream<Path> all = java.nio.file.Files.walk(p)) {
            for (Path f : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                java.nio.file.Files.delete(f);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
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
        everStarted = true;
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                nodes[i] = PartitaNode.start(config(i));
                return nodes[i];
            } catch (org.partita.broker.embed.NodeStartException e) {
                if (!FreePorts.portTaken(e) || System.nanoTime() > deadline) {
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
