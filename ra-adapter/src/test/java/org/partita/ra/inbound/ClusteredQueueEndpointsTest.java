package org.partita.ra.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.partita.jms.api.PartitaAdmin;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.protocol.PartitionKeys;
import org.partita.ra.PartitaResourceAdapter;
import org.partita.ra.cluster.KeyedProducer;
import org.partita.ra.cluster.LoopbackCluster;
import org.partita.ra.container.Deliveries;
import org.partita.ra.container.RecordingEndpointFactory;
import org.partita.ra.container.TestBootstrapContext;
import org.partita.ra.container.Transactions;

/**
 * A message-driven bean on a queue spread over a three-node cluster, driven the way a container
 * drives the adapter (a bootstrap context with a work manager and timers, an endpoint factory whose
 * endpoints record what they receive, in Narayana transactions or without), with the activation
 * connected to one node: the endpoints serve the partitions every hosting node holds, each key in
 * order, and consume on by themselves when their node goes away.
 */
@Tag("slow")
@Timeout(300)
class ClusteredQueueEndpointsTest {
    private static final String QUEUE = "machine-events";
    private static final int PARTITIONS = 8;
    private static final int KEYS = 120;
    /** Sequence numbers per key of the paced producers. */
    private static final int ROUNDS = 60;

    @TempDir
    Path tmp;

    private LoopbackCluster cluster;
    private TestBootstrapContext container;
    private PartitaResourceAdapter adapter;
    private final Deliveries deliveries = new Deliveries();
    private RecordingEndpointFactory bean;

    @AfterEach
    void stopAll() throws Exception {
        if (adapter != null) {
            adapter.stop();
        }
        if (container != null) {
            container.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    /**
     * Deploys the bean on {@code machine-events?partitions=8&hosts=*&replicas=1} (one copy: a restarted node's partitions wait for it, which is what the endpoints meet here) through the node(s) of
     * {@code url}, its deliveries in container transactions (XA) or without.
     */
    private PartitaActivationSpec deploy(String url, boolean transacted) throws Exception {
        return deploy(url, transacted, 1);
    }

    /** As above, each partition kept on {@code replicas} nodes. */
    private PartitaActivationSpec deploy(String url, boolean transacted, int replicas) throws Exception {
        bean = transacted
                ? new RecordingEndpointFactory(deliveries, Transactions.manager())
                : new RecordingEndpointFactory(deliveries);
        container = new TestBootstrapContext();
        adapter = new PartitaResourceAdapter();
        adapter.start(container);
        PartitaActivationSpec spec = new PartitaActivationSpec();
        spec.setDestination(QUEUE + "?partitions=" + PARTITIONS + "&hosts=*&replicas=" + replicas);
        spec.setConnectionUrl(url);
        spec.setReconnectInterval(200L);
        spec.setResourceAdapter(adapter);
        adapter.endpointActivation(bean, spec);
        for (int i = 0; i < cluster.size(); i++) {
            int node = i;
            await("the queue agreed on " + cluster.name(i))
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> cluster.node(node).broker().existingQueue(QUEUE) != null);
        }
        return spec;
    }

    /** Each partition's hosting node, as the cluster reports it. */
    private Map<Integer, String> placement(int askedNode) throws Exception {
        Map<Integer, String> hostOf = new TreeMap<>();
        try (PartitaAdmin admin = PartitaAdmin.connect(new PartitaConnectionFactory(cluster.url(askedNode)))) {
            Map<String, String> status = admin.clusterStatus();
            for (int p = 0; p < PARTITIONS; p++) {
                hostOf.put(p, status.get("queue." + QUEUE + ".partition." + p + ".host"));
            }
        }
        return hostOf;
    }

    private static List<String> keysOf(int producer, int producers) {
        return KeyedProducer.keysOf(producer, producers, KEYS);
    }

    private static Set<String> union(List<KeyedProducer> producers) {
        Set<String> all = new HashSet<>();
        producers.forEach(p -> all.addAll(p.confirmed()));
        return all;
    }

    private static void awaitFinished(List<KeyedProducer> producers) {
        KeyedProducer.awaitFinished(producers, Duration.ofSeconds(120));
    }

    @ParameterizedTest(name = "transacted {0}")
    @ValueSource(booleans = {false, true})
    void endpointsConnectedToOneNodeServeThePartitionsOfEveryHostingNodeEachKeyInOrder(boolean transacted)
            throws Exception {
        cluster = new LoopbackCluster(tmp, 3).startAll();
        deploy(cluster.url(0), transacted);
        assertEquals(PARTITIONS, bean.live(), "one endpoint consumer per partition (maxSession 15)");

        int perKey = 25;
        List<KeyedProducer> producers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            producers.add(new KeyedProducer(cluster.url(i), QUEUE, keysOf(i, 3), perKey, 0).start());
        }
        awaitFinished(producers);
        Set<String> confirmed = union(producers);
        assertEquals(KEYS * perKey, confirmed.size());
        await("every message").atMost(Duration.ofSeconds(90)).until(() -> deliveries.hasAll(confirmed));
        // and nothing more: give a late duplicate the time to show up
        await().during(Duration.ofSeconds(2))
                .atMost(Duration.ofSeconds(5))
                .until(() -> deliveries.total() == confirmed.size());

        System.out.println("MDB on a clustered queue through node1" + (transacted ? ", XA: " : ": ") + deliveries);
        assertEquals(KEYS * perKey, deliveries.total(), "every message exactly once: " + deliveries);
        assertEquals(0, deliveries.orderViolations(), deliveries.toString());
        assertEquals(0, bean.ruleBreaks(), "one delivery at a time per endpoint, between before and after");
        assertEquals(transacted ? KEYS * perKey : 0, bean.commits(), "a transaction committed per delivery");

        Map<Integer, String> hostOf = placement(0);
        Map<String, Set<Integer>> servedByHost = new TreeMap<>();
        for (String key : deliveries.keys()) {
            int p = PartitionKeys.partition(key, PARTITIONS);
            servedByHost.computeIfAbsent(hostOf.get(p), h -> new HashSet<>()).add(p);
        }
        System.out.println("partitions served, by hosting node: " + servedByHost);
        for (int p = 0; p < PARTITIONS; p++) {
            assertEquals(cluster.name(p % 3), hostOf.get(p), "placement of partition " + p);
        }
        assertEquals(Set.of(1, 4, 7), servedByHost.get("node2"), "node2's partitions were served through node1");
        assertEquals(Set.of(2, 5), servedByHost.get("node3"), "node3's partitions were served through node1");
        assertEquals(Set.of(0, 3, 6), servedByHost.get("node1"));
    }

    @Test
    void endpointsConsumeOnThroughAFailoverAndTheLostNodesPartitionsAreServedAgainWhenItReturns() throws Exception {
        cluster = new LoopbackCluster(tmp, 3).startAll();
        deploy(cluster.url(0) + "," + cluster.url(1) + "," + cluster.url(2), false);
        assertEquals(PARTITIONS, bean.live());

        List<KeyedProducer> producers = pacedProducersOnNode2And3();

        cluster.stop(0); // the node the endpoints are connected to, while messages flow
        int roundAtStop =
                Math.max(producers.get(0).roundsDone(), producers.get(1).roundsDone());
        assertTrue(roundAtStop < ROUNDS - 10, "the producers are still sending: round " + roundAtStop);

        // the connection fails over to node2, and the endpoints serve node2's and node3's partitions meanwhile
        Map<String, Integer> offNode1 = new HashMap<>();
        for (int k = 0; k < KEYS; k++) {
            String key = "machine-" + k;
            if (PartitionKeys.partition(key, PARTITIONS) % 3 != 0) {
                offNode1.put(key, k);
            }
        }
        int sentAfterStop = roundAtStop + 5;
        await("messages sent after the stop, of partitions node1 does not host")
                .atMost(Duration.ofSeconds(60))
                .until(() -> offNode1.keySet().stream().allMatch(key -> deliveries.has(key, sentAfterStop)));
        assertEquals(PARTITIONS, bean.created(), "the same endpoints consume on: the failover moved their connection");
        assertEquals(PARTITIONS, bean.live());
        Set<String> keysOfNode1 = new HashSet<>();
        for (int k = 0; k < KEYS; k++) {
            if (!offNode1.containsKey("machine-" + k)) {
                keysOfNode1.add("machine-" + k);
            }
        }
        assertTrue(
                keysOfNode1.stream().noneMatch(key -> deliveries.has(key, sentAfterStop)),
                "node1's partitions wait for it");

        cluster.start(0);
        assertEveryConfirmedMessageArrivesEachKeyInOrder(producers, "MDB through a failover");
    }

    /**
     * With every partition on three replicas, the node the endpoints are connected to stops while
     * messages flow: its sets are led elsewhere, the connection fails over, and every key, the lost
     * node's included, goes on in order while it stays down.
     */
    @Test
    void withReplicasEveryKeyGoesOnInOrderWhileTheEndpointsNodeStaysDown() throws Exception {
        cluster = new LoopbackCluster(tmp, 3).startAll();
        deploy(cluster.url(0) + "," + cluster.url(1) + "," + cluster.url(2), true, 3);
        assertEquals(PARTITIONS, bean.live());

        List<KeyedProducer> producers = pacedProducersOnNode2And3();
        cluster.stop(0);
        int roundAtStop =
                Math.max(producers.get(0).roundsDone(), producers.get(1).roundsDone());
        assertTrue(roundAtStop < ROUNDS - 10, "the producers are still sending: round " + roundAtStop);

        int sentAfterStop = roundAtStop + 5;
        await("messages of every key sent after the stop, node1 still down")
                .atMost(Duration.ofSeconds(90))
                .until(() -> java.util.stream.IntStream.range(0, KEYS)
                        .allMatch(k -> deliveries.has("machine-" + k, sentAfterStop)));
        assertEveryConfirmedMessageArrivesEachKeyInOrder(producers, "MDB through the loss of a replicated node");
    }

    @Test
    void endpointsOnOneNodesUrlComeBackByThemselvesWhenThatNodeRestarts() throws Exception {
        restartTheEndpointsNodeUnderLoad();
        awaitEveryConfirmedMessage(restartLoad, "MDB through a node restart");
        assertEquals(0, bean.ruleBreaks(), "one delivery at a time per endpoint, between before and after");
    }

    /**
     * After the node the endpoints connect to restarts, partitions other nodes host are relayed again
     * while the endpoint consumers join one by one. This found a bug (about 1 run in 10 then): two link
     * threads could tell the client an older union of a feed's partitions last, so a message already
     * received came again unflagged, sometimes after its key's next one. Fixed in ConsumerFeed (the
     * union is told under the feed's lock); repeated because the race needed several runs to show.
     */
    @org.junit.jupiter.api.RepeatedTest(3)
    void eachKeysFirstDeliveriesStayInOrderAcrossARestartOfTheEndpointsNode() throws Exception {
        restartTheEndpointsNodeUnderLoad();
        awaitEveryConfirmedMessage(restartLoad, "MDB through a node restart");
        assertEquals(0, deliveries.orderViolations(), "each key's first deliveries in order: " + deliveries);
        assertEquals(0, deliveries.unflaggedRepeats(), "a repeat only as a redelivery: " + deliveries);
    }

    private List<KeyedProducer> restartLoad;

    /** The bean through node1's URL alone; node1 stops and starts again while node2 and node3 take sends. */
    private void restartTheEndpointsNodeUnderLoad() throws Exception {
        cluster = new LoopbackCluster(tmp, 3).startAll();
        deploy(cluster.url(0), false);
        restartLoad = pacedProducersOnNode2And3();

        cluster.stop(0);
        await("the endpoints released while their node is down")
                .atMost(Duration.ofSeconds(20))
                .until(() -> bean.live() == 0);
        int endpointsBefore = bean.created();
        cluster.start(0);
        await("the endpoints back without a redeployment")
                .atMost(Duration.ofSeconds(30))
                .until(() -> bean.live() == PARTITIONS);
        assertEquals(endpointsBefore + PARTITIONS, bean.created());
    }

    /** Producers on node2 and node3, 60 keys each, a round every 100 ms; returns once 10 rounds are sent. */
    private List<KeyedProducer> pacedProducersOnNode2And3() {
        List<KeyedProducer> producers = List.of(
                new KeyedProducer(cluster.url(1), QUEUE, keysOf(0, 2), ROUNDS, 100).start(),
                new KeyedProducer(cluster.url(2), QUEUE, keysOf(1, 2), ROUNDS, 100).start());
        await().atMost(Duration.ofSeconds(60))
                .until(() ->
                        producers.get(0).roundsDone() >= 10 && producers.get(1).roundsDone() >= 10);
        return producers;
    }

    private void assertEveryConfirmedMessageArrivesEachKeyInOrder(List<KeyedProducer> producers, String what)
            throws Exception {
        awaitEveryConfirmedMessage(producers, what);
        assertEquals(0, deliveries.orderViolations(), "each key's first deliveries in order: " + deliveries);
        assertEquals(0, deliveries.unflaggedRepeats(), "a repeat only as a redelivery: " + deliveries);
        assertEquals(0, bean.ruleBreaks(), "one delivery at a time per endpoint, between before and after");
    }

    private void awaitEveryConfirmedMessage(List<KeyedProducer> producers, String what) throws Exception {
        awaitFinished(producers);
        Set<String> confirmed = union(producers);
        assertEquals(KEYS * ROUNDS, confirmed.size());
        await("every confirmed message, node1's partitions too")
                .atMost(Duration.ofSeconds(120))
                .until(() -> deliveries.hasAll(confirmed));
        System.out.println(what + ": " + deliveries + "; endpoints created " + bean.created());
    }
}
