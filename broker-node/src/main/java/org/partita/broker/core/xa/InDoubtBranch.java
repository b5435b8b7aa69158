package org.partita.broker.core.xa;

import org.partita.protocol.WireXid;

/**
 * A branch an administrator may have to complete: prepared and waiting for its transaction
 * manager, or completed by hand and waiting to be forgotten.
 *
 * @param state      PREPARED, HEURISTIC_COMMITTED or HEURISTIC_ROLLED_BACK
 * @param sent       messages it sends when it commits
 * @param consumed   messages it consumes when it commits
 * @param preparedAt epoch millis of its prepare (0 once completed by hand)
 * @param restored   whether it was read back from the store at start-up
 */
public record InDoubtBranch(WireXid xid, String state, int sent, int consumed, long preparedAt, boolean restored) {}
