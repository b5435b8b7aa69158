package org.partita.bench;

import jakarta.jms.ConnectionFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.core.config.ClusterConnectionConfiguration;
import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.core.server.cluster.ClusterConnection;
import org.apache.activemq.artemis.core.server.cluster.impl.MessageLoadBalancingType;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.core.server.group.impl.GroupingHandlerConfiguration;
import org.apache.activemq.artemis.core.settings.impl.AddressSettings;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * Three embedded ActiveMQ Artemis servers of one cluster in this JVM, the way Artemis's documentation
 * sets up message groups over a cluster: static connectors between all three, {@code ON_DEMAND}
 * load balancing (a message goes to a node that has consumers), redistribution of messages left on
 * a node without consumers, and a grouping handler ({@code LOCAL} on the first node, {@code REMOTE}
 * on the others) that decides once which node serves each {@code JMSXGroupID}. Each server has the
 * tuned journal of {@link ArtemisBroker}, and the scenario's connections go to the servers in turn,
 * as for {@link PartitaClusterBroker}.
 */
final class ArtemisClusterBroker implements ArtemisUnderTest {
    private static final int NODES = 3;
    private static final String CLUSTER = "bench-cluster";
    private final List<EmbeddedActiveMQ> servers;
    private final List<ActiveMQConnectionFactory> factories;
    private final ConnectionFactory cf;
    private final String url;

    private ArtemisClusterBroker(List<EmbeddedActiveMQ> servers, List<Integer> ports) {
        this.servers = servers;
        this.factories = new ArrayList<>();
        for (int port : ports) {
            factories.add(new ActiveMQConnectionFactory("tcp://127.0.0.1:" + port));
        }
        this.cf = new RoundRobinConnectionFactory(List.copyOf(factories));
        this.url = "tcp://127.0.0.1:" + ports.get(0);
    }

    static ArtemisClusterBroker start(Path dir, long bufferTimeoutNanos) throws Exception {
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            ports.add(Ports.freeLoopbackPort());
        }
        List<EmbeddedActiveMQ> started = new ArrayList<>();
        try {
            for (int i = 0; i < NODES; i++) {
                EmbeddedActiveMQ server = new EmbeddedActiveMQ();
                server.setConfiguration(member(dir.resolve("node" + (i + 1)), i, ports, bufferTimeoutNanos));
                server.start();
                started.add(server);
            }
            awaitFullTopology(started);
        } catch (Exception e) {
            for (EmbeddedActiveMQ s : started) {
                s.stop();
            }
            throw e;
        }
        return new ArtemisClusterBroker(started, ports);
    }

    private static Configuration member(Path dir, int index, List<Integer> ports, long bufferTimeoutNanos)
            throws Exception {
        Configuration c = ArtemisBroker.configuration(dir, ports.get(index), bufferTimeoutNanos)
                .setName("artemis-bench-" + (index + 1))
                .setClusterUser("bench")
                .setClusterPassword("bench");
        List<String> peers = new ArrayList<>();
        for (int i = 0; i < ports.size(); i++) {
            String name = "node" + (i + 1);
            c.addConnectorConfiguration(name, "tcp://127.0.0.1:" + ports.get(i));
            if (i != index) {
                peers.add(name);
            }
        }
        c.addClusterConfiguration(new ClusterConnectionConfiguration()
                .setName(CLUSTER)
                .setConnectorName("node" + (index + 1))
                .setStaticConnectors(peers)
                .setMessageLoadBalancingType(MessageLoadBalancingType.ON_DEMAND)
                .setRetryInterval(200)
                .setMaxHops(1));
        c.setGroupingHandlerConfiguration(new GroupingHandlerConfiguration()
                .setName(SimpleString.of("grouping"))
                .setAddress(SimpleString.of(""))
                .setType(
                        index == 0 ? GroupingHandlerConfiguration.TYPE.LOCAL : GroupingHandlerConfiguration.TYPE.REMOTE)
                .setTimeout(5_000));
        // Messages that land on a node whose consumers are gone move to a node that has some at once.
        c.addAddressSetting("#", new AddressSettings().setRedistributionDelay(0));
        return c;
    }

    /** A scenario started before the servers know each other would measure three separate brokers. */
    private static void awaitFullTopology(List<EmbeddedActiveMQ> servers) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (EmbeddedActiveMQ s : servers) {
            while (true) {
                ClusterConnection cc = s.getActiveMQServer().getClusterManager().getClusterConnection(CLUSTER);
                if (cc != null && cc.getTopology().getMembers().size() >= NODES) {
                    break;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the Artemis cluster did not form within 30 s");
                }
                Thread.sleep(50);
            }
        }
    }

    @Override
    public ConnectionFactory connectionFactory() {
        return cf;
    }

    @Override
    public String url() {
        return url;
    }

    @Override
    public void close() {
        try {
            for (ActiveMQConnectionFactory f : factories) {
                f.close();
            }
            for (int i = servers.size() - 1; i >= 0; i--) {
                servers.get(i).stop();
            }
        } catch (Exception e) {
            throw new IllegalStateException("the Artemis cluster did not stop cleanly: " + e, e);
        }
    }
}
