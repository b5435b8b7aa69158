package org.partita.bench;

import jakarta.jms.ConnectionFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.partita.broker.config.ClusterConfig;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * Three Partita nodes of one cluster in this JVM, on loopback, each with its own data folder; queues
 * are spread over all three ({@code hosts=*}), with {@code replicas} copies of each partition, and
 * the scenario's connections go to the nodes in turn, so producers and consumers are spread over the
 * cluster as users' would be. On one machine the nodes share its cores and disk: the ratio to one
 * node is the cost of forwarding and relaying (and, with replicas, of keeping every partition on
 * three disks through Raft). With {@code leaders} (above 0), the partitions are spread over that many
 * replica sets, each led by another node ({@code leaders=1}: one set, led by node1).
 */
final class PartitaClusterBroker implements BrokerUnderTest {
    private final List<PartitaNode> nodes;
    private final ConnectionFactory cf;
    private final int replicas;
    /** The queues' {@code leaders} option, 0 for none (every node leads a set). */
    private final int leaders;

    private PartitaClusterBroker(List<PartitaNode> nodes, int replicas, int leaders) {
        this.nodes = nodes;
        this.replicas = replicas;
        this.leaders = leaders;
        List<ConnectionFactory> factories = new ArrayList<>();
        for (PartitaNode n : nodes) {
            factories.add(new PartitaConnectionFactory(n.url()));
        }
        this.cf = new RoundRobinConnectionFactory(factories);
    }

    /**
     * @param replicas the queues' {@code replicas} option: 1 for partitions on their host alone
     * @param leaders  the queues' {@code leaders} option, 0 for none
     */
    static PartitaClusterBroker start(Path dir, int replicas, int leaders) throws Exception {
        ClusterConfig cluster = ClusterMembers.pick("bench");
        List<PartitaNode> started = new ArrayList<>();
        try {
            for (ClusterConfig.Member m : cluster.members()) {
                started.add(PartitaNode.start(NodeConfig.defaults()
                        .withNodeName(m.name())
                        .withPort(m.port())
                        .withDataDir(dir.resolve(m.name()))
                        .withSyncOnCommit(true)
                        .withCluster(cluster)));
            }
            // Without replicas, no wait for the links: the load starts as users' does, with the cluster
            // just started. With them, the replica sets are elected first, as in a cluster up for a while.
            if (replicas > 1) {
                ReplicaLeaders.awaitSets(
                        new PartitaConnectionFactory(started.get(0).url()), started.size(), replicas, leaders);
            }
        } catch (Exception e) {
            closeAll(started);
            throw e;
        }
        return new PartitaClusterBroker(started, replicas, leaders);
    }

    @Override
    public String url() {
        return nodes.get(0).url();
    }

    @Override
    public ConnectionFactory connectionFactory() {
        return cf;
    }

    @Override
    public String queueName(String base, String partitaOptions) {
        return clusteredQueue(base, partitaOptions, replicas, leaders);
    }

    /**
     * Every queue is spread over the three nodes; one named without options gets S4's 8 partitions
     * (a cluster has no plain queue of one partition shared by all nodes), so S4K's keys spread too.
     */
    static String clusteredQueue(String base, String partitaOptions, int replicas, int leaders) {
        String options = partitaOptions == null || partitaOptions.isEmpty() ? "partitions=8" : partitaOptions;
        return base + "?" + options + "&hosts=*" + (replicas > 1 ? "&replicas=" + replicas : "")
                + (leaders > 0 ? "&leaders=" + leaders : "");
    }

    @Override
    public void close() {
        closeAll(nodes);
    }

    private static void closeAll(List<PartitaNode> nodes) {
        for (int i = nodes.size() - 1; i >= 0; i--) {
            nodes.get(i).close();
        }
    }
}
