package org.partita.broker.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.broker.config.ClusterConfig;
import org.partita.broker.core.queue.QueueOptions;

/** Where a clustered queue's partitions live, and which definitions a cluster refuses. */
class PlacementTest {
    private final ClusterConfig cluster = ClusterConfig.of(
            "c", ClusterConfig.parseMembers("node1@127.0.0.1:61700, node2@127.0.0.1:61701, node3@127.0.0.1:61702"));

    private static QueueOptions options(String text) {
        return QueueOptions.parse(text, QueueOptions.DEFAULTS);
    }

    @Test
    void partitionsGoRoundTheHostsInTheirOrder() {
        List<String> hosts = Placement.hosts(options("partitions=8&hosts=node2,node1"), cluster);
        assertEquals(List.of("node2", "node1"), hosts);
        assertEquals("node2", Placement.hostOf(hosts, 0));
        assertEquals("node1", Placement.hostOf(hosts, 1));
        assertEquals("node2", Placement.hostOf(hosts, 6));
        assertEquals(
                List.of("node1", "node2", "node3"),
                Placement.hosts(options("partitions=3&hosts=*"), cluster),
                "* is every member, sorted by name");
    }

    @Test
    void everyMemberIsPlacedByNameWhateverTheOrderOfTheNodeList() {
        ClusterConfig reordered = ClusterConfig.of(
                "c", ClusterConfig.parseMembers("node3@127.0.0.1:61702, node1@127.0.0.1:61700, node2@127.0.0.1:61701"));
        for (String all : new String[] {"*", "all", "ALL"}) {
            assertEquals(
                    List.of("node1", "node2", "node3"),
                    Placement.hosts(options("partitions=8&hosts=" + all), reordered));
        }
        assertEquals(cluster.memberList(), reordered.memberList(), "the list nodes compare when they link");
        assertTrue(
                !cluster.memberList()
                        .equals(ClusterConfig.of(
                                        "c",
                                        ClusterConfig.parseMembers(
                                                "node1@127.0.0.1:61700, node2@127.0.0.1:61701, node3@127.0.0.1:61703"))
                                .memberList()),
                "another address");
    }

    @Test
    void aDefinitionTheClusterCannotHostIsRefusedWithItsReason() {
        assertNull(Placement.problem("q", options("partitions=3&hosts=*"), cluster));
        assertTrue(
                Placement.problem("q", options("partitions=2&hosts=*"), cluster).contains("at least one"));
        assertTrue(Placement.problem("q", options("partitions=4&hosts=node1,node9"), cluster)
                .contains("node9"));
        assertTrue(Placement.problem("q", options("partitions=4&hosts=node1,node1"), cluster)
                .contains("twice"));
        assertNull(Placement.problem("q", options("partitions=4&hosts=*&mode=fanout&appIds=a,b"), cluster));
        assertNull(Placement.problem("q", options("partitions=4&hosts=*&mode=broadcast"), cluster));
    }

    @Test
    void eachHostsPartitionsAreKeptByItAndTheHostsAfterItThreeByDefault() {
        QueueOptions three = options("partitions=6&hosts=*");
        assertEquals(3, Placement.replicas(three, cluster), "three hosts: three replicas by default");
        assertTrue(Placement.replicated(three, cluster));
        assertEquals(3, Placement.leaders(three, cluster), "every host leads a set by default");
        assertEquals(
                List.of("node2", "node3", "node1"), Placement.replicasOf(three, cluster, 4), "partition 4 is node2's");
        assertEquals("node2+node3+node1", Placement.setName(Placement.replicasOf(three, cluster, 1)));
        assertEquals(
                Placement.replicasOf(three, cluster, 1),
                Placement.replicasOf(three, cluster, 4),
                "a host's partitions share one set");

        QueueOptions two = options("partitions=4&hosts=node1,node2");
        assertEquals(2, Placement.replicas(two, cluster), "fewer hosts than three: one replica per host");
        assertEquals(List.of("node2", "node1"), Placement.replicasOf(two, cluster, 1));

        QueueOptions one = options("partitions=6&hosts=*&replicas=1");
        assertEquals(1, Placement.replicas(one, cluster));
        assertTrue(!Placement.replicated(one, cluster), "one copy: the single-node path");
        assertTrue(!Placement.replicated(options("partitions=2"), cluster), "a queue of one node is never replicated");
    }

    @Test
    void optionsLeftOutAndOptionsGivenTheirDefaultValuesLayAQueueOutAlike() {
        QueueOptions plain = options("partitions=8&hosts=*");
        assertTrue(Placement.sameLayout(plain, options("partitions=8&hosts=*&replicas=3&leaders=3"), cluster));
        assertTrue(
                Placement.sameLayout(plain, options("partitions=8&hosts=node1,node2,node3"), cluster),
                "every member is the members sorted by name");
        assertTrue(
                !Placement.sameLayout(plain, options("partitions=8&hosts=node2,node1,node3"), cluster),
                "another order of hosts places the partitions elsewhere");
        assertTrue(!Placement.sameLayout(plain, options("partitions=8&hosts=*&replicas=2"), cluster));
        assertTrue(!Placement.sameLayout(plain, options("partitions=6&hosts=*"), cluster));
        assertTrue(!plain.sameLayout(options("partitions=8&hosts=*&replicas=3")), "the raw options differ");
    }

    @Test
    void withFewerLeadersThanHostsThePartitionsShareFewerSetsLedByTheFirstHosts() {
        QueueOptions one = options("partitions=8&hosts=*&leaders=1");
        assertEquals(1, Placement.leaders(one, cluster));
        for (int p = 0; p < 8; p++) {
            assertEquals(List.of("node1", "node2", "node3"), Placement.replicasOf(one, cluster, p), "partition " + p);
        }
        QueueOptions two = options("partitions=8&hosts=*&leaders=2");
        assertEquals(List.of("node1", "node2", "node3"), Placement.replicasOf(two, cluster, 4));
        assertEquals(List.of("node2", "node3", "node1"), Placement.replicasOf(two, cluster, 5));
        assertEquals(
                List.of("node1", "node2"),
                Placement.replicasOf(options("partitions=6&hosts=*&replicas=2&leaders=1"), cluster, 5),
                "two replicas, one leader: the first host and the next");
        assertTrue(!options("partitions=8&hosts=*").sameLayout(one), "a change of leaders is a change of layout");
        assertTrue(!Placement.sameLayout(options("partitions=8&hosts=*"), one, cluster));
        String why = Placement.problem("q", options("partitions=4&hosts=node1,node2&leaders=3"), cluster);
        assertTrue(why != null && why.contains("3 leaders") && why.contains("2 hosts"), why);
        assertNull(Placement.problem("q", one, cluster));
    }

    @Test
    void moreReplicasThanHostsAreRefused() {
        String why = Placement.problem("q", options("partitions=4&hosts=node1,node2&replicas=3"), cluster);
        assertTrue(why != null && why.contains("3 replicas") && why.contains("2 hosts"), why);
        assertNull(Placement.problem("q", options("partitions=4&hosts=node1,node2&replicas=2"), cluster));
    }
}
