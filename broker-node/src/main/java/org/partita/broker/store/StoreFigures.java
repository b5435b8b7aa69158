package org.partita.broker.store;

/** What the store holds right now: payload rows, their bytes, and queue entry rows. */
public record StoreFigures(long messageRows, long payloadBytes, long entryRows) {}
