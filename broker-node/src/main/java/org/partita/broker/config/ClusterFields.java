package org.partita.broker.config;

import java.nio.file.Path;

/**
 * The {@code cluster.*} fields of a config file, gathered in any order and checked together once
 * the file is read: a cluster needs both its name and its node list.
 *
 * <pre>
 * cluster.name = plant
 * cluster.nodes = node1@10.0.0.1:61700, node2@10.0.0.2:61700, node3@10.0.0.3:61700
 * cluster.consensusPortOffset = 1000
 * cluster.heartbeatMillis = 1000
 * cluster.downAfterMillis = 5000
 * cluster.secret = change-me
 * cluster.relayoutTimeoutMillis = 40000
 * cluster.replicaLog.markEntries = 10000
 * cluster.replicaLog.keptEntries = 20000
 * cluster.replicaLog.segmentBytes = 33554432
 * cluster.replicaLog.sentAgainWindowMillis = 120000
 * </pre>
 */
final class ClusterFields {
    static final String NAMES = "cluster.name, cluster.nodes, cluster.consensusPortOffset, cluster.heartbeatMillis,"
            + " cluster.downAfterMillis, cluster.secret, cluster.relayoutTimeoutMillis, cluster.replicaLog.markEntries,"
            + " cluster.replicaLog.keptEntries, cluster.replicaLog.segmentBytes,"
            + " cluster.replicaLog.sentAgainWindowMillis";
    private final Path file;
    private String name;
    private String nameWhere;
    private java.util.List<ClusterConfig.Member> members;
    private String nodesWhere;
    private int offset = ClusterConfig.DEFAULT_CONSENSUS_PORT_OFFSET;
    private long heartbeat = ClusterConfig.DEFAULT_HEARTBEAT_MILLIS;
    private long downAfter = ClusterConfig.DEFAULT_DOWN_AFTER_MILLIS;
    private String secret = "";
    private long relayoutTimeout = ClusterConfig.DEFAULT_RELAYOUT_TIMEOUT_MILLIS;
    private int logMark = ClusterConfig.ReplicaLog.DEFAULT.markEntries();
    private int logKept = ClusterConfig.ReplicaLog.DEFAULT.keptEntries();
    private int logSegment = ClusterConfig.ReplicaLog.DEFAULT.segmentBytes();
    private long sentAgainWindow = ClusterConfig.ReplicaLog.DEFAULT.sentAgainWindowMillis();
    private String firstWhere;

    ClusterFields(Path file) {
        this.file = file;
    }

    void set(String field, String value, String where) {
        if (firstWhere == null) {
            firstWhere = where;
        }
        switch (field) {
            case "cluster.name" -> {
                name = value;
                nameWhere = where;
            }
            case "cluster.nodes" -> {
                try {
                    members = ClusterConfig.parseMembers(value);
                } catch (IllegalArgumentException e) {
                    throw new ConfigException(where + ": field 'cluster.nodes': " + e.getMessage()
                            + " (expected name@host:port, comma-separated)");
                }
                nodesWhere = where;
            }
            case "cluster.consensusPortOffset" -> offset = NodeConfigFile.integer(value, field, where, -65535, 65535);
            case "cluster.heartbeatMillis" ->
                heartbeat = NodeConfigFile.integer(value, field, where, 1, Integer.MAX_VALUE);
            case "cluster.downAfterMillis" ->
                downAfter = NodeConfigFile.integer(value, field, where, 2, Integer.MAX_VALUE);
            case "cluster.secret" -> secret = value;
            case "cluster.relayoutTimeoutMillis" ->
                relayoutTimeout = NodeConfigFile.integer(value, field, where, 1, Integer.MAX_VALUE);
            case "cluster.replicaLog.markEntries" ->
                logMark = (int) NodeConfigFile.integer(value, field, where, 1, Integer.MAX_VALUE);
            case "cluster.replicaLog.keptEntries" ->
                logKept = (int) NodeConfigFile.integer(value, field, where, 0, Integer.MAX_VALUE);
            case "cluster.replicaLog.segmentBytes" ->
                logSegment = (int) NodeConfigFile.integer(value, field, where, 64 << 10, Integer.MAX_VALUE);
            case "cluster.replicaLog.sentAgainWindowMillis" ->
                sentAgainWindow = NodeConfigFile.integer(value, field, where, 1, Integer.MAX_VALUE);
            default -> throw new ConfigException(where + ": unknown field '" + field + "'; cluster fields: " + NAMES);
        }
    }

    NodeConfig applyTo(NodeConfig c) {
        if (firstWhere == null) {
            return c;
        }
        if (name == null || name.isEmpty()) {
            throw new ConfigException(firstWhere + ": a cluster needs field 'cluster.name' in " + file);
        }
        if (members == null || members.isEmpty()) {
            throw new ConfigException(nameWhere + ": cluster '" + name + "' needs field 'cluster.nodes' in " + file);
        }
        ClusterConfig cluster;
        try {
            cluster = new ClusterConfig(
                    name,
                    members,
                    offset,
                    heartbeat,
                    downAfter,
                    secret,
                    relayoutTimeout,
                    new ClusterConfig.ReplicaLog(logMark, logKept, logSegment, sentAgainWindow));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(nodesWhere + ": " + e.getMessage());
        }
        if (!cluster.isMember(c.nodeName())) {
            throw new ConfigException(nodesWhere + ": field 'cluster.nodes' does not list this node ('nodeName = "
                    + c.nodeName() + "'): " + cluster.members());
        }
        return c.withCluster(cluster);
    }
}
