package org.partita.broker.store;

/** A queue entry read back at start-up: which queue holds which payload, delivered how often. */
public record StoredEntry(String queue, long messageId, int deliveryCount, byte[] payload) {
}
