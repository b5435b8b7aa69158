package org.partita.jms.client;

import java.util.concurrent.atomic.LongAdder;

/**
 * What the connections of one {@link PartitaConnectionFactory} did, counted since the factory was
 * made: {@link PartitaConnectionFactory#getStatistics()}. Each event costs one {@link LongAdder}
 * increment on the thread that saw it, so counting never slows sends or deliveries down measurably;
 * the readers sum the adders, so a value read while counting goes on is a moment's, not a snapshot
 * of all of them together. No dependency: the Spring Boot starter binds them to Micrometer as
 * {@code partita.client.*} meters.
 */
public final class ClientStatistics {
    private final LongAdder connectionsOpened = new LongAdder();
    private final LongAdder connectionsEnded = new LongAdder();
    private final LongAdder failovers = new LongAdder();
    private final LongAdder messagesSent = new LongAdder();
    private final LongAdder messagesReceived = new LongAdder();
    private final LongAdder sendsFailed = new LongAdder();

    /** Connections open now: opened and neither closed by the application nor lost for good. */
    public long connectionsOpen() {
        return connectionsOpened.sum() - connectionsEnded.sum();
    }

    /** Connections opened (handshake done), in all. */
    public long connectionsOpened() {
        return connectionsOpened.sum();
    }

    /** Times a connection lost its node and carried on with another (each one the ExceptionListener hears of with PARTITA_FAILOVER). */
    public long failovers() {
        return failovers.sum();
    }

    /**
     * Messages sent: confirmed by the node (persistent, asynchronous and transacted sends; a
     * transacted one counts once the node added it to the transaction, whatever becomes of the
     * transaction), or written to the connection (non-persistent sends, which the node does not
     * confirm).
     */
    public long messagesSent() {
        return messagesSent.sum();
    }

    /** Messages delivered to the application: returned by a receive, or given to a MessageListener. */
    public long messagesReceived() {
        return messagesReceived.sum();
    }

    /**
     * Sends that failed: the send threw, the node refused a confirmed send, or an asynchronous send
     * completed with an exception. A non-persistent send the node refuses afterwards counts here and
     * in {@link #messagesSent()} both, as the client learnt of it only after it was written.
     */
    public long sendsFailed() {
        return sendsFailed.sum();
    }

    void connectionOpened() {
        connectionsOpened.increment();
    }

    void connectionEnded() {
        connectionsEnded.increment();
    }

    void failedOver() {
        failovers.increment();
    }

    void sent() {
        messagesSent.increment();
    }

    void sendFailed() {
        sendsFailed.increment();
    }

    void received() {
        messagesReceived.increment();
    }

    /** A message counted as received went back unseen (receiveBody could not convert it). */
    void unreceived() {
        messagesReceived.decrement();
    }

    @Override
    public String toString() {
        return "ClientStatistics[connectionsOpen=" + connectionsOpen() + ", connectionsOpened=" + connectionsOpened()
                + ", failovers=" + failovers() + ", messagesSent=" + messagesSent() + ", messagesReceived="
                + messagesReceived() + ", sendsFailed=" + sendsFailed() + "]";
    }
}
