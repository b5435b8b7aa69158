package org.partita.ra.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.partita.broker.config.ClusterConfig;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;

/**
 * Nodes of one cluster in the test's JVM on loopback ports, each with its own data folder under
 * {@code dir}, that can be stopped and started again on the same data.
 */
public final class LoopbackCluster implements AutoCloseable {
    private final ClusterConfig cluster;
    private final Path dir;
    private final PartitaNode[] nodes;

    public LoopbackCluster(Path dir, int size) {
        this.dir = dir;
        List<ClusterConfig.Member> members = new ArrayList<>();
        for (int port : freePorts(size, ClusterConfig.DEFAULT_CONSENSUS_PORT_OFFSET)) {
            members.add(new ClusterConfig.Member("node" + (members.size() + 1), "127.0.0.1", port));
        }
        this.cluster = ClusterConfig.of("ra-test", members).withHeartbeat(200, 2_000);
        this.nodes = new PartitaNode[size];
    }

    public LoopbackCluster startAll() {
        for (int i = 0; i < nodes.length; i++) {
            start(i);
        }
        return this;
    }

    public PartitaNode start(int i) {
        ClusterConfig.Member m = cluster.members().get(i);
        nodes[i] = PartitaNode.start(NodeConfig.defaults()
                .withNodeName(m.name())
                .withPort(m.port())
                .withDataDir(dir.resolve(m.name()))
                .withCluster(cluster));
        return nodes[i];
    }

    public void stop(int i) {
        if (nodes[i] != null) {
            nodes[i].close();
            nodes[i] = null;
        }
    }

    public PartitaNode node(int i) {
        return nodes[i];
    }

    public String name(int i) {
        return cluster.members().get(i).name();
    }

    public String url(int i) {
        return "tcp://127.0.0.1:" + cluster.members().get(i).port();
    }

    public int size() {
        return nodes.length;
    }

    @Override
    public void close() {
        for (int i = nodes.length - 1; i >= 0; i--) {
            stop(i);
        }
    }

    /** Ports the system hands out as free now, each with the consensus port {@code offset} above it free too. */
    private static List<Integer> freePorts(int count, int offset) {
        List<Integer> out = new ArrayList<>();
        for (int attempt = 0; out.size() < count; attempt++) {
            if (attempt == 1_000) {
                throw new IllegalStateException("no free pair of loopback ports " + offset + " apart");
            }
            int p = bind(0);
            if (p > 0
                    && p + offset <= 65_535
                    && !out.contains(p)
                    && !out.contains(p + offset)
                    && !out.contains(p - offset)
                    && bind(p + offset) > 0) {
                out.add(p);
            }
        }
        return out;
    }

    /** Binds {@code port} (0: any) on loopback for a moment; the port bound, or -1 if it is taken. */
    private static int bind(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            return -1;
        }
    }
}
