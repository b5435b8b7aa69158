package org.partita.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.activemq.artemis.core.config.ClusterConnectionConfiguration;
import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.core.config.ha.ReplicaPolicyConfiguration;
import org.apache.activemq.artemis.core.config.ha.ReplicatedPolicyConfiguration;
import org.apache.activemq.artemis.core.server.ActiveMQServer;

/**
 * An ActiveMQ Artemis primary and its backup with the replication HA policy, the way Artemis's
 * documentation pairs them: each server has the tuned journal of {@link ArtemisBroker}, a connector
 * to itself and one to the other, and a cluster connection over them (the backup finds its primary
 * through it, and replication runs over it); the primary replicates every journal write to the backup,
 * which takes over when the primary is lost. What the {@code artemis-ha} target runs, embedded or a
 * server per process ({@link ArtemisHaMember}).
 */
final class ArtemisHaPair {
    enum Role {
        PRIMARY,
        BACKUP
    }

    private static final String CLUSTER = "bench-ha";
    private static final long BACKUP_SYNC_SECONDS = 60;

    private ArtemisHaPair() {}

    /**
     * @param ownPort   this server's acceptor
     * @param otherPort the other server's acceptor
     */
    static Configuration configuration(Role role, Path dir, int ownPort, int otherPort, long bufferTimeoutNanos)
            throws Exception {
        Configuration c = ArtemisBroker.configuration(dir, ownPort, bufferTimeoutNanos)
                .setName("artemis-bench-" + role.name().toLowerCase(java.util.Locale.ROOT))
                .setClusterUser("bench")
                .setClusterPassword("bench")
                .addConnectorConfiguration("self", "tcp://127.0.0.1:" + ownPort)
                .addConnectorConfiguration("other", "tcp://127.0.0.1:" + otherPort)
                .addClusterConfiguration(new ClusterConnectionConfiguration()
                        .setName(CLUSTER)
                        .setConnectorName("self")
                        .setStaticConnectors(List.of("other"))
                        .setRetryInterval(100));
        c.setHAPolicyConfiguration(
                role == Role.PRIMARY
                        ? new ReplicatedPolicyConfiguration().setClusterName(CLUSTER)
                        : new ReplicaPolicyConfiguration().setClusterName(CLUSTER));
        return c;
    }

    /**
     * Clients connect to the primary and fail over to the backup ({@code ha=true}), retrying with a
     * pause growing from 50 ms to 1 s, as Partita's client does: Artemis's default pause is 2 s
     * between tries, which would be measured as its failover.
     */
    static String clientUrl(int primaryPort, int backupPort) {
        return "(tcp://127.0.0.1:" + primaryPort + ",tcp://127.0.0.1:" + backupPort + ")"
                + "?ha=true&reconnectAttempts=-1&retryInterval=50&retryIntervalMultiplier=2.0&maxRetryInterval=1000";
    }

    /**
     * Waits until the backup holds a copy of the primary's journal: before that a persistent send is
     * not replicated and a lost primary would not fail over, so no load starts earlier.
     */
    static void awaitBackupInSync(ActiveMQServer backup) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BACKUP_SYNC_SECONDS);
        while (!backup.isReplicaSync()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "the Artemis backup was not in sync with its primary within " + BACKUP_SYNC_SECONDS + " s");
            }
            Thread.sleep(50);
        }
    }
}
