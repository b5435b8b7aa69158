package org.partita.broker.store.replica;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;

/**
 * The nodes that keep the same partitions, one Raft group of them: a write is confirmed once a
 * majority of them holds it. The group's id is derived from the name, so every node that is told
 * the same set (by an agreed queue definition) computes the same group without asking anyone.
 *
 * @param name     unique in the cluster, e.g. {@code orders/2}
 * @param replicas the nodes, each once, at least one
 * @param preferredLeader the node that should lead while it is up (Raft priority), or null for any
 */
public record ReplicaSet(String name, List<ReplicaPeer> replicas, String preferredLeader) {
    public ReplicaSet {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a replica set needs a name");
        }
        replicas = List.copyOf(replicas);
        if (replicas.isEmpty()) {
            throw new IllegalArgumentException("replica set '" + name + "' has no replica");
        }
        if (replicas.stream().map(ReplicaPeer::node).distinct().count() != replicas.size()) {
            throw new IllegalArgumentException("replica set '" + name + "' names a node twice: " + replicas);
        }
        if (preferredLeader != null && replicas.stream().noneMatch(r -> r.node().equals(preferredLeader))) {
            throw new IllegalArgumentException(
                    "replica set '" + name + "': preferred leader " + preferredLeader + " is not one of its replicas");
        }
    }

    RaftGroupId groupId() {
        return groupIdOf(name);
    }

    static RaftGroupId groupIdOf(String name) {
        return RaftGroupId.valueOf(
                UUID.nameUUIDFromBytes(("partita-replica-set/" + name).getBytes(StandardCharsets.UTF_8)));
    }

    RaftGroup group() {
        return RaftGroup.valueOf(
                groupId(),
                replicas.stream()
                        .map(r -> r.peer(r.node().equals(preferredLeader) ? 1 : 0))
                        .toList());
    }

    /** How many replicas must hold a write before it is confirmed. */
    public int majority() {
        return replicas.size() / 2 + 1;
    }

    /** One replica: a node's name and the address of its replica server. */
    public record ReplicaPeer(String node, String host, int port) {
        RaftPeer peer(int priority) {
            return RaftPeer.newBuilder()
                    .setId(node)
                    .setAddress(host + ":" + port)
                    .setPriority(priority)
                    .build();
        }
    }
}
