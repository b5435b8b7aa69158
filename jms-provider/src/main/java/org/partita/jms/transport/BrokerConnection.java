package org.partita.jms.transport;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The one narrow, asynchronous seam between the JMS facade and a node. The facade (connection,
 * session, producer, consumer) speaks only this; the Netty transport implements it, and so can a
 * failover wrapper or an in-memory double for facade tests. Futures fail with {@link BrokerError}.
 */
public interface BrokerConnection {

    /** Handshake: protocol version, credentials, client id. */
    CompletableFuture<Void> open(String user, String password, String clientId);

    void setListener(ConnectionListener listener);

    /**
     * Completes once the node was heard from within the delivery lease it announced: at once when it
     * was (or it announced none), else when the node answers a ping. Fails if the connection is lost
     * first. A prefetched message is handed to the application only then (see
     * {@link org.partita.protocol.Frame.HelloOk#deliveryLeaseMillis}).
     */
    default CompletableFuture<Void> heardLately() {
        return CompletableFuture.completedFuture(null);
    }

    /**
     * Until when (System.nanoTime) deliveries count as from before the node's last outage: a lease
     * after it last answered a request it had owed, unresponsive for longer than its sets' election
     * timeout ({@link Long#MIN_VALUE}: never). Such deliveries are handed to the application flagged
     * redelivered (another node may have delivered them meanwhile).
     */
    default long unresponsiveUntil() {
        return Long.MIN_VALUE;
    }

    CompletableFuture<Void> openSession(int sessionId, boolean transacted);

    CompletableFuture<Void> closeSession(int sessionId);

    /**
     * Waits until the node's send credit lets a message of {@code bytes} go (protocol 3 on; a node
     * that grants none leaves the window open). Called by the application's thread before {@link #send},
     * never under a lock that an acknowledgement needs: the node may hold credit back until consumers
     * catch up. Throws {@link BrokerError} {@code RESOURCE_EXHAUSTED} if no credit came within the bound.
     */
    default void awaitSendRoom(int bytes) {}

    /** Sends an encoded message; with {@code confirm} the future completes when the node stored it. */
    CompletableFuture<Void> send(int sessionId, byte[] message, boolean confirm);

    /**
     * A confirmed send that may be made again on another node when this connection's node is lost
     * before it answered (see {@link FailoverBrokerConnection}); a connection to one node sends it
     * once, as {@link #send}.
     */
    default CompletableFuture<Void> sendAgainIfLost(int sessionId, byte[] message) {
        return send(sessionId, message, true);
    }

    /**
     * Whether {@link #sendAgainIfLost} may make a send again on another node: the node that receives it
     * keeps one copy by its JMSMessageID, so such a send needs one even when its producer disabled them.
     */
    default boolean sendsAgain() {
        return false;
    }

    /** Whether the node takes large message bodies in parts (protocol 6 on; docs/large-messages.md). */
    default boolean takesLargeBodies() {
        return false;
    }

    /**
     * The size of the parts a large body goes in: 256 KiB (less when the node's frames are smaller), under
     * half of G1's smallest region, so that neither side allocates them as humongous objects.
     */
    default int bodyPartBytes() {
        return 256 << 10;
    }

    /** A new upload id for {@link #sendBodyPart}, unique within the connection. */
    default int newUploadId() {
        throw new UnsupportedOperationException("this transport carries no large messages");
    }

    /**
     * Sends the next part of a large body, at {@code offset}; completes once the node wrote it (the
     * last one: forced it to the disk).
     */
    default CompletableFuture<Void> sendBodyPart(int uploadId, long offset, byte[] data, boolean last) {
        return CompletableFuture.failedFuture(new BrokerError(
                org.partita.protocol.ErrorCode.INVALID_REQUEST, "this transport carries no large messages"));
    }

    /** Sends a message whose body is the upload {@code uploadId}, as {@link #send} does. */
    default CompletableFuture<Void> sendWithBody(int sessionId, byte[] message, int uploadId, boolean confirm) {
        return CompletableFuture.failedFuture(new BrokerError(
                org.partita.protocol.ErrorCode.INVALID_REQUEST, "this transport carries no large messages"));
    }

    /** Up to {@code length} bytes of the large body of a delivery not yet acknowledged, from {@code offset}. */
    default CompletableFuture<byte[]> readBody(long deliveryId, long offset, int length) {
        return CompletableFuture.failedFuture(new BrokerError(
                org.partita.protocol.ErrorCode.INVALID_REQUEST, "this transport carries no large messages"));
    }

    CompletableFuture<Void> openConsumer(ConsumerSpec spec);

    CompletableFuture<Void> closeConsumer(int consumerId);

    /** Changes priority and capacity of an attached consumer; null leaves a value unchanged. */
    CompletableFuture<Void> updateConsumer(
            int consumerId, Integer priority, Integer capacityMessages, Long capacityBytes);

    /** Grants a consumer room for more messages. */
    void credit(int consumerId, int messages);

    /** Takes back a consumer's credit; completes when no delivery it allowed can still arrive. */
    CompletableFuture<Void> drain(int consumerId);

    /** With {@code confirm} the future completes when the acknowledgement is durable. */
    CompletableFuture<Void> ack(int sessionId, long[] deliveryIds, boolean confirm);

    CompletableFuture<Void> release(int sessionId, long[] redeliver, long[] unseen);

    /**
     * Hands back everything delivered to the session: {@code seen} redelivered, the rest unseen.
     * Completes with the fence: deliveries numbered up to it are void and must be dropped.
     */
    CompletableFuture<Long> recover(int sessionId, long[] seen);

    CompletableFuture<Void> commit(int sessionId);

    CompletableFuture<Void> rollback(int sessionId);

    /** The encoded messages waiting in a queue, in delivery order. */
    CompletableFuture<List<byte[]>> browse(String destination, String selector);

    /** Creates or deletes temporary destinations, removes durable subscriptions; answers a name when creating. */
    CompletableFuture<String> destinationOp(int op, String name);

    /** Runs an administrative command on the node; completes with its text answer. */
    CompletableFuture<String> admin(String command, String argument);

    /**
     * The node's name, as its handshake told it (null before the handshake or if this transport
     * cannot tell): XA resources on one node are one resource manager.
     */
    default String nodeName() {
        return null;
    }

    /**
     * Sends one XA request ({@link org.partita.protocol.Frame.XaStart} ... {@link
     * org.partita.protocol.Frame.XaForget}); completes with the node's {@code XA_RESULT},
     * whatever its code. The request's id is chosen by the transport.
     */
    default CompletableFuture<org.partita.protocol.Frame.XaResult> xa(
            java.util.function.IntFunction<org.partita.protocol.Frame> request) {
        return CompletableFuture.failedFuture(new BrokerError(
                org.partita.protocol.ErrorCode.INVALID_REQUEST, "this transport does not carry XA transactions"));
    }

    /** The node's prepared and heuristically completed XA branches. */
    default CompletableFuture<List<org.partita.protocol.WireXid>> xaRecover() {
        return CompletableFuture.failedFuture(new BrokerError(
                org.partita.protocol.ErrorCode.INVALID_REQUEST, "this transport does not carry XA transactions"));
    }

    /** Orderly close: tells the node, then drops the transport. */
    CompletableFuture<Void> close();

    boolean isOpen();

    /**
     * What a consumer asks of the node: {@code credit} messages now, and with {@code windowBytes}
     * above 0, no more deliveries while that many bytes it was sent are not given back as credit.
     */
    record ConsumerSpec(
            int sessionId,
            int consumerId,
            String destination,
            String selector,
            String subscription,
            int flags,
            int credit,
            long windowBytes) {}
}
