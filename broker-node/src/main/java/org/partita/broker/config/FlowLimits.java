package org.partita.broker.config;

/**
 * What clients may make a node hold in memory and how many resources they may open. Every value
 * has a default sized for a node in a 512 MiB heap; the config file sets them as
 * {@code limits.<component> = value} (docs/reliability.md).
 *
 * @param handshakeFrameBytes       largest frame a connection may send before its HELLO is accepted:
 *                                  an unauthenticated peer can make the node buffer no more than this
 * @param handshakeTimeoutMillis    a connection that has not completed its handshake by then is closed
 * @param connections               open client connections per node; one more is refused at once
 * @param sessionsPerConnection     open sessions per connection
 * @param consumersPerConnection    open consumers per connection
 * @param partitionsPerQueue        largest partition count a client may give a queue
 * @param destinationNameLength     longest queue, topic or subscription name, in characters (options excluded)
 */
public record FlowLimits(int handshakeFrameBytes, long handshakeTimeoutMillis, int connections,
                         int sessionsPerConnection, int consumersPerConnection, int partitionsPerQueue,
                         int destinationNameLength) {

    public static final int DEFAULT_HANDSHAKE_FRAME_BYTES = 8 * 1024;
    public static final long DEFAULT_HANDSHAKE_TIMEOUT_MILLIS = 10_000;
    public static final int DEFAULT_CONNECTIONS = 4096;
    public static final int DEFAULT_SESSIONS_PER_CONNECTION = 1024;
    public static final int DEFAULT_CONSUMERS_PER_CONNECTION = 4096;
    public static final int DEFAULT_PARTITIONS_PER_QUEUE = 4096;
    /** The store keeps queue names in 1024 characters; AppId and subscription queues add to the name. */
    public static final int DEFAULT_DESTINATION_NAME_LENGTH = 255;

    public FlowLimits {
        positive("handshakeFrameBytes", handshakeFrameBytes);
        positive("handshakeTimeoutMillis", handshakeTimeoutMillis);
        positive("connections", connections);
        positive("sessionsPerConnection", sessionsPerConnection);
        positive("consumersPerConnection", consumersPerConnection);
        positive("partitionsPerQueue", partitionsPerQueue);
        positive("destinationNameLength", destinationNameLength);
    }

    public static FlowLimits defaults() {
        return new FlowLimits(DEFAULT_HANDSHAKE_FRAME_BYTES, DEFAULT_HANDSHAKE_TIMEOUT_MILLIS, DEFAULT_CONNECTIONS,
                DEFAULT_SESSIONS_PER_CONNECTION, DEFAULT_CONSUMERS_PER_CONNECTION, DEFAULT_PARTITIONS_PER_QUEUE,
                DEFAULT_DESTINATION_NAME_LENGTH);
    }

    public FlowLimits withHandshake(int frameBytes, long timeoutMillis) {
        return new FlowLimits(frameBytes, timeoutMillis, connections, sessionsPerConnection, consumersPerConnection,
                partitionsPerQueue, destinationNameLength);
    }

    public FlowLimits withConnections(int n) {
        return new FlowLimits(handshakeFrameBytes, handshakeTimeoutMillis, n, sessionsPerConnection, consumersPerConnection,
                partitionsPerQueue, destinationNameLength);
    }

    public FlowLimits withSessionsPerConnection(int n) {
        return new FlowLimits(handshakeFrameBytes, handshakeTimeoutMillis, connections, n, consumersPerConnection,
                partitionsPerQueue, destinationNameLength);
    }

    public FlowLimits withConsumersPerConnection(int n) {
        return new FlowLimits(handshakeFrameBytes, handshakeTimeoutMillis, connections, sessionsPerConnection, n,
                partitionsPerQueue, destinationNameLength);
    }

    public FlowLimits withPartitionsPerQueue(int n) {
        return new FlowLimits(handshakeFrameBytes, handshakeTimeoutMillis, connections, sessionsPerConnection,
                consumersPerConnection, n, destinationNameLength);
    }

    public FlowLimits withDestinationNameLength(int n) {
        return new FlowLimits(handshakeFrameBytes, handshakeTimeoutMillis, connections, sessionsPerConnection,
                consumersPerConnection, partitionsPerQueue, n);
    }

    private static void positive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException("limit " + name + " must be positive: " + value);
        }
    }
}
