package org.partita.broker.store;

/**
 * Derives a message's <em>head</em> from its payload: a few bytes from which the node rebuilds what
 * it routes and dispatches by, so that a start with a deep backlog reads heads, not payloads. The
 * store keeps heads apart from payloads and never looks inside either.
 */
@FunctionalInterface
public interface MessageHeads {

    /** No heads: a start reads every payload (the store tests, and databases written before heads). */
    MessageHeads NONE = payload -> null;

    /** The head of {@code payload}, or null to keep none. */
    byte[] of(byte[] payload);
}
