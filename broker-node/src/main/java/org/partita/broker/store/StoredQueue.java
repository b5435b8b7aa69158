package org.partita.broker.store;

/** A queue definition read back at start-up. */
public record StoredQueue(String name, String kind, String options) {}
