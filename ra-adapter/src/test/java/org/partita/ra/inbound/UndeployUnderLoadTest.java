package org.partita.ra.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.api.PartitaAdmin;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.ra.PartitaResourceAdapter;
import org.partita.ra.cluster.KeyedProducer;
import org.partita.ra.container.Deliveries;
import org.partita.ra.container.RecordingEndpointFactory;
import org.partita.ra.container.TestBootstrapContext;
import org.partita.ra.container.Transactions;

/**
 * A bean undeployed and deployed again while messages flow, as a server does it: first the
 * container refuses every invocation (the component is shutting down), then it deactivates the
 * endpoint; the next deployment activates a new one. Nothing a bean did not process may be
 * acknowledged, nothing may be dead-lettered for being refused, and each key keeps its order.
 */
@Tag("slow")
@Timeout(180)
class UndeployUnderLoadTest {
    private static final String QUEUE = "undeploy-orders";
    private static final int CYCLES = 6;
    private static final int KEYS = 24;
    private static final int ROUNDS = 40;

    @TempDir
    Path tmp;

    private PartitaNode node;
    private TestBootstrapContext container;
    private PartitaResourceAdapter adapter;
    private final Deliveries deliveries = new Deliveries();

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

    @ParameterizedTest(name = "transacted deliveries: {0}")
    @ValueSource(booleans = {true, false})
    void undeployingWhileMessagesFlowLosesNothingAndKeepsEachKeyInOrder(boolean transacted) throws Exception {
        node = PartitaNode.start(NodeConfig.defaults().withPort(0).withDataDir(tmp.resolve("node")));
        container = new TestBootstrapContext();
        adapter = new PartitaResourceAdapter();
        adapter.start(container);
        List<String> keys = new ArrayList<>();
        for (int k = 0; k < KEYS; k++) {
            keys.add("machine-" + k);
        }
        KeyedProducer producer = new KeyedProducer(node.url(), QUEUE + "?partitions=4", keys, ROUNDS, 20).start();
        int refused = 0;
        for (int cycle = 0; cycle < CYCLES; cycle++) {
            RecordingEndpointFactory bean = bean(transacted);
            PartitaActivationSpec spec = spec();
            adapter.endpointActivation(bean, spec);
            int before = deliveries.total();
            await("the bean processes messages")
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> deliveries.total() > before + 20);
            bean.shutDown();
            await("invocations refused").atMost(Duration.ofSeconds(10)).until(() -> bean.refused() > 0);
            // a pause on purpose: the container refuses for a while before it deactivates (WildFly: until its
            // invocations end)
            Thread.sleep(300);
            adapter.endpointDeactivation(bean, spec);
            assertEquals(0, bean.live(), "every endpoint released");
            assertEquals(0, bean.ruleBreaks(), "the container's rules kept");
            refused += bean.refused();
        }
        await("the producer").atMost(Duration.ofSeconds(60)).until(producer::finished);
        assertNull(producer.failure());

        RecordingEndpointFactory last = bean(transacted);
        adapter.endpointActivation(last, spec());
        await("every confirmed message processed")
                .atMost(Duration.ofSeconds(60))
                .until(() -> deliveries.hasAll(producer.confirmed()));

        assertTrue(refused > 0, "the container refused invocations while shutting the bean down");
        assertEquals(KEYS * ROUNDS, deliveries.distinct(), deliveries.toString());
        assertEquals(0, deliveries.orderViolations(), deliveries.toString());
        assertEquals(0, deliveries.unflaggedRepeats(), deliveries.toString());
        try (PartitaAdmin admin = PartitaAdmin.connect(new PartitaConnectionFactory(node.url()))) {
            await("the queue emptied")
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> admin.partitions(QUEUE).stream()
                                    .mapToLong(PartitaAdmin.Partition::depth)
                                    .sum()
                            == 0);
            assertEquals(0, admin.queueStats(QUEUE).deadLettered(), "nothing dead-lettered for being refused");
            assertEquals(
                    0,
                    admin.queueStats().stream()
                            .filter(q -> q.name().equals("DLQ"))
                            .mapToLong(q -> q.depth() + q.inFlight())
                            .sum(),
                    "the dead-letter queue holds nothing");
        }
    }

    private RecordingEndpointFactory bean(boolean transacted) {
        RecordingEndpointFactory bean = transacted
                ? new RecordingEndpointFactory(deliveries, Transactions.manager())
                : new RecordingEndpointFactory(deliveries);
        return bean.workingFor(5);
    }

    private PartitaActivationSpec spec() {
        PartitaActivationSpec spec = new PartitaActivationSpec();
        spec.setDestination(QUEUE + "?partitions=4");
        spec.setConnectionUrl(node.url());
        spec.setResourceAdapter(adapter);
        return spec;
    }
}
