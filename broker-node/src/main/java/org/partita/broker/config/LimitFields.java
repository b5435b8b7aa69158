package org.partita.broker.config;

/** The {@code limits.*} fields of a node config file, each one component of {@link FlowLimits}. */
final class LimitFields {
    static final String PREFIX = "limits.";
    static final String NAMES = "limits.handshakeFrameBytes, limits.handshakeTimeout, limits.connections,"
            + " limits.sessionsPerConnection, limits.consumersPerConnection, limits.partitionsPerQueue,"
            + " limits.destinationNameLength";

    private LimitFields() {
    }

    static FlowLimits apply(FlowLimits l, String field, String value, String where) {
        String name = field.substring(PREFIX.length());
        return switch (name) {
            case "handshakeFrameBytes" -> l.withHandshake(positive(value, field, where), l.handshakeTimeoutMillis());
            case "handshakeTimeout" -> l.withHandshake(l.handshakeFrameBytes(), positive(value, field, where));
            case "connections" -> l.withConnections(positive(value, field, where));
            case "sessionsPerConnection" -> l.withSessionsPerConnection(positive(value, field, where));
            case "consumersPerConnection" -> l.withConsumersPerConnection(positive(value, field, where));
            case "partitionsPerQueue" -> l.withPartitionsPerQueue(positive(value, field, where));
            case "destinationNameLength" -> l.withDestinationNameLength(positive(value, field, where));
            default -> throw new ConfigException(where + ": unknown field '" + field + "'; known: " + NAMES);
        };
    }

    private static int positive(String value, String field, String where) {
        return NodeConfigFile.integer(value, field, where, 1, Integer.MAX_VALUE);
    }
}
