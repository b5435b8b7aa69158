package org.partita.broker.cluster;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.partita.protocol.ErrorCode;

/**
 * The way from this node to whichever node leads a replica set now, for the forward log of a
 * replicated queue's partitions ({@code $forward:<set>:<queue>}): the log is kept per set, not per
 * node, so what waits in it goes to the set's next leader when its leader is lost, in the order it
 * was taken. A replica of the set knows the leader from Ratis; a node outside the set tries the
 * set's nodes in turn, from the preferred leader on, and moves to the next one each time a node
 * answers that it does not serve the partition.
 */
final class SetLeaderLink implements Forwarder.Link {
    /** Stores a message in this node's own queue, when this node serves the set. */
    interface Here {
        CompletableFuture<Void> store(String queue, int deliveryCount, byte[] message);
    }

    private final String set;
    private final List<String> replicas;
    private final String self;
    private final Function<String, PeerLink> links;
    private final ReplicatedPartitions sets;
    private final Here here;
    private volatile String candidate;

    SetLeaderLink(String set, String self, Function<String, PeerLink> links, ReplicatedPartitions sets, Here here) {
        this.set = set;
        this.replicas = List.of(set.split("\\+"));
        this.self = self;
        this.links = links;
        this.sets = sets;
        this.here = here;
        this.candidate = replicas.get(0);
    }

    /** The set's nodes, its preferred leader first. */
    List<String> replicas() {
        return replicas;
    }

    /** The set's name: a forwarder's peer is where its log goes. */
    @Override
    public String peer() {
        return set;
    }

    @Override
    public boolean isUp() {
        return target() != null;
    }

    /** The node to send to now: the leader as Ratis says here, else the candidate, else the next node reachable. */
    private String target() {
        String known = sets.leader(set);
        if (known != null && reachable(known)) {
            candidate = known;
            return known;
        }
        String c = candidate;
        if (reachable(c)) {
            return c;
        }
        for (int i = 1; i <= replicas.size(); i++) {
            String next = replicas.get((replicas.indexOf(c) + i) % replicas.size());
            if (reachable(next)) {
                candidate = next;
                return next;
            }
        }
        return null;
    }

    private boolean reachable(String node) {
        if (node.equals(self)) {
            return sets.serves(set);
        }
        PeerLink link = links.apply(node);
        return link != null && link.isUp();
    }

    @Override
    public CompletableFuture<Void> forward(String queue, int deliveryCount, byte[] message) {
        String to = target();
        if (to == null) {
            return null;
        }
        CompletableFuture<Void> sent = to.equals(self)
                ? here.store(queue, deliveryCount, message)
                : links.apply(to).forward(queue, deliveryCount, message);
        if (sent == null) {
            return null;
        }
        return sent.whenComplete((v, t) -> {
            if (t != null && DirectOverflow.answered(t) == ErrorCode.UNKNOWN_DESTINATION && to.equals(candidate)) {
                // that node does not serve the partition (any more): the next one may
                candidate = replicas.get((replicas.indexOf(to) + 1) % replicas.size());
            }
        });
    }
}
