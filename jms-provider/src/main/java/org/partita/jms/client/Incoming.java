package org.partita.jms.client;

/** A delivery waiting in a consumer's buffer, still encoded. */
record Incoming(long deliveryId, int deliveryCount, int partition, byte[] message) {
    /** Put in a buffer to wake a blocked receive when the connection fails or the consumer closes. */
    static final Incoming WAKE_UP = new Incoming(-1, 0, -1, null);
}
