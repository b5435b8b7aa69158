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
    private final Object origin;
    private volatile boolean stored;

    /**
     * @param origin the connection that sent it (for noLocal subscriptions), or null
     */
    public MessageRef(long id, byte[] encoded, WireMessage wire, Object origin) {
        this.id = id;
        this.encoded = encoded;
        this.wire = wire;
        this.origin = origin;
    }

    public Object origin() {
        return origin;
    }

    /** True once the payload has a row in the store, which must go when the last holder lets go. */
    public boolean stored() {
        return stored;
    }

    void markStored() {
        stored = true;
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

    /** Counts queues that will hold this payload; done before any of them can drop it. */
    void retain(int queues) {
        holders.addAndGet(queues);
    }

    /** @return true when no entry holds this payload any more, so it can be deleted. */
    boolean release() {
        return holders.decrementAndGet() == 0;
    }
}
