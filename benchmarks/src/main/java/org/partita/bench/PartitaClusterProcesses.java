package org.partita.bench;

import jakarta.jms.ConnectionFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.partita.broker.config.ClusterConfig;
import org.partita.broker.main.NodeMain;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.protocol.PartitionKeys;

/**
 * Three Partita nodes of one cluster, each started as an operator starts one ({@link NodeMain} with a
 * config file) in a JVM of its own, with the heartbeat of {@link PartitaClusterBroker}'s nodes; queues
 * spread over all three with {@code replicas} copies of each partition. Clients connect with a URL
 * listing every node, so they fail over when theirs is lost. The failover scenario kills the node
 * leading the first node's partitions (normally that node itself, their preferred leader).
 */
final class PartitaClusterProcesses implements LeaderKillable {
    /** How long a client's connection tries the other nodes when its own is lost. */
    private static final long FAILOVER_TIMEOUT_MILLIS = 60_000;

    private static final int START_ATTEMPTS = 3;
    private static final long START_SECONDS = 120;

    private final ClusterConfig cluster;
    private final List<JvmProcess> nodes;
    private final int replicas;
    /** The queues' {@code leaders} option, 0 for none. */
    private final int leaders;

    private final int leader;
    private final ConnectionFactory cf;

    private PartitaClusterProcesses(
            ClusterConfig cluster, List<JvmProcess> nodes, int replicas, int leaders, int leader) {
        this.leaders = leaders;
        this.cluster = cluster;
        this.nodes = nodes;
        this.replicas = replicas;
        this.leader = leader;
        List<ConnectionFactory> factories = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            factories.add(factoryFrom(i));
        }
        this.cf = new RoundRobinConnectionFactory(factories);
    }

    /**
     * @param leaders    the queues' {@code leaders} option, 0 for none
     * @param jvmOptions the nodes' JVM options (heap, flight recording)
     */
    static PartitaClusterProcesses start(Path dir, int replicas, int leaders, List<String> jvmOptions)
            throws Exception {
        ClusterConfig cluster = ClusterMembers.pick("bench");
        List<JvmProcess> started = new ArrayList<>();
        try {
            for (ClusterConfig.Member m : cluster.members()) {
                started.add(startNode(dir, cluster, m, jvmOptions));
            }
            int leader = 0;
            if (replicas > 1) {
                ConnectionFactory first =
                        new PartitaConnectionFactory(url(cluster.members().get(0)));
                ReplicaLeaders.awaitSets(first, started.size(), replicas, leaders);
                leader = cluster.memberNames().indexOf(ReplicaLeaders.leaderOfFirstSet(first));
            }
            return new PartitaClusterProcesses(cluster, started, replicas, leaders, Math.max(0, leader));
        } catch (Exception e) {
            started.forEach(JvmProcess::close);
            throw e;
        }
    }

    /**
     * Starts a node and waits for its ready line. A node may find its port taken for a moment by
     * another node's outgoing connection (they dial it before it listens): it then exits at once and
     * is started again.
     */
    private static JvmProcess startNode(
            Path dir, ClusterConfig cluster, ClusterConfig.Member m, List<String> jvmOptions) throws Exception {
        Path config = dir.resolve(m.name() + ".properties");
        Files.createDirectories(dir);
        Files.writeString(
                config,
                String.join(
                        "\n",
                        "nodeName = " + m.name(),
                        "port = " + m.port(),
                        "data = " + dir.resolve(m.name()),
                        "cluster.name = " + cluster.name(),
                        "cluster.nodes = " + cluster.memberList(),
                        "cluster.heartbeatMillis = " + cluster.heartbeatMillis(),
                        "cluster.downAfterMillis = " + cluster.downAfterMillis(),
                        ""));
        List<String> jvm = new ArrayList<>(jvmOptions);
        jvm.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        for (int attempt = 1; ; attempt++) {
            JvmProcess node = JvmProcess.start(
                    NodeMain.class.getName(),
                    jvm,
                    List.of("--config", config.toString()),
                    ProcessBuilder.Redirect.appendTo(
                            dir.resolve(m.name() + ".log").toFile()));
            try {
                node.awaitLine("Partita node " + m.name() + " ready", START_SECONDS);
                return node;
            } catch (IOException e) {
                node.close();
                if (attempt == START_ATTEMPTS) {
                    throw new IOException(e.getMessage() + "; see " + dir.resolve(m.name() + ".log"), e);
                }
            }
        }
    }

    private static String url(ClusterConfig.Member m) {
        return "tcp://" + m.host() + ":" + m.port();
    }

    /** A factory whose connections go to node {@code first}, then the others in turn when it is lost. */
    private ConnectionFactory factoryFrom(int first) {
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < cluster.members().size(); i++) {
            urls.add(url(cluster.members().get((first + i) % cluster.members().size())));
        }
        return new PartitaConnectionFactory(String.join(",", urls) + "?failoverTimeout=" + FAILOVER_TIMEOUT_MILLIS);
    }

    @Override
    public ConnectionFactory connectionFactory() {
        return cf;
    }

    @Override
    public ConnectionFactory leaderConnectionFactory() {
        return factoryFrom(leader);
    }

    @Override
    public String leaderName() {
        return cluster.members().get(leader).name();
    }

    @Override
    public Predicate<String> keysOfLeader(String queue, int partitions) throws Exception {
        List<String> leaders = ReplicaLeaders.awaitLed(leaderConnectionFactory(), queue, partitions);
        String name = leaderName();
        if (!leaders.contains(name)) {
            throw new IllegalStateException(name + " leads no partition of " + queue + ": " + leaders);
        }
        return key -> leaders.get(PartitionKeys.partition(key, partitions)).equals(name);
    }

    @Override
    public void killLeader() throws Exception {
        nodes.get(leader).kill();
    }

    @Override
    public String url() {
        return url(cluster.members().get(0));
    }

    @Override
    public String queueName(String base, String partitaOptions) {
        return PartitaClusterBroker.clusteredQueue(base, partitaOptions, replicas, leaders);
    }

    @Override
    public void close() {
        nodes.forEach(JvmProcess::close);
    }
}
