package org.partita.broker.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cluster.* fields of a config file, in any order, with errors naming file, line and field. */
class ClusterConfigFileTest {
    @TempDir
    Path tmp;

    private NodeConfig read(String... lines) throws Exception {
        Path f = tmp.resolve("node.properties");
        Files.write(f, List.of(lines));
        return NodeConfigFile.read(f, NodeConfig.defaults());
    }

    @Test
    void aClusterIsReadInAnyOrderOfItsFields() throws Exception {
        NodeConfig c = read(
                "cluster.nodes = node1@10.0.0.1:61700, node2@10.0.0.2:61701",
                "nodeName = node2",
                "cluster.secret = s3cret",
                "cluster.name = plant",
                "cluster.downAfterMillis = 3000");
        ClusterConfig cluster = c.cluster();
        assertEquals("plant", cluster.name());
        assertEquals(List.of("node1", "node2"), cluster.memberNames());
        assertEquals(new ClusterConfig.Member("node2", "10.0.0.2", 61701), cluster.member("node2"));
        assertEquals("s3cret", cluster.secret());
        assertEquals(3000, cluster.downAfterMillis());
        assertNull(read("nodeName = solo").cluster(), "no cluster fields: a node on its own");
    }

    @Test
    void mistakesNameTheLineAndTheField() {
        ConfigException noName = assertThrows(ConfigException.class, () -> read("cluster.nodes = node1@h:1"));
        assertTrue(noName.getMessage().contains("cluster.name"), noName.getMessage());
        ConfigException bad =
                assertThrows(ConfigException.class, () -> read("cluster.name = p", "cluster.nodes = node1:61700"));
        assertTrue(
                bad.getMessage().contains(":2: field 'cluster.nodes'")
                        && bad.getMessage().contains("name@host:port"),
                bad.getMessage());
        ConfigException notListed = assertThrows(
                ConfigException.class,
                () -> read("nodeName = node9", "cluster.name = p", "cluster.nodes = node1@h:61700"));
        assertTrue(notListed.getMessage().contains("node9"), notListed.getMessage());
        ConfigException unknown = assertThrows(ConfigException.class, () -> read("cluster.size = 3"));
        assertTrue(unknown.getMessage().contains("cluster.size"), unknown.getMessage());
    }

    @Test
    void theReplicaLogIsKeptAsConfiguredOrByDefault() throws Exception {
        ClusterConfig set = read(
                        "nodeName = node1",
                        "cluster.name = plant",
                        "cluster.nodes = node1@h:61700",
                        "cluster.replicaLog.markEntries = 500",
                        "cluster.replicaLog.keptEntries = 500",
                        "cluster.replicaLog.segmentBytes = 1048576",
                        "cluster.replicaLog.sentAgainWindowMillis = 600000")
                .cluster();
        assertEquals(new ClusterConfig.ReplicaLog(500, 500, 1 << 20, 600_000), set.replicaLog());
        ClusterConfig unset = read("nodeName = node1", "cluster.name = plant", "cluster.nodes = node1@h:61700")
                .cluster();
        assertEquals(ClusterConfig.ReplicaLog.DEFAULT, unset.replicaLog());
        ConfigException tiny = assertThrows(
                ConfigException.class,
                () -> read(
                        "nodeName = node1",
                        "cluster.name = plant",
                        "cluster.nodes = node1@h:61700",
                        "cluster.replicaLog.segmentBytes = 4096"));
        assertTrue(tiny.getMessage().contains("cluster.replicaLog.segmentBytes"), tiny.getMessage());
        ConfigException tooFew = assertThrows(
                ConfigException.class,
                () -> read(
                        "nodeName = node1",
                        "cluster.name = plant",
                        "cluster.nodes = node1@h:61700",
                        "cluster.replicaLog.markEntries = 1000",
                        "cluster.replicaLog.keptEntries = 10"));
        assertTrue(tooFew.getMessage().contains("keptEntries of markEntries or more"), tooFew.getMessage());
    }
}
