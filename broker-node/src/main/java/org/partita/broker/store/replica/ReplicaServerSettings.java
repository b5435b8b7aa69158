package org.partita.broker.store.replica;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How a node runs its replica server.
 *
 * @param node            this node's name: its id in every replica set
 * @param host            the address the server listens on (the node's cluster address)
 * @param port            its port (0: any free one, for tests)
 * @param dir             the folder of the Raft logs and of the replicas' stores
 * @param electionTimeout how long a follower waits for its leader before it stands for election
 *                        (Raft picks a random time between this and twice this)
 * @param requestTimeout  how long a write may wait for a majority before it ends in doubt
 * @param maxEntryBytes   the largest write (one Raft entry): above the node's largest message. Ratis
 *                        keeps a direct buffer of this size for each set's log, and refuses a larger
 *                        entry; a larger write (a transaction's commit) is refused with a clear error
 * @param retention       how much of each set's log is kept ({@link LogRetention})
 */
public record ReplicaServerSettings(
        String node,
        String host,
        int port,
        Path dir,
        Duration electionTimeout,
        Duration requestTimeout,
        int maxEntryBytes,
        LogRetention retention) {
    public static final Duration DEFAULT_ELECTION_TIMEOUT = Duration.ofSeconds(1);
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);
    /** The protocol's default largest frame, and room for the store operations around its message. */
    public static final int DEFAULT_MAX_ENTRY_BYTES = org.partita.protocol.Protocol.DEFAULT_MAX_FRAME_SIZE + (1 << 20);

    public ReplicaServerSettings(
            String node, String host, int port, Path dir, Duration electionTimeout, Duration requestTimeout) {
        this(node, host, port, dir, electionTimeout, requestTimeout, DEFAULT_MAX_ENTRY_BYTES, LogRetention.DEFAULT);
    }

    /**
     * How much of a set's log each replica keeps. Every {@code markEvery} entries a replica marks
     * what its store holds durably (the store is the snapshot); the log before the mark is then
     * dropped, but never its last {@code keptEntries} entries (at least {@code markEvery}), which a
     * follower that was away a short while catches up from. A follower further behind is sent a copy of the leader's store
     * instead ({@code StoreCopy}), then the entries after it.
     *
     * @param markEvery    entries between two marks of a replica's store
     * @param keptEntries  entries kept before the mark for followers a little behind
     * @param segmentBytes the size of one file of the log: the log is dropped a whole file at a time
     */
    public record LogRetention(int markEvery, int keptEntries, int segmentBytes) {
        /**
         * A mark every 10,000 entries, and 20,000 entries kept before it: under a steady load of the
         * benchmark's kind (a few hundred entries a second per set) a follower away for a minute
         * still catches up from the log.
         */
        public static final LogRetention DEFAULT = new LogRetention(10_000, 20_000, 32 << 20);

        public LogRetention {
            if (markEvery < 1 || keptEntries < markEvery || segmentBytes < (64 << 10)) {
                // a copy of the store is made at a mark: the entries after it must still be in the log
                // when the follower has loaded it, so the log keeps at least a mark's worth of entries
                throw new IllegalArgumentException("a replica log retention needs a mark every entry or more, at"
                        + " least as many entries kept and log files of 64 KiB or more: " + markEvery + ", "
                        + keptEntries + ", " + segmentBytes);
            }
        }
    }

    /** Room for the store operations and Raft's framing around a message of {@code maxFrameSize}. */
    public static int maxEntryFor(int maxFrameSize) {
        return (int) Math.min(Integer.MAX_VALUE - 16, (long) maxFrameSize + (1 << 20));
    }

    public ReplicaServerSettings {
        java.util.Objects.requireNonNull(retention, "retention");
        if (maxEntryBytes < (1 << 20)) {
            throw new IllegalArgumentException("a replica log entry must hold at least 1 MiB, not " + maxEntryBytes);
        }
        if (electionTimeout.toMillis() < 100) {
            throw new IllegalArgumentException("an election timeout under 100 ms elects leaders at every pause");
        }
        if (requestTimeout.compareTo(electionTimeout.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException("the request timeout (" + requestTimeout.toMillis()
                    + " ms) must leave time for an election (twice the election timeout, "
                    + electionTimeout.multipliedBy(2).toMillis() + " ms)");
        }
    }

    public static ReplicaServerSettings of(String node, String host, int port, Path dir) {
        return new ReplicaServerSettings(node, host, port, dir, DEFAULT_ELECTION_TIMEOUT, DEFAULT_REQUEST_TIMEOUT);
    }
}
