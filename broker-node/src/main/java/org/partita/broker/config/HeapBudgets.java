package org.partita.broker.config;

import org.partita.protocol.Protocol;

/**
 * Every memory budget of a node, as a share of the heap it runs in (and of the direct memory limit,
 * for what Netty and the journal hold outside the heap): the defaults of {@link FlowLimits}, of
 * {@code residentBytes}, of the store's journal and checkpoints, and of the largest frame and
 * message the node takes. docs/reliability.md states the arithmetic and what was measured with it.
 *
 * <p>Each node-wide budget (in flight, non-persistent, open transactions, resident payloads, the
 * journal's pending changes) is a sixteenth of the heap: five sixteenths together, and a config file
 * may raise them to {@link #NODE_WIDE_EIGHTHS} eighths at most. The rest is for what they do not count
 * and what may pass them by one message each (a frame finishing past the in-flight budget, a group
 * past a journal segment, H2's work on a checkpoint transaction, which holds several times what it
 * writes, a payload read back for a delivery), for the node's own structures and for the collector's
 * headroom. So the largest message is a thirty-second of the heap. Payloads are counted at their
 * {@link HeapCost}.
 */
public final class HeapBudgets {
    /** The node-wide budgets take at most this many eighths of the heap together; a config file that asks for more is refused. */
    public static final int NODE_WIDE_EIGHTHS = 3;
    /** No budget is derived below this, so a very small heap still moves messages. */
    static final long FLOOR = 1L << 20;
    /** The journal's budget stays at the size the store was tuned with (docs/performance.md) once the heap allows it. */
    static final long JOURNAL_CEILING = 32L << 20;

    /** The heap one client connection is given room for ({@link #connections}). */
    static final long CONNECTION_BYTES = 64L << 10;
    /** The connection limit a small heap gives, at least. */
    static final int MIN_CONNECTIONS = 1024;
    /** Open files kept for the store's files, the cluster's links and the JVM's own when the open-file limit binds. */
    static final long FILES_KEPT = 256;
    /** The connection limit a low open-file limit gives, at least (a connection beyond it fails to be accepted). */
    static final int MIN_CONNECTIONS_BY_FILES = 64;

    private final JvmMemory jvm;

    public HeapBudgets(JvmMemory jvm) {
        this.jvm = jvm;
    }

    public static HeapBudgets current() {
        return new HeapBudgets(JvmMemory.current());
    }

    public JvmMemory jvm() {
        return jvm;
    }

    /** What is held in direct buffers (frames read, writes waiting) is on the heap too once decoded. */
    private long heapAndDirect() {
        return Math.min(jvm.heapBytes(), jvm.directBytes());
    }

    private static long share(long of, int divisor) {
        return Math.max(FLOOR, of / divisor);
    }

    /**
     * The largest frame the node reads: an eighth of the heap, at most the protocol's 16 MiB. Larger
     * than a message, so that a send of a message the node does not take is read and refused with
     * {@code RESOURCE_EXHAUSTED}, its connection left open, rather than refused by the client's
     * encoder with a plain error.
     */
    public int frameBytes() {
        return (int) Math.min(Protocol.DEFAULT_MAX_FRAME_SIZE, share(heapAndDirect(), 8));
    }

    /**
     * The largest message the node takes: a thirty-second of the heap, at most a frame. A message
     * is held by each stage of its way at once (read, journal, checkpoint, delivery) and H2 holds
     * several copies of it while a checkpoint writes or deletes it.
     */
    public int messageBytes() {
        return (int) Math.min(frameBytes(), share(heapAndDirect(), 32));
    }

    /** Node-wide bytes of frames being read, of sends not yet stored or queued, and of writes waiting: a sixteenth. */
    public long inFlightBytes() {
        return share(heapAndDirect(), 16);
    }

    /** Node-wide bytes of non-persistent messages held in queues: a sixteenth. */
    public long nonPersistentBytes() {
        return share(jvm.heapBytes(), 16);
    }

    /** Bytes one transaction may hold: a thirty-second, at least a message of the largest size. */
    public long transactionBytes() {
        return Math.max(messageBytes(), share(jvm.heapBytes(), 32));
    }

    /** Node-wide bytes of every open transaction together: a sixteenth, at least one transaction's bound. */
    public long openTransactionBytes() {
        return Math.max(transactionBytes(), share(jvm.heapBytes(), 16));
    }

    /** Bytes waiting to be written to one connection: a sixteenth (they also count in the in-flight budget). */
    public long writeBufferBytes() {
        return share(heapAndDirect(), 16);
    }

    /** Payloads of stored messages kept in memory, at their heap cost: a sixteenth. */
    public long residentBytes() {
        return share(jvm.heapBytes(), 16);
    }

    /**
     * The journal's budget: what its two segments hold of records, and of pending changes in the
     * heap, together. A sixteenth of the heap, at most {@link #JOURNAL_CEILING}.
     */
    public long journalBytes() {
        return Math.min(JOURNAL_CEILING, share(jvm.heapBytes(), 16));
    }

    /** H2's own default page cache, which a store keeps once the heap allows it. */
    static final long STORE_CACHE_CEILING = 16L << 20;

    /**
     * H2's page cache, per store: the node's own and each replica set's. A sixty-fourth of the heap, at
     * most H2's default of 16 MiB. Payloads are rows of H2's pages, so the cache holds whole messages;
     * at H2's default, a node of 256 MiB in three replica sets kept up to 64 MiB of them in four caches.
     */
    public long storeCacheBytes() {
        return Math.min(STORE_CACHE_CEILING, share(jvm.heapBytes(), 64));
    }

    /**
     * The journal's budget of a replica set's store: a sixty-fourth of the heap, at most
     * {@link #JOURNAL_CEILING}. A node keeps a store for every set it is a replica of (three in a
     * three-node cluster) beside its own, whose journal has {@link #journalBytes}; with the node's share
     * each, those journals alone could take a quarter of a small heap.
     */
    public long replicaJournalBytes() {
        return Math.min(JOURNAL_CEILING, share(jvm.heapBytes(), 64));
    }

    /** A replica log file stays at the size Ratis was tuned with once the heap allows it. */
    static final long REPLICA_SEGMENT_CEILING = 32L << 20;

    /**
     * A replica set's log file ({@code cluster.replicaLog.segmentBytes}): a sixty-fourth of the heap, at
     * most {@link #REPLICA_SEGMENT_CEILING}. Ratis holds the entries of a set's open file in the heap,
     * and of one closed file besides ({@code ReplicaServer}), in every set the node is a replica of:
     * three sets of a three-node cluster hold up to six files. With 32 MiB files, the size before it
     * followed the heap, three nodes of 256 MiB each died of it under 512 KiB messages.
     */
    public int replicaSegmentBytes() {
        return (int) Math.min(REPLICA_SEGMENT_CEILING, share(jvm.heapBytes(), 64));
    }

    /**
     * What a replica applied from its set's log and its store has not written yet: a sixty-fourth of
     * the heap per set (an entry larger than that goes on its own), three sixty-fourths on a node of a
     * three-node cluster. A replica catching up applies as fast as its log is sent, faster than a
     * store writes large messages; past this its applies wait ({@code ApplyBacklog}).
     */
    public long replicaApplyBytes() {
        return share(jvm.heapBytes(), 64);
    }

    /**
     * Payload bytes one H2 transaction of a checkpoint writes or deletes (a single larger message
     * goes alone): a thirty-second. H2 holds a few times what a transaction touches until it commits
     * (the rows it inserts, the rows it deletes, which it loads into its undo log, the chunk it writes).
     */
    public long checkpointTransactionBytes() {
        return share(jvm.heapBytes(), 32);
    }

    /**
     * Client connections the node takes: one per {@link #CONNECTION_BYTES} of heap, at least
     * {@link #MIN_CONNECTIONS}, and no more than the process's open-file limit leaves once
     * {@link #FILES_KEPT} files are kept for the rest (each connection is a socket): 4,096 in a
     * 256 MiB heap, 16,384 in 1 GiB. A connection with a session, a producer and a consumer holds
     * about 6 KiB of the node's heap at rest (S9, docs/performance.md); the rest of its share is room
     * for what it has on its way, which the node-wide budgets bound anyway.
     *
     * @param openFileLimit the process's open-file limit, or 0 or less when it is not known
     */
    public int connections(long openFileLimit) {
        long byHeap = Math.max(MIN_CONNECTIONS, jvm.heapBytes() / CONNECTION_BYTES);
        long byFiles = openFileLimit > 0 ? Math.max(MIN_CONNECTIONS_BY_FILES, openFileLimit - FILES_KEPT) : byHeap;
        return (int) Math.min(Integer.MAX_VALUE, Math.min(byHeap, byFiles));
    }

    /** What the node-wide budgets may take together: {@link #NODE_WIDE_EIGHTHS} eighths of the heap. */
    public long nodeWideBytes() {
        return jvm.heapBytes() / 8 * NODE_WIDE_EIGHTHS;
    }

    /** {@code 128 MiB}, or the bytes when not a whole number of MiB. */
    static String mib(long bytes) {
        return bytes % (1L << 20) == 0 ? (bytes >> 20) + " MiB" : bytes + " bytes";
    }
}
