package org.partita.broker.store;

/**
 * A queue entry read back at start-up: which queue holds which message, delivered how often. The
 * message comes as its head when one was stored ({@link MessageHeads}), else as its payload.
 *
 * @param payload the encoded message, or null when {@code head} is given
 * @param head    the message's head, or null
 */
public record StoredEntry(String queue, long messageId, int deliveryCount, byte[] payload, byte[] head) {

    /** An entry read back with its payload. */
    public StoredEntry(String queue, long messageId, int deliveryCount, byte[] payload) {
        this(queue, messageId, deliveryCount, payload, null);
    }
}
