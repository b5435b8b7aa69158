package org.partita.bench;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.partita.jms.api.PartitaAdmin;

/**
 * The leaders of a Partita cluster's replica sets, as the cluster status of one node tells them:
 * what the tool waits for before a replicated cluster takes load, and what it asks before killing a
 * leader.
 */
final class ReplicaLeaders {
    /** The cluster status's word for a partition whose set is electing. */
    private static final String ELECTING = "?";
    /** A queue declared at a replicated cluster's start so that its replica sets elect their leaders then. */
    private static final String SETS_QUEUE = "bench-replica-sets";
    /** How long a start waits for each set to be led by its preferred node (its host) before taking any leader. */
    private static final long PREFERRED_SECONDS = 30;

    private static final long LEADERS_SECONDS = 90;

    private ReplicaLeaders() {}

    /**
     * Starts the replica sets of every queue spread over all {@code nodes} with {@code replicas} and
     * waits until each has a leader, preferably its own host (as in a cluster up for a while): queues
     * with the same hosts and replicas share their sets, so the scenario's queues, declared later,
     * find them led and a run measures the load, not the sets' first election. With {@code leaders}
     * (above 0), the queues' partitions are in that many sets, led by the first nodes.
     */
    static void awaitSets(ConnectionFactory cf, int nodes, int replicas, int leaders)
            throws JMSException, InterruptedException {
        try (Connection c = cf.createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            // a producer on a name with options declares the queue, agreed by the cluster before it returns
            s.createProducer(s.createQueue(SETS_QUEUE + "?partitions=" + nodes + "&hosts=*&replicas=" + replicas
                            + (leaders > 0 ? "&leaders=" + leaders : "")))
                    .close();
        }
        long preferredBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(PREFERRED_SECONDS);
        while (System.nanoTime() < preferredBy) {
            if (ledByTheirHosts(of(cf, SETS_QUEUE, nodes), leaders > 0 ? leaders : nodes)) {
                return;
            }
            Thread.sleep(100);
        }
        awaitLed(cf, SETS_QUEUE, nodes);
    }

    /**
     * hosts=* takes the nodes by name: partition p's set, of {@code sets}, is preferably led by
     * node<p % sets + 1>.
     */
    private static boolean ledByTheirHosts(List<String> leaders, int sets) {
        for (int p = 0; p < leaders.size(); p++) {
            if (!leaders.get(p).equals("node" + (p % sets + 1))) {
                return false;
            }
        }
        return true;
    }

    /** The node leading each partition of {@code queue} (its plain name), {@code "?"} while its set elects. */
    static List<String> of(ConnectionFactory cf, String queue, int partitions) throws JMSException {
        try (PartitaAdmin admin = PartitaAdmin.connect(cf)) {
            Map<String, String> status = admin.clusterStatus();
            List<String> leaders = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                leaders.add(status.getOrDefault("queue." + queue + ".partition." + p + ".host", ELECTING));
            }
            return leaders;
        }
    }

    /** The node leading the first node's partitions (node1's set), the node a start prefers to it. */
    static String leaderOfFirstSet(ConnectionFactory cf) throws JMSException {
        return of(cf, SETS_QUEUE, 1).get(0);
    }

    /** The leaders of {@code queue}'s partitions once none is electing. */
    static List<String> awaitLed(ConnectionFactory cf, String queue, int partitions)
            throws JMSException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(LEADERS_SECONDS);
        while (true) {
            List<String> leaders = of(cf, queue, partitions);
            if (!leaders.contains(ELECTING)) {
                return leaders;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("queue " + queue + " had partitions without a leader for "
                        + LEADERS_SECONDS + " s: " + leaders);
            }
            Thread.sleep(100);
        }
    }
}
