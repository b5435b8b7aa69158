package org.partita.jms.client;

/**
 * A delivery waiting in a consumer's buffer, still encoded.
 *
 * @param arrivedNanos when it came (System.nanoTime): a delivery from before its node was last
 *     unresponsive is given back rather than handed out
 */
record Incoming(long deliveryId, int deliveryCount, int partition, byte[] message, long arrivedNanos) {
    /** Put in a buffer to wake a blocked receive when the connection fails or the consumer closes. */
    static final Incoming WAKE_UP = new Incoming(-1, 0, -1, null);

    Incoming(long deliveryId, int deliveryCount, int partition, byte[] message) {
        this(deliveryId, deliveryCount, partition, message, System.nanoTime());
    }

    /** Its length on the wire, as the node counts it against the consumer's byte window. */
    long size() {
        return message == null ? 0 : message.length;
    }

    /**
     * The same delivery counted as delivered before (so flagged {@code JMSRedelivered}): another node
     * may have delivered it meanwhile. It stays in its place, so its key keeps its order.
     */
    Incoming mayHaveBeenDelivered() {
        return deliveryCount >= 2 ? this : new Incoming(deliveryId, 2, partition, message, arrivedNanos);
    }
}
