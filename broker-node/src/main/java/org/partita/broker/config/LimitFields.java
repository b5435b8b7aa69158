package org.partita.broker.config;

/** The {@code limits.*} fields of a node config file, each one component of {@link FlowLimits}. */
final class LimitFields {
    static final String PREFIX = "limits.";
    static final String NAMES = "limits.handshakeFrameBytes, limits.handshakeTimeout, limits.connections,"
            + " limits.sessionsPerConnection, limits.consumersPerConnection, limits.partitionsPerQueue,"
            + " limits.destinationNameLength, limits.inFlightBytes, limits.producerWindowBytes, limits.nonPersistentBytes,"
            + " limits.transactionBytes, limits.writeBufferBytes, limits.pacedBacklogBytes,"
            + " limits.openTransactionBytes, limits.messageBytes";

    private LimitFields() {}

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
            case "inFlightBytes" -> l.withInFlightBytes(bytes(value, field, where));
            case "producerWindowBytes" -> l.withProducerWindowBytes(positive(value, field, where));
            case "nonPersistentBytes" -> l.withNonPersistentBytes(bytes(value, field, where));
            case "transactionBytes" -> l.withTransactionBytes(bytes(value, field, where));
            case "writeBufferBytes" -> l.withWriteBufferBytes(bytes(value, field, where));
            case "pacedBacklogBytes" -> l.withPacedBacklogBytes(bytes(value, field, where));
            case "openTransactionBytes" -> l.withOpenTransactionBytes(bytes(value, field, where));
            case "messageBytes" -> l.withMessageBytes(positive(value, field, where));
            default -> throw new ConfigException(where + ": unknown field '" + field + "'; known: " + NAMES);
        };
    }

    private static long bytes(String value, String field, String where) {
        try {
            long v = Long.parseLong(value.strip());
            if (v > 0) {
                return v;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new ConfigException(
                where + ": field '" + field + "' must be a positive number of bytes, not '" + value + "'");
    }

    private static int positive(String value, String field, String where) {
        return NodeConfigFile.integer(value, field, where, 1, Integer.MAX_VALUE);
    }
}
