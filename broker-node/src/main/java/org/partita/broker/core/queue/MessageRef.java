package org.partita.broker.core.queue;

import java.util.concurrent.atomic.AtomicInteger;
import org.partita.broker.config.HeapCost;
import org.partita.broker.core.dispatch.Backlog;
import org.partita.protocol.MessageCodec;
import org.partita.protocol.PartitionKeys;
import org.partita.protocol.WireMessage;

/**
 * One stored payload, shared by every queue entry that holds it (fan-out stores it once). The
 * encoded bytes are forwarded to consumers as they came; the decoded view serves routing and
 * selectors.
 *
 * <p>A stored message may be <em>paged out</em> when the node holds more payload bytes than its
 * budget ({@link PayloadMemory}): it then keeps only the summary that dispatch reads for every
 * waiting message (size, priority, expiration, delivery time, partition key hash), and reads its
 * bytes back from the store when it is delivered, browsed or matched against a selector.
 */
public final class MessageRef {
    /** See {@link #unkeyedTurn}; -1 until routed. */
    private int unkeyedTurn = -1;
    /** See {@link #placedPartition}. */
    private volatile int placedPartition = -1;

    private final long id;
    private final int size;
    private final int priority;
    private final boolean persistent;
    private final long expiration;
    private final long deliveryTime;
    /** Set once, before the message is routed (see {@link #keyBy}); read on other threads after it was handed on. */
    private int keyHash;

    private boolean keyed;
    private final AtomicInteger holders = new AtomicInteger();
    private final Object origin;
    private volatile byte[] encoded;
    private volatile WireMessage wire;
    private volatile boolean stored;
    /** Set once stored; counts this payload while it is resident. Guarded by {@code this}. */
    private PayloadMemory memory;

    private boolean pagedOut;
    private boolean gone;
    /** The node's count of payload bytes held in queues and not stored, while it counts this one. Guarded by {@code this}. */
    private java.util.concurrent.atomic.AtomicLong unstored;

    /**
     * @param origin the connection that sent it (for noLocal subscriptions), or null
     */
    public MessageRef(long id, byte[] encoded, WireMessage wire, Object origin) {
        this(id, MessageSummary.of(wire, encoded.length), encoded, wire, origin);
    }

    private MessageRef(long id, MessageSummary s, byte[] encoded, WireMessage wire, Object origin) {
        this.id = id;
        this.encoded = encoded;
        this.wire = wire;
        this.origin = origin;
        this.size = s.size();
        this.priority = s.priority();
        this.persistent = s.persistent();
        this.expiration = s.expiration();
        this.deliveryTime = s.deliveryTime();
        this.keyed = s.keyed();
        this.keyHash = s.keyHash();
    }

    /**
     * A stored message read back at start-up from its head alone: paged out from the start, its
     * bytes are read from the store when needed, and it takes nothing from the memory budget.
     */
    public static MessageRef restored(long id, byte[] head, PayloadMemory memory) {
        MessageRef m = new MessageRef(id, MessageSummary.decode(head), null, null, null);
        synchronized (m) {
            m.stored = true;
            m.memory = memory;
            m.pagedOut = true;
        }
        memory.restoredPagedOut();
        return m;
    }

    public Object origin() {
        return origin;
    }

    /** True once the payload has a row in the store, which must go when the last holder lets go. */
    public boolean stored() {
        return stored;
    }

    /** The payload is durable: from now on it counts against {@code memory} and may be paged out. */
    public void markStored(PayloadMemory memory) {
        synchronized (this) {
            if (stored) {
                return;
            }
            stored = true;
            this.memory = memory;
            if (unstored != null) {
                unstored.addAndGet(-HeapCost.of(size));
                unstored = null;
            }
        }
        memory.admitted(this);
    }

    public long id() {
        return id;
    }

    /** The encoded message; read back from the store if it was paged out. */
    public byte[] encoded() {
        byte[] e = encoded;
        if (e != null) {
            return e;
        }
        byte[] read = memory.read(id);
        if (read == null) {
            throw new IllegalStateException("message " + id + " is no longer stored");
        }
        return read;
    }

    /** The decoded headers and properties; decoded again from the store's copy if paged out. */
    public WireMessage wire() {
        WireMessage w = wire;
        return w != null ? w : MessageCodec.decodeHeaders(encoded());
    }

    /** Milliseconds since its JMS timestamp, or -1 if it has none (the producer disabled timestamps). */
    public long ageMillis(long now) {
        long timestamp = wire().timestamp();
        return timestamp <= 0 ? -1 : Math.max(0, now - timestamp);
    }

    /** A stand-in that sorts before every message of this priority, for look-ups in a {@link Backlog}. */
    public static MessageRef probe(int priority) {
        return new MessageRef(Long.MIN_VALUE, new MessageSummary(0, priority, false, 0, 0, false, 0), null, null, null);
    }

    /** Encoded length in bytes, for capacity and depth limits; known without the payload. */
    public int size() {
        return size;
    }

    public boolean persistent() {
        return persistent;
    }

    public int priority() {
        return priority;
    }

    /** Absolute expiration in epoch millis, 0 for never. */
    public long expiration() {
        return expiration;
    }

    /** Epoch millis before which the message is not delivered. */
    public long deliveryTime() {
        return deliveryTime;
    }

    /** Whether the message carries a key ({@code JMSXGroupID}). */
    public boolean keyed() {
        return keyed;
    }

    /**
     * Keys the message by {@code key} instead of its {@code JMSXGroupID}: a clustered last value
     * queue partitions by the last-value key, so that each key lives in one partition. Called by the
     * thread that received it, before it is routed or handed to any queue.
     */
    public void keyBy(String key) {
        this.keyHash = org.partita.protocol.PartitionKeys.hash(key);
        this.keyed = true;
    }

    /** Keys the message as {@code other} is keyed (a copy of it, made to be sent again). */
    public void keyLike(MessageRef other) {
        this.keyHash = other.keyHash;
        this.keyed = other.keyed;
    }

    /**
     * The key's hash, which stands for the key on a plain queue: two keys with the same 32-bit hash
     * are ordered together, which costs some parallelism and never breaks an order.
     */
    public int keyHash() {
        return keyHash;
    }

    /**
     * The turn this unkeyed message was given among a clustered queue's partitions when it was first
     * routed ({@code next} gives one), kept so that routing it again when it is stored picks the
     * same partition and each message takes one turn.
     */
    public synchronized int unkeyedTurn(java.util.function.IntSupplier next) {
        if (unkeyedTurn < 0) {
            unkeyedTurn = next.getAsInt() & Integer.MAX_VALUE;
        }
        return unkeyedTurn;
    }

    /**
     * The partition an unkeyed message of a replicated queue was placed in before it was stored (its
     * entry lives in that partition's replica set), or -1.
     */
    public int placedPartition() {
        return placedPartition;
    }

    /** Places an unkeyed message in a partition (see {@link #placedPartition}). */
    public void place(int partition) {
        placedPartition = partition;
    }

    /** The partition of this message's key among {@code partitions}, or -1 if it has no key. */
    public int partition(int partitions) {
        return keyed ? PartitionKeys.partitionOfHash(keyHash, partitions) : -1;
    }

    /** Counts queues that will hold this payload; done before any of them can drop it. */
    public void retain(int queues) {
        holders.addAndGet(queues);
    }

    /**
     * Where this message's large body is kept, or null for a message with its body inline. A stored
     * message's body goes once the store wrote its removal ({@code BodyReleasingStore}); one never
     * stored goes with its last holder.
     */
    private volatile org.partita.broker.store.large.LargeBodies largeBody;

    public void largeBody(org.partita.broker.store.large.LargeBodies bodies) {
        this.largeBody = bodies;
    }

    /** Whether its body is large, kept apart from it. */
    public boolean large() {
        return largeBody != null;
    }

    /**
     * Deletes the large body of a message no queue holds and the store does not keep: its send was
     * refused or rolled back, or no queue took it. Safe after it was taken and consumed too (its body
     * went then already).
     */
    public void discardUntaken() {
        org.partita.broker.store.large.LargeBodies b = largeBody;
        if (b != null && holders.get() == 0 && !stored) {
            b.discard(id);
        }
    }

    /** @return true when no entry holds this payload any more, so it can be deleted. */
    boolean release() {
        if (holders.decrementAndGet() != 0) {
            return false;
        }
        org.partita.broker.store.large.LargeBodies body = largeBody;
        if (body != null && !stored) {
            body.discard(id);
        }
        boolean wasCounted;
        java.util.concurrent.atomic.AtomicLong wasUnstored;
        synchronized (this) {
            wasCounted = memory != null && !pagedOut && !gone;
            gone = true;
            wasUnstored = unstored;
            unstored = null;
        }
        if (wasCounted) {
            memory.released(this);
        }
        if (wasUnstored != null) {
            wasUnstored.addAndGet(-HeapCost.of(size));
        }
        return true;
    }

    /**
     * Queues hold this payload and the store does not (a non-persistent message): it counts in
     * {@code counter} until the last queue lets it go or it is stored after all.
     */
    public void countUnstored(java.util.concurrent.atomic.AtomicLong counter) {
        synchronized (this) {
            if (stored || gone || unstored != null) {
                return;
            }
            unstored = counter;
        }
        counter.addAndGet(HeapCost.of(size)); // its heap cost: limits.nonPersistentBytes bounds the heap they take
    }

    /** Drops the bytes and the decoded view, keeping the summary; false if not resident and stored. */
    synchronized boolean pageOut() {
        if (memory == null || pagedOut || gone) {
            return false;
        }
        pagedOut = true;
        encoded = null;
        wire = null;
        return true;
    }
}
