package org.partita.broker.core;

import org.partita.jms.protocol.WireMessage;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * One stored payload, shared by every queue entry that holds it (fan-out stores it once). The
 * encoded bytes are forwarded to consumers as they came; the decoded view serves routing and
 * selectors.
 */
public final class MessageRef {
    private final long id;
    private final byte[] encoded;
    private final WireMessage wire;
    private final AtomicInteger holders = new AtomicInteger();

    public MessageRef(long id, byte[] encoded, WireMessage wire) {
        this.id = id;
        this.encoded = encoded;
        this.wire = wire;
    }

    public long id() {
        return id;
    }

    public byte[] encoded() {
        return encoded;
    }

    public WireMessage wire() {
        return wire;
    }

    public boolean persistent() {
        return wire.persistent();
    }

    public int priority() {
        return wire.priority();
    }

    void retain() {
        holders.incrementAndGet();
    }

    /** @return true when no entry holds this payload any more, so it can be deleted. */
    boolean release() {
        return holders.decrementAndGet() == 0;
    }
}
