package org.partita.broker.config;

/**
 * What clients may make a node hold in memory and how many resources they may open. The memory
 * budgets default to shares of the heap the node runs in ({@link HeapBudgets}); the config file sets
 * them as {@code limits.<component> = value} (docs/reliability.md).
 *
 * @param handshakeFrameBytes       largest frame a connection may send before its HELLO is accepted:
 *                                  an unauthenticated peer can make the node buffer no more than this
 * @param handshakeTimeoutMillis    a connection that has not completed its handshake by then is closed
 * @param connections               open client connections per node; one more is refused at once
 * @param sessionsPerConnection     open sessions per connection
 * @param consumersPerConnection    open consumers per connection
 * @param partitionsPerQueue        largest partition count a client may give a queue
 * @param destinationNameLength     longest queue, topic or subscription name, in characters (options excluded)
 * @param inFlightBytes             node-wide bytes of frames being read, of sends read but not yet stored
 *                                  or queued, and of replies and deliveries waiting to be written; past it the
 *                                  node stops reading from the connections that send and from those in the
 *                                  middle of a large frame but one (Netty auto-read off), withholds their send
 *                                  credit until it is back under, and closes a connection that holds more than
 *                                  a sixteenth of it waiting to be written and took nothing for 2 s (it does not
 *                                  read)
 * @param producerWindowBytes       the send credit of one connection (protocol 3): what it may have on its
 *                                  way to the node, unconfirmed
 * @param nonPersistentBytes        node-wide bytes of non-persistent messages held in queues; past it
 *                                  producers get no more credit for non-persistent sends until consumers
 *                                  take messages, and a sender that ignores credit is refused
 * @param transactionBytes          bytes one open transaction may hold; a send past it is refused
 *                                  ({@code ResourceAllocationException})
 * @param openTransactionBytes      node-wide bytes all open transactions, local and XA branches, may hold together
 *                                  (sends not yet committed or rolled back); a send past it is refused like one past
 *                                  {@code transactionBytes}, so many sessions each with a large open transaction
 *                                  cannot fill the heap
 * @param writeBufferBytes          bytes the node may have waiting to be written to one connection; a client
 *                                  that does not read its replies and deliveries is disconnected past it
 * @param pacedBacklogBytes         bytes a queue may hold (waiting and delivered unacknowledged) while its
 *                                  consumers are taking messages; past it, credit for non-persistent sends to
 *                                  it comes back only as consumers take messages, so a producer faster than
 *                                  its consumers cannot build a backlog in front of them (docs/reliability.md)
 * @param messageBytes              the largest message (encoded) the node takes; a larger send is refused
 *                                  ({@code ResourceAllocationException}) and the connection stays open
 */
public record FlowLimits(
        int handshakeFrameBytes,
        long handshakeTimeoutMillis,
        int connections,
        int sessionsPerConnection,
        int consumersPerConnection,
        int partitionsPerQueue,
        int destinationNameLength,
        long inFlightBytes,
        int producerWindowBytes,
        long nonPersistentBytes,
        long transactionBytes,
        long writeBufferBytes,
        long pacedBacklogBytes,
        long openTransactionBytes,
        int messageBytes) {

    public static final int DEFAULT_HANDSHAKE_FRAME_BYTES = 8 * 1024;
    public static final long DEFAULT_HANDSHAKE_TIMEOUT_MILLIS = 10_000;
    public static final int DEFAULT_SESSIONS_PER_CONNECTION = 1024;
    public static final int DEFAULT_CONSUMERS_PER_CONNECTION = 4096;
    public static final int DEFAULT_PARTITIONS_PER_QUEUE = 4096;
    /** The store keeps queue names in 1024 characters; AppId and subscription queues add to the name. */
    public static final int DEFAULT_DESTINATION_NAME_LENGTH = 255;
    /** Enough for a pipeline of small messages to fill a loopback link, small enough that a queue never runs far ahead of its consumer. */
    public static final int DEFAULT_PRODUCER_WINDOW_BYTES = 256 << 10;
    /** About 64 messages of 1 KiB: at 20,000 or more messages a second, a few milliseconds of waiting (S3 measured best with it). */
    public static final long DEFAULT_PACED_BACKLOG_BYTES = 64L << 10;

    public FlowLimits {
        positive("handshakeFrameBytes", handshakeFrameBytes);
        positive("handshakeTimeoutMillis", handshakeTimeoutMillis);
        positive("connections", connections);
        positive("sessionsPerConnection", sessionsPerConnection);
        positive("consumersPerConnection", consumersPerConnection);
        positive("partitionsPerQueue", partitionsPerQueue);
        positive("destinationNameLength", destinationNameLength);
        positive("inFlightBytes", inFlightBytes);
        positive("producerWindowBytes", producerWindowBytes);
        positive("nonPersistentBytes", nonPersistentBytes);
        positive("transactionBytes", transactionBytes);
        positive("writeBufferBytes", writeBufferBytes);
        positive("pacedBacklogBytes", pacedBacklogBytes);
        positive("openTransactionBytes", openTransactionBytes);
        positive("messageBytes", messageBytes);
    }

    /** The defaults, the memory budgets as shares of this JVM's heap. */
    public static FlowLimits defaults() {
        return defaults(HeapBudgets.current());
    }

    /** The defaults, the memory budgets taken from {@code heap}. */
    public static FlowLimits defaults(HeapBudgets heap) {
        return new FlowLimits(
                DEFAULT_HANDSHAKE_FRAME_BYTES,
                DEFAULT_HANDSHAKE_TIMEOUT_MILLIS,
                heap.connections(OpenFiles.limit()),
                DEFAULT_SESSIONS_PER_CONNECTION,
                DEFAULT_CONSUMERS_PER_CONNECTION,
                DEFAULT_PARTITIONS_PER_QUEUE,
                DEFAULT_DESTINATION_NAME_LENGTH,
                heap.inFlightBytes(),
                DEFAULT_PRODUCER_WINDOW_BYTES,
                heap.nonPersistentBytes(),
                heap.transactionBytes(),
                heap.writeBufferBytes(),
                DEFAULT_PACED_BACKLOG_BYTES,
                heap.openTransactionBytes(),
                heap.messageBytes());
    }

    public FlowLimits withHandshake(int frameBytes, long timeoutMillis) {
        return new FlowLimits(
                frameBytes,
                timeoutMillis,
                connections,
                sessionsPerConnection,
                consumersPerConnection,
                partitionsPerQueue,
                destinationNameLength,
                inFlightBytes,
                producerWindowBytes,
                nonPersistentBytes,
                transactionBytes,
                writeBufferBytes,
                pacedBacklogBytes,
                openTransactionBytes,
                messageBytes);
    }

    public FlowLimits withConnections(int n) {
        return new FlowLimits(
                handshakeFrameBytes,
                handshakeTimeoutMillis,
                n,
                sessionsPerConnection,
                consumersPerConnection,
                partitionsPerQueue,
                destinationNameLength,
                inFlightBytes,
                producerWindowBytes,
                nonPersistentBytes,
                transactionBytes,
                writeBufferBytes,
                pacedBacklogBytes,
                openTransactionBytes,
                messageBytes);
    }

    public FlowLimits withSessionsPerConnection(int n) {
        return new FlowLimits(
                handshakeFrameBytes,
                handshakeTimeoutMillis,
                connections,
                n,
                consumersPerConnection,
                partitionsPerQueue,
                destinationNameLength,
                inFlightBytes,
                producerWindowBytes,
                nonPersistentBytes,
                transactionBytes,
                writeBufferBytes,
                pacedBacklogBytes,
                openTransactionBytes,
                messageBytes);
    }

    public FlowLimits withConsumersPerConnection(int n) {
        return new FlowLimits(
                handshakeFrameBytes,
                handshakeTimeoutMillis,
                connections,
                sessionsPerConnection,
                n,
                partitionsPerQueue,
                destinationNameLength,
                inFlightBytes,
                producerWindowBytes,
                nonPersistentBytes,
                transactionBytes,
                writeBufferBytes,
                pacedBacklogBytes,
                openTransactionBytes,
                messageBytes);
    }

    public FlowLimits withPartitionsPerQueue(int n) {
        return new FlowLimits(
                handshakeFrameBytes,
                handshakeTimeoutMillis,
                connections,
                sessionsPerConnection,
                consumersPerConnection,
                n,
                destinationNameLength,
                inFlightBytes,
                producerWindowBytes,
                nonPersistentBytes,
                transactionBytes,
                writeBufferBytes,
                pacedBacklogBytes,
                openTransactionBytes,
                messageBytes);
    }

    public FlowLimits withDestinationNameLength(int n) {
        return new FlowLimits(
                handshakeFrameBytes,
                handshakeTimeoutMillis,
                connections,
                sessionsPerConnection,
                consumersPerConnection,
                partitionsPerQueue,
                n,
                inFlightBytes,
                producerWindowBytes,
                nonPersistentBytes,
                transactionBytes,
                writeBufferBytes,
                pacedBacklogBytes,
                openTransactionBytes,
                messageBytes);
    }

    public FlowLimits withMemory(
            long inFlight, int producerWindow, long nonPersistent, long transaction, long writeBuffer) {
        return new FlowLimits(
                handshakeFrameBytes,
                handshakeTimeoutMillis,
                connections,
                sessionsPerConnection,
                consumersPerConnection,
                partitionsPerQueue,
                destinationNameLength,
                inFlight,
                producerWindow,
                nonPersistent,
                transaction,
                writeBuffer,
                pacedBacklogBytes,
                openTransactionBytes,
                messageBytes);
    }

    public FlowLimits withInFlightBytes(long n) {
        return withMemory(n, producerWindowBytes, nonPersistentBytes, transactionBytes, writeBufferBytes);
    }

    public FlowLimits withProducerWindowBytes(int n) {
        return withMemory(inFlightBytes, n, nonPersistentBytes, transactionBytes, writeBufferBytes);
    }

    public FlowLimits withNonPersistentBytes(long n) {
        return withMemory(inFlightBytes, producerWindowBytes, n, transactionBytes, writeBufferBytes);
    }

    public FlowLimits withTransactionBytes(long n) {
        return withMemory(inFlightBytes, producerWindowBytes, nonPersistentBytes, n, writeBufferBytes);
    }

    public FlowLimits withWriteBufferBytes(long n) {
        return withMemory(inFlightBytes, producerWindowBytes, nonPersistentBytes, transactionBytes, n);
    }

    public FlowLimits withPacedBacklogBytes(long n) {
        return new FlowLimits(
                handshakeFrameBytes,
                handshakeTimeoutMillis,
                connections,
                sessionsPerConnection,
                consumersPerConnection,
                partitionsPerQueue,
                destinationNameLength,
                inFlightBytes,
                producerWindowBytes,
                nonPersistentBytes,
                transactionBytes,
                writeBufferBytes,
                n,
                openTransactionBytes,
                messageBytes);
    }

    public FlowLimits withOpenTransactionBytes(long n) {
        return new FlowLimits(
                handshakeFrameBytes,
                handshakeTimeoutMillis,
                connections,
                sessionsPerConnection,
                consumersPerConnection,
                partitionsPerQueue,
                destinationNameLength,
                inFlightBytes,
                producerWindowBytes,
                nonPersistentBytes,
                transactionBytes,
                writeBufferBytes,
                pacedBacklogBytes,
                n,
                messageBytes);
    }

    public FlowLimits withMessageBytes(int n) {
        return new FlowLimits(
                handshakeFrameBytes,
                handshakeTimeoutMillis,
                connections,
                sessionsPerConnection,
                consumersPerConnection,
                partitionsPerQueue,
                destinationNameLength,
                inFlightBytes,
                producerWindowBytes,
                nonPersistentBytes,
                transactionBytes,
                writeBufferBytes,
                pacedBacklogBytes,
                openTransactionBytes,
                n);
    }

    private static void positive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException("limit " + name + " must be positive: " + value);
        }
    }
}
