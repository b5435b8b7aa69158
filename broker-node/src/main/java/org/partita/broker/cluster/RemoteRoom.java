package org.partita.broker.cluster;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * What this node knows of the room other nodes have for a clustered queue's unkeyed overflow, from
 * their last answers: a node is known full once it refused a forwarded message as full (directly,
 * {@link DirectOverflow}, or from a forward log), and to have room again once it stored one. Only
 * a transaction's sends are routed by it (they are stored with the transaction, in a forward log,
 * before any node answers); a send on its own asks the nodes themselves. What is known lapses
 * after a while, in case no forward clears it.
 */
final class RemoteRoom {
    private static final long FORGET_NANOS = TimeUnit.SECONDS.toNanos(10);
    private final Map<String, Long> fullSince = new ConcurrentHashMap<>();

    void full(String peer, String queue) {
        fullSince.put(key(peer, queue), System.nanoTime());
    }

    void room(String peer, String queue) {
        fullSince.remove(key(peer, queue));
    }

    boolean hasRoom(String peer, String queue) {
        Long since = fullSince.get(key(peer, queue));
        if (since == null) {
            return true;
        }
        if (System.nanoTime() - since > FORGET_NANOS) {
            fullSince.remove(key(peer, queue), since);
            return true;
        }
        return false;
    }

    private static String key(String peer, String queue) {
        return peer + '\u0000' + queue;
    }
}
