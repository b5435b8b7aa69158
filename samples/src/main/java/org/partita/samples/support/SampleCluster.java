package org.partita.samples.support;

import jakarta.jms.ConnectionFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.partita.broker.config.ClusterConfig;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * The cluster a sample talks to: nodes started in this process, each with its own data folder and
 * loopback port (the default), or running nodes reached by their URLs. The sample sees one
 * connection factory per node, as applications spread over the nodes would.
 */
public final class SampleCluster implements AutoCloseable {
    private final List<String> urls;
    private final List<PartitaNode> embedded;
    private final Path dir;

    private SampleCluster(List<String> urls, List<PartitaNode> embedded, Path dir) {
        this.urls = urls;
        this.embedded = embedded;
        this.dir = dir;
    }

    /** Starts {@code size} nodes of a cluster named {@code name} in this process. */
    public static SampleCluster embedded(String name, int size, Story story) throws IOException {
        Path dir = Files.createTempDirectory("partita-cluster-sample");
        List<ClusterConfig.Member> members = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            members.add(new ClusterConfig.Member("node" + (i + 1), "127.0.0.1", freePortPair(members)));
        }
        ClusterConfig cluster = ClusterConfig.of(name, members);
        List<PartitaNode> nodes = new ArrayList<>();
        List<String> urls = new ArrayList<>();
        for (ClusterConfig.Member m : members) {
            PartitaNode n = PartitaNode.start(NodeConfig.defaults()
                    .withNodeName(m.name())
                    .withPort(m.port())
                    .withDataDir(dir.resolve(m.name()))
                    .withCluster(cluster));
            nodes.add(n);
            urls.add(n.url());
        }
        story.say(
                "started a cluster of %d nodes in this process: %s (data in %s; give --urls to use a running cluster)",
                size, members, dir);
        return new SampleCluster(urls, nodes, dir);
    }

    /** Uses running nodes of one cluster. */
    public static SampleCluster remote(List<String> urls, Story story) {
        story.say("using the cluster at %s", urls);
        return new SampleCluster(List.copyOf(urls), List.of(), null);
    }

    /** A client port free together with the consensus port above it (docs/cluster.md). */
    private static int freePortPair(List<ClusterConfig.Member> taken) throws IOException {
        while (true) {
            int port;
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = s.getLocalPort();
            }
            int consensus = port + ClusterConfig.DEFAULT_CONSENSUS_PORT_OFFSET;
            if (consensus > 65535 || taken.stream().anyMatch(m -> m.port() == port || m.port() == consensus)) {
                continue;
            }
            try (ServerSocket s = new ServerSocket(consensus, 1, InetAddress.getLoopbackAddress())) {
                return port;
            } catch (IOException busy) {
                // another one
            }
        }
    }

    public int size() {
        return urls.size();
    }

    public String url(int node) {
        return urls.get(node);
    }

    /** A connection factory of the node {@code node} (0-based). */
    public ConnectionFactory factory(int node) {
        return new PartitaConnectionFactory(urls.get(node));
    }

    @Override
    public void close() {
        for (int i = embedded.size() - 1; i >= 0; i--) {
            embedded.get(i).close();
        }
        if (dir != null) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                throw new UncheckedIOException("could not remove the sample's data folder " + dir, e);
            }
        }
    }
}
