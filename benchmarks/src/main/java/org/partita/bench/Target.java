package org.partita.bench;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** The brokers compared, each started fresh (in its own temporary folder) for every scenario run. */
public enum Target {
    PARTITA("partita", "Partita", Kind.ONE_NODE),
    /** Three nodes of one cluster, queues spread over all (every scenario but S5: topics are not clustered). */
    PARTITA_CLUSTER("partita-cluster3", "Partita 3-node cluster", Kind.CLUSTER),
    /** As {@link #PARTITA_CLUSTER}, every partition kept by all three nodes ({@code replicas=3}). */
    PARTITA_REPLICATED("partita-cluster3-replicated", "Partita 3-node cluster, replicas=3", Kind.REPLICATED),
    /**
     * As {@link #PARTITA_REPLICATED} with {@code leaders=1}: every partition in one replica set led by
     * node1, the others its followers, as an Artemis primary has its backup.
     */
    PARTITA_REPLICATED_ONE_LEADER(
            "partita-cluster3-replicated-leader1", "Partita 3-node cluster, replicas=3, leaders=1", Kind.REPLICATED),
    ARTEMIS_DEFAULT("artemis-default", "Artemis default", Kind.ONE_NODE),
    ARTEMIS_TUNED("artemis-tuned", "Artemis tuned", Kind.ONE_NODE),
    /** Three tuned Artemis servers of one cluster with message grouping (like the Partita cluster). */
    ARTEMIS_CLUSTER("artemis-cluster3", "Artemis tuned 3-node cluster", Kind.CLUSTER),
    /** A tuned Artemis primary and a backup with the replication HA policy. */
    ARTEMIS_HA("artemis-ha", "Artemis tuned primary + replicating backup", Kind.REPLICATED),
    /** ActiveMQ Classic 6 with KahaDB at its defaults, the journal forced before a send is answered. */
    ACTIVEMQ_CLASSIC("activemq-classic", "ActiveMQ Classic", Kind.ONE_NODE);

    /** What a target is, so that the report divides like by like. */
    enum Kind {
        ONE_NODE,
        /** Several servers sharing the load, each message on one of them. */
        CLUSTER,
        /** Each message on several servers, so that the loss of one loses nothing confirmed. */
        REPLICATED
    }

    private final String id;
    private final String label;
    private final Kind kind;

    Target(String id, String label, Kind kind) {
        this.id = id;
        this.label = label;
        this.kind = kind;
    }

    public String id() {
        return id;
    }

    public String label() {
        return label;
    }

    Kind kind() {
        return kind;
    }

    /**
     * Starts the broker with its data in {@code dir}.
     *
     * @param tunedBufferTimeoutNanos the journal buffer timeout of the tuned Artemis (from the disk sync test)
     */
    public BrokerUnderTest start(Path dir, long tunedBufferTimeoutNanos) throws Exception {
        return switch (this) {
            case PARTITA -> PartitaBroker.start(dir);
            case PARTITA_CLUSTER -> PartitaClusterBroker.start(dir, 1, 0);
            case PARTITA_REPLICATED -> PartitaClusterBroker.start(dir, ClusterMembers.NODES, 0);
            case PARTITA_REPLICATED_ONE_LEADER -> PartitaClusterBroker.start(dir, ClusterMembers.NODES, 1);
            case ARTEMIS_DEFAULT -> ArtemisBroker.start(dir, -1);
            case ARTEMIS_TUNED -> ArtemisBroker.start(dir, tunedBufferTimeoutNanos);
            case ARTEMIS_CLUSTER -> ArtemisClusterBroker.start(dir, tunedBufferTimeoutNanos);
            case ARTEMIS_HA -> ArtemisHaBroker.start(dir, tunedBufferTimeoutNanos);
            case ACTIVEMQ_CLASSIC -> ClassicBroker.start(dir);
        };
    }

    /**
     * Starts the broker with each of its servers in a JVM of its own, for the failover scenario,
     * which kills the leader's process.
     *
     * @param jvmOptions the servers' JVM options
     */
    LeaderKillable startInProcesses(Path dir, long tunedBufferTimeoutNanos, List<String> jvmOptions) throws Exception {
        return switch (this) {
            case PARTITA_REPLICATED -> PartitaClusterProcesses.start(dir, ClusterMembers.NODES, 0, jvmOptions);
            case PARTITA_REPLICATED_ONE_LEADER ->
                PartitaClusterProcesses.start(dir, ClusterMembers.NODES, 1, jvmOptions);
            case ARTEMIS_HA -> ArtemisHaProcesses.start(dir, tunedBufferTimeoutNanos, jvmOptions);
            default -> throw new IllegalArgumentException(id + " has no leader to kill: it is not replicated");
        };
    }

    /** Whether the failover scenario can run on it: a replicated broker, whose leader's loss loses nothing. */
    public boolean canKillLeader() {
        return kind == Kind.REPLICATED;
    }

    public boolean isPartita() {
        return this == PARTITA
                || this == PARTITA_CLUSTER
                || this == PARTITA_REPLICATED
                || this == PARTITA_REPLICATED_ONE_LEADER;
    }

    /** Several servers in the benchmark's JVM (a cluster, or a primary and its backup). */
    public boolean isCluster() {
        return kind != Kind.ONE_NODE;
    }

    /** A client connection factory for a broker of this kind at {@code url} (see {@link BrokerUnderTest#url()}). */
    public jakarta.jms.ConnectionFactory connectionFactory(String url) {
        if (isPartita()) {
            return new org.partita.jms.client.PartitaConnectionFactory(url);
        }
        return this == ACTIVEMQ_CLASSIC
                ? new org.apache.activemq.ActiveMQConnectionFactory(url)
                : new org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory(url);
    }

    /**
     * Whether it sends and receives a body through a stream (S9L). ActiveMQ Classic does not: its
     * large messages are {@code BlobMessage}s, whose bodies go through a separate file server.
     */
    boolean streamsLargeBodies() {
        return this != ACTIVEMQ_CLASSIC;
    }

    /**
     * The message property a {@code BytesMessage}'s body is sent from, as an {@code InputStream} (S9L):
     * Partita's {@code JMS_PARTITA_InputStream}, Artemis's {@code JMS_AMQ_InputStream}.
     */
    String inputStreamProperty() {
        return isPartita()
                ? org.partita.jms.api.PartitaProperties.INPUT_STREAM
                : org.apache.activemq.artemis.api.jms.ActiveMQJMSConstants.JMS_ACTIVEMQ_INPUT_STREAM;
    }

    /**
     * The message property a received {@code BytesMessage}'s body is written to an {@code OutputStream}
     * through, returning once written (S9L): {@code JMS_PARTITA_SaveStream}, {@code JMS_AMQ_SaveStream}.
     */
    String saveStreamProperty() {
        return isPartita()
                ? org.partita.jms.api.PartitaProperties.SAVE_STREAM
                : org.apache.activemq.artemis.api.jms.ActiveMQJMSConstants.JMS_ACTIVEMQ_SAVE_STREAM;
    }

    public static Target fromId(String id) {
        for (Target t : values()) {
            if (t.id.equalsIgnoreCase(id.trim())) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown target '" + id + "'; known: " + ids());
    }

    /** Every target's id, for messages and help. */
    static String ids() {
        return Arrays.stream(values()).map(Target::id).collect(Collectors.joining(", "));
    }
}
