package org.partita.bench;

import jakarta.jms.ConnectionFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.partita.broker.config.ClusterConfig;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * Three Partita nodes of one cluster in this JVM, on loopback, each with its own data folder; queues
 * are spread over all three ({@code hosts=*}) and the scenario's connections go to the nodes in turn,
 * so producers and consumers are spread over the cluster as users' would be. On one machine the
 * nodes share its cores and disk: the ratio to one node is the cost of forwarding and relaying.
 */
final class PartitaClusterBroker implements BrokerUnderTest {
    private static final int NODES = 3;
    private final List<PartitaNode> nodes;
    private final ConnectionFactory cf;

    private PartitaClusterBroker(List<PartitaNode> nodes) {
        this.nodes = nodes;
        List<ConnectionFactory> factories = new ArrayList<>();
        for (PartitaNode n : nodes) {
            factories.add(new PartitaConnectionFactory(n.url()));
        }
        this.cf = new RoundRobinConnectionFactory(factories);
    }

    static PartitaClusterBroker start(Path dir) throws IOException {
        List<ClusterConfig.Member> members = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            members.add(new ClusterConfig.Member("node" + (i + 1), "127.0.0.1", freePortPair(members)));
        }
        ClusterConfig cluster = ClusterConfig.of("bench", members).withHeartbeat(500, 5_000);
        List<PartitaNode> started = new ArrayList<>();
        for (ClusterConfig.Member m : members) {
            started.add(PartitaNode.start(NodeConfig.defaults()
                    .withNodeName(m.name())
                    .withPort(m.port())
                    .withDataDir(dir.resolve(m.name()))
                    .withSyncOnCommit(true)
                    .withCluster(cluster)));
        }
        // no wait for the links: the load starts as users' does, with the cluster just started
        return new PartitaClusterBroker(started);
    }

    /** A port free together with the consensus port above it. */
    private static int freePortPair(List<ClusterConfig.Member> taken) throws IOException {
        while (true) {
            int port = Ports.freeLoopbackPort();
            int consensus = port + ClusterConfig.DEFAULT_CONSENSUS_PORT_OFFSET;
            if (consensus > 65535 || taken.stream().anyMatch(m -> m.port() == port || m.port() == consensus)) {
                continue;
            }
            if (Ports.isFree(consensus)) {
                return port;
            }
        }
    }

    @Override
    public String url() {
        return nodes.get(0).url();
    }

    @Override
    public ConnectionFactory connectionFactory() {
        return cf;
    }

    /**
     * Every queue is spread over the three nodes; one named without options gets S4's 8 partitions
     * (a cluster has no plain queue of one partition shared by all nodes), so S4K's keys spread too.
     */
    @Override
    public String queueName(String base, String partitaOptions) {
        String options = partitaOptions == null || partitaOptions.isEmpty() ? "partitions=8" : partitaOptions;
        return base + "?" + options + "&hosts=*";
    }

    @Override
    public long storedBytes() {
        return -1;
    }

    @Override
    public String storedBytesMethod() {
        return "not measured for a cluster";
    }

    @Override
    public String storeDetails() {
        return "";
    }

    @Override
    public void close() {
        for (int i = nodes.size() - 1; i >= 0; i--) {
            nodes.get(i).close();
        }
    }
}
