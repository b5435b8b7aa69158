package org.partita.broker.cluster;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * What this node knows of the room other nodes have for a clustered queue's unkeyed overflow. A node
 * learns that another's partitions of a queue are full when that node refuses a forwarded message
 * as full, and that they have room again when a forward to it succeeds (the refused message stays
 * first in the forward log and is tried again until it does). So a send meets every node full, and
 * fails, from the first refusal on; the messages already on their way when the other node filled up
 * wait in the forward log until it has room. What is known lapses after a while, in case no
 * forward clears it (the log was deleted with its queue).
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
