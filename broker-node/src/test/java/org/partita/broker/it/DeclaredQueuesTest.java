package org.partita.broker.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.Session;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.ConfigException;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.config.NodeConfigFile;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.api.PartitaAdmin;
import org.partita.jms.client.PartitaConnectionFactory;

/** Queue options in the config file and through the admin call, surviving restarts. */
@Tag("slow")
class DeclaredQueuesTest {
    @TempDir
    Path dir;

    @Test
    void queuesDeclaredInTheConfigFileExistWithTheirOptions() throws Exception {
        Path file = dir.resolve("node.conf");
        Files.writeString(
                file,
                String.join(
                        "\n",
                        "port = 0",
                        "data = " + dir.resolve("data"),
                        "queue.orders.partitions = 8",
                        "queue.orders.maxDeliveryAttempts = 5",
                        "queue.events.mode = fanout",
                        "queue.events.appIds = billing,audit",
                        "queue.retried.redeliveryDelay = 1000",
                        "queue.retried.redeliveryMultiplier = 2",
                        "queue.retried.maxRedeliveryDelay = 60000"));
        NodeConfig c = NodeConfigFile.read(file, NodeConfig.defaults());
        try (PartitaNode node = PartitaNode.start(c);
                PartitaAdmin admin = PartitaAdmin.connect(new PartitaConnectionFactory(node.url()))) {
            Map<String, String> orders = admin.queueOptions("orders");
            assertEquals("8", orders.get("partitions"));
            assertEquals("5", orders.get("maxDeliveryAttempts"));
            assertEquals("billing,audit", admin.queueOptions("events").get("appIds"));
            assertEquals(8, admin.partitions("orders").size());
            Map<String, String> retried = admin.queueOptions("retried");
            assertEquals(
                    List.of("1000", "2.0", "60000"),
                    List.of(
                            retried.get("redeliveryDelay"),
                            retried.get("redeliveryMultiplier"),
                            retried.get("maxRedeliveryDelay")));
            assertEquals(
                    "10",
                    admin.updateQueue("retried", Map.of("redeliveryDelay", "10"))
                            .get("redeliveryDelay"),
                    "changed on the live queue");
        }
    }

    @Test
    void aBadQueueOptionInTheConfigFileNamesTheLine() throws Exception {
        Path file = dir.resolve("bad.conf");
        Files.writeString(file, "port = 0\nqueue.orders.partitions = many\n");
        ConfigException e = assertThrows(ConfigException.class, () -> NodeConfigFile.read(file, NodeConfig.defaults()));
        assertTrue(e.getMessage().contains("bad.conf:2") && e.getMessage().contains("partitions"), e.getMessage());
        Files.writeString(file, "port = 0\nqueue.orders.redeliveryMultiplier = 0.5\n");
        e = assertThrows(ConfigException.class, () -> NodeConfigFile.read(file, NodeConfig.defaults()));
        assertTrue(
                e.getMessage().contains("bad.conf:2") && e.getMessage().contains("redeliveryMultiplier"),
                e.getMessage());
    }

    @Test
    void theAdminCallCreatesAndChangesQueuesAndEverythingSurvivesARestart() throws Exception {
        NodeConfig config = NodeConfig.defaults().withPort(0).withDataDir(dir.resolve("data"));
        int port;
        try (PartitaNode node = PartitaNode.start(config);
                PartitaAdmin admin = PartitaAdmin.connect(new PartitaConnectionFactory(node.url()))) {
            port = node.port();
            admin.updateQueue("jobs", Map.of("partitions", "4", "rebalanceDelay", "100"));
            admin.updateQueue("jobs", Map.of("maxDeliveryAttempts", "3"));
            assertThrows(
                    jakarta.jms.JMSException.class,
                    () -> admin.updateQueue("jobs", Map.of("mode", "broadcast")),
                    "the mode of a live queue is fixed");
            assertThrows(jakarta.jms.JMSException.class, () -> admin.updateQueue("jobs", Map.of("bogus", "1")));
            try (Connection c = new PartitaConnectionFactory(node.url()).createConnection()) {
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                var p = s.createProducer(s.createQueue("jobs"));
                for (int i = 0; i < 40; i++) {
                    var m = s.createTextMessage("j");
                    m.setStringProperty("JMSXGroupID", "hot-key");
                    p.send(m);
                }
            }
            List<PartitaAdmin.Partition> parts = admin.partitions("jobs");
            assertEquals(
                    1, parts.stream().filter(PartitaAdmin.Partition::hot).count(), "the hot partition shows: " + parts);
            assertEquals(
                    40, parts.stream().mapToInt(PartitaAdmin.Partition::depth).sum());
        }
        try (PartitaNode node = PartitaNode.start(config.withPort(port));
                PartitaAdmin admin = PartitaAdmin.connect(new PartitaConnectionFactory(node.url()))) {
            Map<String, String> o = admin.queueOptions("jobs");
            assertEquals("4", o.get("partitions"));
            assertEquals("3", o.get("maxDeliveryAttempts"));
            assertEquals(
                    40,
                    admin.partitions("jobs").stream()
                            .mapToInt(PartitaAdmin.Partition::depth)
                            .sum());
            assertTrue(admin.queues().contains("jobs"));
        }
    }
}
