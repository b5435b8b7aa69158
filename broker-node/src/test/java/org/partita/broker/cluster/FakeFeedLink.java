package org.partita.broker.cluster;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A node link as feed parts use it, without a connection: the test takes it down, links it again
 * (to the node restarted, a new connection) and plays what that node sends back to the consumer a
 * part registered, as {@link PeerLink} routes it.
 */
final class FakeFeedLink implements FeedLink {
    private final String peer;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, PeerLink.Receiver> receivers = new ConcurrentHashMap<>();
    private volatile FakeFeedConnection connection = new FakeFeedConnection();

    FakeFeedLink(String peer) {
        this.peer = peer;
    }

    @Override
    public String peer() {
        return peer;
    }

    @Override
    public FeedConnection feedConnection() {
        return connection;
    }

    /** The current connection, for the test to read and answer its requests; null while down. */
    FakeFeedConnection connection() {
        return connection;
    }

    void down() {
        connection = null;
    }

    /** Linked again to that node after it restarted: a connection that knows nothing of earlier sessions. */
    FakeFeedConnection relink() {
        connection = new FakeFeedConnection();
        return connection;
    }

    @Override
    public int nextId() {
        return ids.incrementAndGet();
    }

    @Override
    public void register(int consumerId, PeerLink.Receiver receiver) {
        receivers.put(consumerId, receiver);
    }

    @Override
    public void unregister(int consumerId) {
        receivers.remove(consumerId);
    }

    Set<Integer> registered() {
        return Set.copyOf(receivers.keySet());
    }

    /** That node delivers to every consumer registered here; the message reads {@code <peer>:<deliveryId>}. */
    void deliver(long deliveryId) {
        byte[] message = (peer + ":" + deliveryId).getBytes(StandardCharsets.UTF_8);
        receivers.values().forEach(r -> r.delivered(deliveryId, 0, 0, message));
    }

    /** That node tells every consumer registered here the partitions it now owns there. */
    void owns(int... partitions) {
        receivers.values().forEach(r -> r.partitions(partitions));
    }
}
