package org.partita.broker.it.cluster;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.jms.api.PartitaAdmin;

/**
 * Three nodes in their own processes and a queue with {@code replicas=3}: producers whose URL lists
 * every node see the sends on their way when their node is killed made again and kept once; without
 * a majority of replicas, sends are refused and nothing refused is stored. Random faults under load
 * on every node are {@link NemesisTest}'s.
 */
@Tag("slow")
@Timeout(420)
class ReplicaFailoverTest {
    private static final long DOWN_AFTER_MILLIS = FaultsUnderLoad.DOWN_AFTER_MILLIS;
    private static final int KEYS_PER_PRODUCER = FaultsUnderLoad.KEYS_PER_PRODUCER;
    private static final List<String> CONFIG = FaultsUnderLoad.CONFIG;

    @TempDir(cleanup = org.junit.jupiter.api.io.CleanupMode.ON_SUCCESS)
    Path tmp;

    /**
     * A set's leader killed (SIGKILL): its process's connections are reset, so the other replicas know
     * at once that nothing listens there any more and one of them stands for the set without waiting
     * for the election timeout. With {@code downAfterMillis} at 20 s that timeout is 4 to 8 s; a send
     * to the killed leader's partition through another node is confirmed well before it (about a
     * third of a second here), and the replica that stood says so in its log. A paused leader, which
     * still takes connections, is left to the timeout (the nemesis covers it).
     */
    @Test
    void aKilledLeadersSetElectsAnotherAtOnceNotAfterTheElectionTimeout() throws Exception {
        List<String> config = new ArrayList<>(CONFIG);
        config.replaceAll(line -> line.startsWith("cluster.downAfterMillis")
                ? "cluster.downAfterMillis = 20000"
                : line.startsWith("cluster.heartbeatMillis") ? "cluster.heartbeatMillis = 500" : line);
        try (ProcessCluster cluster = new ProcessCluster(tmp, "early", 3, config).start()) {
            FaultsUnderLoad.awaitEveryNodeKnowsEveryLeader(cluster);
            int partition = FaultsUnderLoad.leaders(cluster, 0).indexOf("node3");
            assertTrue(partition >= 0, "node3 leads a partition: " + FaultsUnderLoad.leaders(cluster, 0));
            String key = keyOf(partition);
            try (Connection c = cluster.node(0).factory().createConnection()) {
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer p = s.createProducer(s.createQueue("plant"));
                p.setDeliveryMode(DeliveryMode.PERSISTENT);
                p.send(keyed(s, key, 0));

                assertEquals(137, cluster.kill(2), "SIGKILL");
                long killed = System.nanoTime();
                p.send(keyed(s, key, 1));
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
                System.out.println("send to a killed leader's partition confirmed " + millis + " ms after the kill");
                assertTrue(millis < 3_500, "confirmed before the 4 s election timeout: " + millis + " ms");
            }
            String stood = "leader node3 is gone (its replica server refuses connections); standing now";
            // the log is written beside the election, not before the send it speeds up
            await("a replica's log saying it stood at once")
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> cluster.node(0).stderr().contains(stood)
                            || cluster.node(1).stderr().contains(stood));
        }
    }

    private static String keyOf(int partition) {
        for (int k = 0; ; k++) {
            if (org.partita.protocol.PartitionKeys.partition("early-" + k, 6) == partition) {
                return "early-" + k;
            }
        }
    }

    private static TextMessage keyed(Session s, String key, int seq) throws jakarta.jms.JMSException {
        TextMessage m = s.createTextMessage("state");
        m.setStringProperty("JMSXGroupID", key);
        m.setIntProperty("seq", seq);
        return m;
    }

    /**
     * Producers whose URL lists every node, connected to node1 first, send keyed persistent messages
     * while node1 is killed: the sends on their way then are made again on the next node, so every
     * send succeeds (none fails in doubt), every confirmed message is consumed, and none twice
     * unflagged, whether the killed node had handed it to its replica set or not. One producer
     * disables message ids: its sends that may be made again get one all the same (the next node keeps
     * one copy by it; without one, such a send failed with PARTITA_NODE_LOST).
     */
    @Test
    void sendsOnTheirWayWhenTheirNodeIsKilledAreMadeAgainAndKeptOnce() throws Exception {
        sendWhileTheirNodeIsKilled("again", 0);
    }

    /**
     * The same with transactions of 5 sends: a transaction under way when its node is killed, or whose
     * commit was on its way there, is made again on the next node (its sends marked when its commit
     * was lost, so the replica sets keep one copy of what the lost commit stored): every commit
     * succeeds, every committed message is consumed, none twice unflagged, each key in order.
     */
    @Test
    void transactionsOnTheirWayWhenTheirNodeIsKilledAreMadeAgainAndKeptOnce() throws Exception {
        sendWhileTheirNodeIsKilled("txagain", 5);
    }

    /** Four producers through node1 first, {@code transactionSize} sends per commit (0: each on its own), node1 killed. */
    private void sendWhileTheirNodeIsKilled(String name, int transactionSize) throws Exception {
        try (ProcessCluster cluster = new ProcessCluster(tmp, name, 3, CONFIG).start()) {
            FaultsUnderLoad.awaitEveryNodeKnowsEveryLeader(cluster);
            String url = cluster.node(0).url() + "," + cluster.node(1).url() + ","
                    + cluster.node(2).url() + "?failoverTimeout=60000";
            Set<String> confirmed = ConcurrentHashMap.newKeySet();
            List<String> failed = new java.util.concurrent.CopyOnWriteArrayList<>();
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> producers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int producer = t;
                producers.add(new Thread(
                        () -> {
                            try (Connection c =
                                    new org.partita.jms.client.PartitaConnectionFactory(url).createConnection()) {
                                boolean transacted = transactionSize > 0;
                                Session s = c.createSession(
                                        transacted, transacted ? Session.SESSION_TRANSACTED : Session.AUTO_ACKNOWLEDGE);
                                MessageProducer p = s.createProducer(s.createQueue("plant"));
                                p.setDeliveryMode(DeliveryMode.PERSISTENT);
                                p.setDisableMessageID(producer == 0);
                                List<String> pending = new ArrayList<>();
                                for (int i = 0; i < 20_000 && !stop.get(); i++) {
                                    String key = name + producer + "-k" + (i % KEYS_PER_PRODUCER);
                                    int seq = i / KEYS_PER_PRODUCER;
                                    TextMessage m = s.createTextMessage("state");
                                    m.setStringProperty("JMSXGroupID", key);
                                    m.setIntProperty("seq", seq);
                                    pending.add(key + "#" + seq);
                                    try {
                                        p.send(m);
                                        if (transacted && pending.size() < transactionSize) {
                                            continue;
                                        }
                                        if (transacted) {
                                            s.commit();
                                        }
                                        confirmed.addAll(pending);
                                    } catch (jakarta.jms.JMSException e) {
                                        failed.add(pending + ": " + e.getErrorCode() + " " + e.getMessage());
                                        if (transacted) {
                                            break; // the test fails; a rolled-back transaction's later keys would be
                                            // out of order
                                        }
                                    }
                                    pending.clear();
                                }
                                if (transacted && !pending.isEmpty()) {
                                    s.rollback(); // stopped mid-transaction: none of it may come
                                }
                            } catch (jakarta.jms.JMSException e) {
                                failed.add("connection: " + e);
                            }
                        },
                        "again-" + t));
            }
            producers.forEach(Thread::start);
            try {
                await().atMost(Duration.ofSeconds(60)).until(() -> confirmed.size() > 400 || !failed.isEmpty());
                assertEquals(List.of(), failed, "every send succeeds while every node is up");
                assertEquals(137, cluster.kill(0), "SIGKILL");
                int atKill = confirmed.size();
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> confirmed.size() > atKill + 400 || !failed.isEmpty());
            } finally {
                stop.set(true);
                for (Thread t : producers) {
                    t.join(60_000);
                }
            }
            assertEquals(List.of(), failed, "every send succeeds: one on its way when its node died was made again");
            KeyOrderLedger ledger = new KeyOrderLedger();
            await().atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> FaultsUnderLoad.drainAndCheck(cluster, ledger, confirmed));
            System.out.println(name + ": " + confirmed.size() + " confirmed, " + ledger.violations()
                    + " order violations, " + ledger.newRepeats() + " unflagged repeats");
            assertTrue(
                    ledger.missing(confirmed).isEmpty(), "confirmed but never consumed: " + ledger.missing(confirmed));
            assertEquals(0, ledger.newRepeats(), "a message sent again is kept once");
            assertEquals(0, ledger.violations(), "each key's messages in order");
        }
    }

    /**
     * A transaction sent through node1 to a partition whose replica set node2 leads goes through
     * node1's forward log for the set. The leader is paused, so the messages cannot reach it at once;
     * the commit returns only once the set (with a new leader) holds them, so that node1 killed right
     * after the commit takes none of them with it: they are consumed, in order, while node1 is down.
     */
    @Test
    void aTransactionsSendsAreWithTheirReplicaSetOnceItsCommitReturns() throws Exception {
        try (ProcessCluster cluster = new ProcessCluster(tmp, "txn", 3, CONFIG).start()) {
            FaultsUnderLoad.awaitEveryNodeKnowsEveryLeader(cluster);
            int partition = FaultsUnderLoad.leaders(cluster, 0).indexOf("node2");
            String key = java.util.stream.IntStream.range(0, 10_000)
                    .mapToObj(i -> "txn-" + i)
                    .filter(k -> org.partita.protocol.PartitionKeys.partition(k, 6) == partition)
                    .findFirst()
                    .orElseThrow();
            Set<String> committed = ConcurrentHashMap.newKeySet();
            cluster.node(1).pause();
            try (Connection c = cluster.node(0).factory().createConnection()) {
                Session s = c.createSession(true, Session.SESSION_TRANSACTED);
                MessageProducer p = s.createProducer(s.createQueue("plant"));
                for (int seq = 0; seq < 20; seq++) {
                    TextMessage m = s.createTextMessage("in a transaction");
                    m.setStringProperty("JMSXGroupID", key);
                    m.setIntProperty("seq", seq);
                    p.send(m);
                    committed.add(key + "#" + seq);
                }
                s.commit();
            }
            assertEquals(137, cluster.kill(0), "SIGKILL right after the commit");
            cluster.node(1).resume();
            KeyOrderLedger ledger = new KeyOrderLedger();
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofSeconds(1))
                    .ignoreExceptions()
                    .until(() -> FaultsUnderLoad.drainAndCheck(cluster, ledger, committed));
            assertEquals(0, ledger.violations(), "the transaction's messages in order");
        }
    }

    /**
     * With two of three nodes killed, no partition has a majority of its replicas: a send through the
     * last node is refused with a ResourceAllocationException that names the partition and how many
     * replicas are reachable, and nothing it refused is ever delivered. Once a node is back, the
     * partitions are served again.
     */
    @Test
    void withoutAMajorityOfReplicasSendsAreRefusedAndNothingRefusedIsStored() throws Exception {
        try (ProcessCluster cluster = new ProcessCluster(tmp, "majority", 3, CONFIG).start()) {
            await().atMost(Duration.ofSeconds(60))
                    .ignoreExceptions()
                    .until(() -> FaultsUnderLoad.leaders(cluster, 0).stream().noneMatch("?"::equals));
            assertEquals(137, cluster.kill(1), "SIGKILL");
            assertEquals(137, cluster.kill(2), "SIGKILL");
            // once node1 knows both are gone (a send in flight to a node as it dies ends in doubt instead)
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
                try (PartitaAdmin admin = PartitaAdmin.connect(cluster.node(0).factory())) {
                    Map<String, String> status = admin.clusterStatus();
                    return status.get("member.node2").startsWith("down")
                            && status.get("member.node3").startsWith("down");
                }
            });
            // the status says there is no leader of the definitions, and why
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> {
                try (PartitaAdmin admin = PartitaAdmin.connect(cluster.node(0).factory())) {
                    Map<String, String> status = admin.clusterStatus();
                    assertEquals("", status.get("leader"), status.toString());
                    assertTrue(status.get("leaderMissing").startsWith("only 1 of 3 members are up"), status.toString());
                }
            });
            Set<Integer> refusedSeq = ConcurrentHashMap.newKeySet();
            try (Connection c = cluster.node(0).factory().createConnection()) {
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer p = s.createProducer(s.createQueue("plant"));
                // A send that reaches node1 while it still leads a set whose followers just died was taken
                // by the log and cannot be confirmed: it ends in doubt (it may be committed later). The
                // sends after it, once node1 stepped down, are refused and never stored.
                jakarta.jms.ResourceAllocationException refused = null;
                long t0 = System.nanoTime();
                for (int attempt = 0; refused == null && attempt < 10; attempt++) {
                    TextMessage m = s.createTextMessage("refused");
                    m.setStringProperty("JMSXGroupID", "refused");
                    m.setIntProperty("seq", attempt);
                    try {
                        p.send(m);
                        org.junit.jupiter.api.Assertions.fail(
                                "a send was confirmed without a majority of its replicas");
                    } catch (jakarta.jms.ResourceAllocationException e) {
                        refused = e;
                        refusedSeq.add(attempt);
                    } catch (jakarta.jms.JMSException e) {
                        assertTrue(e.getMessage().contains("may or may not be stored"), e.getMessage());
                    }
                }
                assertTrue(refused != null, "a send without a majority is refused");
                long waited = (System.nanoTime() - t0) / 1_000_000;
                String why = refused.getMessage();
                assertTrue(why.matches("(?s).*partition \\d+ of queue 'plant'.*") || why.contains("replica set"), why);
                assertTrue(why.contains("of 3 replicas") || why.contains("does not lead"), why);
                assertTrue(
                        waited < 10 * (4 * DOWN_AFTER_MILLIS + 5_000),
                        "refused within a bound, after " + waited + " ms");
            }
            cluster.restart(1);
            await().atMost(Duration.ofSeconds(60))
                    .ignoreExceptions()
                    .until(() -> FaultsUnderLoad.leaders(cluster, 0).stream()
                            .noneMatch(l -> l.equals("?") || l.equals("node3")));
            Set<String> confirmed = ConcurrentHashMap.newKeySet();
            FaultsUnderLoad.probe(cluster.node(0), 0, confirmed);
            KeyOrderLedger ledger = new KeyOrderLedger();
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                try (Connection c = cluster.node(0).factory().createConnection()) {
                    Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                    MessageConsumer consumer = s.createConsumer(s.createQueue("plant"));
                    c.start();
                    for (var m = consumer.receive(500); m != null; m = consumer.receive(500)) {
                        assertTrue(
                                !("refused".equals(m.getStringProperty("JMSXGroupID"))
                                        && refusedSeq.contains(m.getIntProperty("seq"))),
                                "a refused send was stored");
                        ledger.arrived(m);
                    }
                }
                return ledger.has(confirmed);
            });
        }
    }
}
