package org.partita.bench;

import jakarta.jms.ConnectionFactory;
import org.partita.broker.config.ClusterConfig;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.client.PartitaConnectionFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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
            started.add(PartitaNode.start(NodeConfig.defaults().withNodeName(m.name()).withPort(m.port())
                    .withDataDir(dir.resolve(m.name())).withSyncOnCommit(true).withCluster(cluster)));
        }
        awaitLinked(started);
        return new PartitaClusterBroker(started);
    }

    /**
     * Measures a running cluster, as users meet one: every node linked to every other and a consensus
     * leader known. A node that starts before the others retries its links once per heartbeat (500 ms
     * here), so a load started at once met links still down and its first messages waited for them:
     * most of the cluster's p99 until 2026-12-02 (docs/performance.md, step 14).
     */
    private static void awaitLinked(List<PartitaNode> nodes) throws IOException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (!nodes.stream().allMatch(PartitaClusterBroker::linked)) {
            if (System.nanoTime() > deadline) {
                throw new IOException("the three nodes did not link up within 30 s: " + nodes.get(0).cluster().status().format());
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while the nodes link up", e);
            }
        }
    }

    private static boolean linked(PartitaNode node) {
        org.partita.broker.cluster.ClusterStatus status = node.cluster().status();
        return status.leader() != null && status.members().stream().allMatch(m -> !"down".equals(m.state()));
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
