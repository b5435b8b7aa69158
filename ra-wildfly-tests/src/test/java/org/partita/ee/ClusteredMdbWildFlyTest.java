package org.partita.ee;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.it.cluster.ProcessCluster;
import org.partita.ee.cluster.KeyRecorder;
import org.partita.jms.api.PartitaAdmin;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.ra.cluster.KeyedProducer;
import org.partita.ra.container.Deliveries;

/**
 * A message-driven bean in WildFly on a clustered queue whose partitions are each kept on all three
 * nodes of a cluster, the nodes in processes of their own, the adapter given all three in its URL.
 * While producers on the other two nodes send 60 keys round after round, the node the bean is
 * connected to is killed (SIGKILL): its partitions are led elsewhere, the bean's connection fails
 * over, and every confirmed message reaches the bean, each key's first deliveries in order, a
 * message handed out again only flagged redelivered. The bean records what it is handed in a
 * database of its own process, so what it saw is read straight from there.
 */
@Tag("slow")
@Tag("wildfly")
class ClusteredMdbWildFlyTest {
    /** Beside the Arquillian-managed server's (10000) and the crash test's (10200). */
    private static final int PORT_OFFSET = 10300;

    private static final int KEYS = 60;
    private static final int ROUNDS = 60;

    @Test
    void aBeanOnAReplicatedClusteredQueueGoesOnInKeyOrderWhenItsNodeIsKilled(@TempDir Path tmp) throws Exception {
        Files.createDirectories(tmp.resolve("db"));
        Files.createDirectories(tmp.resolve("nodes"));
        try (H2ServerProcess database = H2ServerProcess.start(tmp.resolve("db"));
                java.sql.Connection db = database.connect("cluster");
                ProcessCluster cluster = new ProcessCluster(
                                tmp.resolve("nodes"),
                                "ee",
                                3,
                                List.of("cluster.heartbeatMillis = 500", "cluster.downAfterMillis = 3000"))
                        .start()) {
            try (Statement s = db.createStatement()) {
                s.execute("create table " + KeyRecorder.TABLE + "(id bigint generated always as identity primary key,"
                        + " msg_key varchar(64), seq int, redelivered boolean, instance int)");
            }
            String urls =
                    IntStream.range(0, 3).mapToObj(i -> cluster.node(i).url()).collect(Collectors.joining(","));
            try (WildFlyProcess server = new WildFlyProcess(
                    PORT_OFFSET, List.of("-Dpartita.url=" + urls, "-Djboss.tx.node.id=partita-cluster"))) {
                server.deploy(Deployments.adapter());
                server.deploy(application(database));
                server.start();
                awaitDefinedOn(cluster.node(1).url());
                awaitDefinedOn(cluster.node(2).url());

                List<KeyedProducer> producers = List.of(
                        new KeyedProducer(
                                        cluster.node(1).url(),
                                        KeyRecorder.QUEUE,
                                        KeyedProducer.keysOf(0, 2, KEYS),
                                        ROUNDS,
                                        100)
                                .start(),
                        new KeyedProducer(
                                        cluster.node(2).url(),
                                        KeyRecorder.QUEUE,
                                        KeyedProducer.keysOf(1, 2, KEYS),
                                        ROUNDS,
                                        100)
                                .start());
                await("ten rounds sent")
                        .atMost(Duration.ofSeconds(60))
                        .until(() -> producers.stream().allMatch(p -> p.roundsDone() >= 10));
                await("the bean at work before the kill")
                        .atMost(Duration.ofSeconds(60))
                        .until(() -> arrivals(db).distinct() >= KEYS * 5);

                assertTrue(
                        beanConnectedTo(cluster.node(0).url()),
                        "the bean consumes through node1, the first of its URL, which the test kills");
                cluster.kill(0);
                int roundAtKill = producers.stream()
                        .mapToInt(KeyedProducer::roundsDone)
                        .max()
                        .orElseThrow();
                assertTrue(roundAtKill < ROUNDS - 5, "the producers still send after the kill: round " + roundAtKill);

                KeyedProducer.awaitFinished(producers, Duration.ofSeconds(180));
                Set<String> confirmed = new HashSet<>();
                producers.forEach(p -> confirmed.addAll(p.confirmed()));
                assertEquals(KEYS * ROUNDS, confirmed.size(), "every send confirmed");
                await("every confirmed message handed to the bean, node1 still down")
                        .atMost(Duration.ofSeconds(120))
                        .until(() -> arrivals(db).hasAll(confirmed));
                Deliveries seen = arrivals(db);
                System.out.println("MDB on a replicated clustered queue, its node killed: " + seen);
                assertEquals(0, seen.orderViolations(), "each key's first deliveries in order: " + seen);
                assertEquals(0, seen.unflaggedRepeats(), "a repeat only as a redelivery: " + seen);
                assertEquals(confirmed.size(), seen.distinct(), "nothing but what was sent: " + seen);
            }
        }
    }

    private static WebArchive application(H2ServerProcess database) {
        return ShrinkWrap.create(WebArchive.class, "partita-cluster.war")
                .addClass(KeyRecorder.class)
                .addAsWebInfResource(new StringAsset(Deployments.RA_BINDING), "jboss-ejb3.xml")
                .addAsWebInfResource(
                        new StringAsset(database.dataSourceXml(KeyRecorder.DATA_SOURCE, "partita-cluster", "cluster")),
                        "partita-cluster-ds.xml");
    }

    /** Waits until the node at {@code url} knows the queue the bean's activation defined, with every partition placed. */
    private static void awaitDefinedOn(String url) {
        await("the bean's queue defined on " + url)
                .atMost(Duration.ofSeconds(60))
                .ignoreExceptions()
                .until(() -> {
                    try (PartitaAdmin admin = PartitaAdmin.connect(new PartitaConnectionFactory(url))) {
                        var status = admin.clusterStatus();
                        return IntStream.range(0, KeyRecorder.PARTITIONS)
                                .allMatch(p ->
                                        status.get("queue." + KeyRecorder.QUEUE + ".partition." + p + ".host") != null);
                    }
                });
    }

    /** Whether a client (not another node) with consumers is connected to the node at {@code url}: the bean's activation. */
    private static boolean beanConnectedTo(String url) throws Exception {
        try (PartitaAdmin admin = PartitaAdmin.connect(new PartitaConnectionFactory(url))) {
            return admin.connections().stream()
                    .anyMatch(c -> !String.valueOf(c.get("user")).startsWith("$node:")
                            && Integer.parseInt(c.getOrDefault("consumers", "0")) > 0);
        }
    }

    /** What the bean recorded, in the order it was handed the messages. */
    private static Deliveries arrivals(java.sql.Connection db) throws Exception {
        Deliveries seen = new Deliveries();
        try (Statement s = db.createStatement();
                ResultSet rows = s.executeQuery(
                        "select msg_key, seq, redelivered, instance from " + KeyRecorder.TABLE + " order by id")) {
            while (rows.next()) {
                seen.arrived(rows.getString(1), rows.getInt(2), rows.getBoolean(3), rows.getInt(4));
            }
        }
        return seen;
    }
}
