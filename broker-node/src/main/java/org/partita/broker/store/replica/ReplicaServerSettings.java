package org.partita.broker.store.replica;

import java.nio.file.Path;
import java.time.Duration;
import org.partita.broker.config.ClusterConfig;

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
 * @param retention       how much of each set's log is kept, and how long each replica remembers the
 *                        messages it applied ({@link ClusterConfig.ReplicaLog})
 */
public record ReplicaServerSettings(
        String node,
        String host,
        int port,
        Path dir,
        Duration electionTimeout,
        Duration requestTimeout,
        int maxEntryBytes,
        ClusterConfig.ReplicaLog retention) {
    /** The protocol's default largest frame, and room for the store operations around its message. */
    public static final int DEFAULT_MAX_ENTRY_BYTES = org.partita.protocol.Protocol.DEFAULT_MAX_FRAME_SIZE + (1 << 20);

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
}
