package org.partita.broker.it.cluster;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.cluster.FreePorts;
import org.partita.broker.config.ClusterConfig;
import org.partita.broker.config.NodeConfig;
import org.partita.jms.api.PartitaAdmin;

/**
 * Nodes compare their lists of members when they link: the order of {@code cluster.nodes} does not
 * matter (placement of {@code hosts=*} sorts the names), a different set of members is refused on
 * both sides with an error that says so.
 */
@Tag("slow")
@Timeout(120)
class ClusterMembersTest {
    @TempDir
    Path tmp;

    /** node3's config lists the same members as the others, with {@code members} changed. */
    private static UnaryOperator<NodeConfig> onNode3(UnaryOperator<List<ClusterConfig.Member>> members) {
        return config -> {
            if (!config.nodeName().equals("node3")) {
                return config;
            }
            ClusterConfig c = config.cluster();
            return config.withCluster(new ClusterConfig(
                    c.name(),
                    members.apply(new ArrayList<>(c.members())),
                    c.consensusPortOffset(),
                    c.heartbeatMillis(),
                    c.downAfterMillis(),
                    c.secret(),
                    c.relayoutTimeoutMillis()));
        };
    }

    private static Map<String, String> status(EmbeddedCluster c, int node) throws Exception {
        try (PartitaAdmin admin = PartitaAdmin.connect(c.factory(node))) {
            return admin.clusterStatus();
        }
    }

    @Test
    void aNodeListingTheMembersInAnotherOrderLinksAndPlacesPartitionsTheSame() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3, onNode3(m -> {
                    java.util.Collections.reverse(m);
                    return m;
                }))
                .startAll()) {
            try (PartitaAdmin admin = PartitaAdmin.connect(c.factory(0))) {
                admin.updateQueue("machines", Map.of("partitions", "8", "hosts", "*"));
            }
            String[] expected = {"node1", "node2", "node3", "node1", "node2", "node3", "node1", "node2"};
            for (int node = 0; node < 3; node++) {
                int n = node;
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    Map<String, String> status = status(c, n);
                    for (int p = 0; p < expected.length; p++) {
                        assertEquals(
                                expected[p], status.get("queue.machines.partition." + p + ".host"), status.toString());
                    }
                    for (int other = 1; other <= 3; other++) {
                        if (other != n + 1) {
                            assertTrue(status.get("member.node" + other).startsWith("up "), status.toString());
                        }
                    }
                });
            }
        }
    }

    @Test
    void aNodeListingOtherMembersIsRefusedWithAnErrorOnBothSides() throws Exception {
        int elsewhere =
                FreePorts.pairs(1, ClusterConfig.DEFAULT_CONSENSUS_PORT_OFFSET).get(0);
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3, onNode3(m -> {
                    m.add(new ClusterConfig.Member("node4", "127.0.0.1", elsewhere));
                    return m;
                }))
                .startAll()) {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                Map<String, String> status = status(c, 0);
                assertTrue(status.get("member.node2").startsWith("up "), status.toString());
                String node3 = status.get("member.node3");
                assertTrue(
                        node3.startsWith("down ")
                                && node3.contains("node node3 lists other members of cluster test")
                                && node3.contains("node4@127.0.0.1:" + elsewhere),
                        node3);
            });
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                Map<String, String> status = status(c, 2);
                for (String other : new String[] {"node1", "node2"}) {
                    String line = status.get("member." + other);
                    assertTrue(
                            line.startsWith("down ") && line.contains("node " + other + " lists other members"), line);
                }
            });
        }
    }
}
