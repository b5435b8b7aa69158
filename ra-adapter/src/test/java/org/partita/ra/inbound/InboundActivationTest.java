package org.partita.ra.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.api.PartitaAdmin;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.protocol.PartitionKeys;
import org.partita.ra.PartitaResourceAdapter;
import org.partita.ra.cluster.KeyedProducer;
import org.partita.ra.container.Deliveries;
import org.partita.ra.container.RecordingEndpointFactory;
import org.partita.ra.container.TestBootstrapContext;

/**
 * Activation properties of a message-driven bean against one embedded node, driven as a container
 * drives the adapter (the harness of {@link ClusteredQueueEndpointsTest}): {@code maxSession} below
 * the partition count, {@code messageSelector}, and a durable topic subscription
 * ({@code subscriptionDurability}, {@code subscriptionName}, {@code clientId}).
 */
@Tag("slow")
@Timeout(120)
class InboundActivationTest {
    @TempDir
    Path tmp;

    private PartitaNode node;
    private TestBootstrapContext container;
    private PartitaResourceAdapter adapter;
    private final Deliveries deliveries = new Deliveries();
    private final RecordingEndpointFactory bean = new RecordingEndpointFactory(deliveries);

    @AfterEach
    void stopAll() throws Exception {
        if (adapter != null) {
            adapter.stop();
        }
        if (container != null) {
            container.close();
        }
        if (node != null) {
            node.close();
        }
    }

    private void startNodeAndAdapter() throws Exception {
        node = PartitaNode.start(NodeConfig.defaults().withPort(0).withDataDir(tmp.resolve("node")));
        container = new TestBootstrapContext();
        adapter = new PartitaResourceAdapter();
        adapter.start(container);
    }

    private PartitaActivationSpec spec(String destination) {
        PartitaActivationSpec spec = new PartitaActivationSpec();
        spec.setDestination(destination);
        spec.setConnectionUrl(node.url());
        spec.setResourceAdapter(adapter);
        return spec;
    }

    private void send(String queueOrTopic, boolean topic, String key, int seq, String region) throws Exception {
        try (Connection c = new PartitaConnectionFactory(node.url()).createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(topic ? s.createTopic(queueOrTopic) : s.createQueue(queueOrTopic));
            Message m = s.createTextMessage(key + "#" + seq);
            m.setStringProperty("JMSXGroupID", key);
            m.setIntProperty("seq", seq);
            if (region != null) {
                m.setStringProperty("region", region);
            }
            p.send(m);
        }
    }

    @Test
    void withMaxSessionBelowThePartitionCountFewerEndpointsServeEveryPartitionEachKeyInOrder() throws Exception {
        startNodeAndAdapter();
        String queue = "mdb-orders";
        PartitaActivationSpec spec = spec(queue + "?partitions=8");
        spec.setMaxSession(3);
        adapter.endpointActivation(bean, spec);
        await("three endpoints").atMost(Duration.ofSeconds(20)).until(() -> bean.live() == 3);

        List<String> keys = new ArrayList<>();
        for (int k = 0; k < 40; k++) {
            keys.add("customer-" + k);
        }
        Set<Integer> partitionsOfKeys = new HashSet<>();
        keys.forEach(k -> partitionsOfKeys.add(PartitionKeys.partition(k, 8)));
        assertEquals(8, partitionsOfKeys.size(), "the keys fall into every partition");
        KeyedProducer producer = new KeyedProducer(node.url(), queue, keys, 20, 0).start();
        await("the producer").atMost(Duration.ofSeconds(60)).until(producer::finished);
        assertNull(producer.failure());
        await("every message").atMost(Duration.ofSeconds(60)).until(() -> deliveries.hasAll(producer.confirmed()));

        assertEquals(3, bean.created(), "maxSession bounds the endpoints: " + bean.created());
        assertTrue(
                bean.threads().stream().allMatch(t -> t.startsWith("test-container-work-")),
                "the bean runs on the container's work manager: " + bean.threads());
        for (String key : keys) {
            assertEquals(
                    PartitionKeys.partition(key, 8),
                    bean.partitionOfKey().get(key),
                    "the delivered message names its partition (" + key + ")");
        }
        assertEquals(keys.size() * 20, deliveries.distinct());
        assertEquals(0, deliveries.orderViolations(), deliveries.toString());
        assertEquals(0, bean.ruleBreaks());
        try (PartitaAdmin admin = PartitaAdmin.connect(new PartitaConnectionFactory(node.url()))) {
            List<PartitaAdmin.Partition> partitions = admin.partitions(queue);
            assertEquals(8, partitions.size());
            Set<String> owners = new HashSet<>();
            for (PartitaAdmin.Partition p : partitions) {
                assertNotNull(p.owner(), "partition " + p.partition() + " has an endpoint consumer");
                assertEquals(0, p.depth(), "partition " + p.partition() + " was emptied");
                owners.add(p.owner());
            }
            assertEquals(3, owners.size(), "the eight partitions spread over the three endpoints: " + owners);
        }
    }

    @Test
    void aMessageSelectorDeliversOnlyTheMessagesItAccepts() throws Exception {
        startNodeAndAdapter();
        PartitaActivationSpec spec = spec("mdb-regional");
        spec.setMessageSelector("region = 'eu'");
        spec.setMaxSession(2);
        adapter.endpointActivation(bean, spec);
        await("two endpoints").atMost(Duration.ofSeconds(20)).until(() -> bean.live() == 2);
        for (int i = 0; i < 10; i++) {
            send("mdb-regional", false, i % 2 == 0 ? "eu-shop" : "us-shop", i, i % 2 == 0 ? "eu" : "us");
        }
        await("the five eu messages").atMost(Duration.ofSeconds(30)).until(() -> deliveries.distinct() == 5);
        try (PartitaAdmin admin = PartitaAdmin.connect(new PartitaConnectionFactory(node.url()))) {
            await("the us messages wait")
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> admin.queueStats("mdb-regional").depth() == 5);
        }
        assertEquals(Set.of("eu-shop"), deliveries.keys());
        assertEquals(5, deliveries.total(), "each once: " + deliveries);
        assertEquals(0, deliveries.orderViolations());
    }

    @Test
    void aDurableTopicSubscriptionKeepsWhatIsPublishedWhileTheBeanIsNotDeployed() throws Exception {
        startNodeAndAdapter();
        PartitaActivationSpec spec = spec("alerts");
        spec.setDestinationType("jakarta.jms.Topic");
        spec.setSubscriptionDurability("Durable");
        spec.setSubscriptionName("pager");
        spec.setClientId("mdb-app");
        spec.validate();
        adapter.endpointActivation(bean, spec);
        await("one endpoint for a subscription of its own")
                .atMost(Duration.ofSeconds(20))
                .until(() -> bean.live() == 1);
        try (PartitaAdmin admin = PartitaAdmin.connect(new PartitaConnectionFactory(node.url()))) {
            await("the durable subscription")
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> admin.subscriptions().stream()
                            .anyMatch(s -> "durable:mdb-app:pager".equals(s.get("subscription"))
                                    && "durable".equals(s.get("kind"))));
        }
        for (int i = 0; i < 3; i++) {
            send("alerts", true, "alert", i, null);
        }
        await("the first three").atMost(Duration.ofSeconds(30)).until(() -> deliveries.distinct() == 3);

        adapter.endpointDeactivation(bean, spec);
        assertEquals(0, bean.live(), "undeployed");
        for (int i = 3; i < 6; i++) {
            send("alerts", true, "alert", i, null); // kept by the durable subscription
        }
        adapter.endpointActivation(bean, spec);
        await("the three published while undeployed")
                .atMost(Duration.ofSeconds(30))
                .until(() -> deliveries.distinct() == 6);
        assertEquals(6, deliveries.total(), deliveries.toString());
        assertEquals(0, deliveries.orderViolations(), deliveries.toString());
        assertFalse(deliveries.has("alert", 6));
        assertTrue(deliveries.has("alert", 5));
    }
}
