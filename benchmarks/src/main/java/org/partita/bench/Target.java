package org.partita.bench;

import java.nio.file.Path;

/** The brokers compared, each started fresh (in its own temporary folder) for every scenario run. */
public enum Target {
    PARTITA("partita", "Partita"),
    /** Three nodes of one cluster, queues spread over all (S4 variants only: topics are not clustered). */
    PARTITA_CLUSTER("partita-cluster3", "Partita 3-node cluster"),
    ARTEMIS_DEFAULT("artemis-default", "Artemis default"),
    ARTEMIS_TUNED("artemis-tuned", "Artemis tuned"),
    /** Three tuned Artemis servers of one cluster with message grouping (S4 variants only, like the Partita cluster). */
    ARTEMIS_CLUSTER("artemis-cluster3", "Artemis tuned 3-node cluster");

    private final String id;
    private final String label;

    Target(String id, String label) {
        this.id = id;
        this.label = label;
    }

    public String id() {
        return id;
    }

    public String label() {
        return label;
    }

    /**
     * Starts the broker with its data in {@code dir}.
     *
     * @param tunedBufferTimeoutNanos the journal buffer timeout of the tuned Artemis (from the disk sync test)
     */
    public BrokerUnderTest start(Path dir, long tunedBufferTimeoutNanos) throws Exception {
        return switch (this) {
            case PARTITA -> PartitaBroker.start(dir);
            case PARTITA_CLUSTER -> PartitaClusterBroker.start(dir);
            case ARTEMIS_DEFAULT -> ArtemisBroker.start(dir, -1);
            case ARTEMIS_TUNED -> ArtemisBroker.start(dir, tunedBufferTimeoutNanos);
            case ARTEMIS_CLUSTER -> ArtemisClusterBroker.start(dir, tunedBufferTimeoutNanos);
        };
    }

    public boolean isPartita() {
        return this == PARTITA || this == PARTITA_CLUSTER;
    }

    /** Three nodes of one cluster in the benchmark's JVM. */
    public boolean isCluster() {
        return this == PARTITA_CLUSTER || this == ARTEMIS_CLUSTER;
    }

    /** A client connection factory for a broker of this kind at {@code url} (see {@link BrokerUnderTest#url()}). */
    public jakarta.jms.ConnectionFactory connectionFactory(String url) {
        return isPartita()
                ? new org.partita.jms.client.PartitaConnectionFactory(url)
                : new org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory(url);
    }

    public static Target fromId(String id) {
        for (Target t : values()) {
            if (t.id.equalsIgnoreCase(id.trim())) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown target '" + id
                + "'; known: partita, partita-cluster3, artemis-default, artemis-tuned, artemis-cluster3");
    }
}
