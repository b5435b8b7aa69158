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
 */
public record ReplicaServerSettings(
        String node, String host, int port, Path dir, Duration electionTimeout, Duration requestTimeout) {
    public static final Duration DEFAULT_ELECTION_TIMEOUT = Duration.ofSeconds(1);
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);

    public ReplicaServerSettings {
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
