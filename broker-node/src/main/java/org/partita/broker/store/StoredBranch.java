package org.partita.broker.store;

/** An XA transaction branch read back at start-up, as {@link StoreOp.SaveBranch} saved it. */
public record StoredBranch(byte[] xid, int state, byte[] data) {}
