package org.partita.broker.network.connection;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.partita.broker.core.Broker;
import org.partita.broker.core.queue.QueueEntry;

/**
 * A client session on this node: the deliveries it has not settled and, when transacted, the
 * sends and consumptions waiting for commit. Deliveries are recorded from queue executors and
 * settled from the connection's event loop, hence the concurrent map.
 */
final class ServerSession {
    private final int id;
    private final boolean transacted;
    private final AtomicLong deliveryIds;
    private final Map<Long, Delivery> deliveries = new ConcurrentHashMap<>();
    private final Map<Integer, ServerConsumer> consumers = new ConcurrentHashMap<>();
    private final List<Broker.PendingSend> txSends = new ArrayList<>();
    private final List<Delivery> txConsumed = new ArrayList<>();
    /** Message bytes of {@link #txSends}, bounded by {@code limits.transactionBytes} and counted in {@code limits.openTransactionBytes}. Event loop only. */
    private long txBytes;
    /** The XA branch this session works in now, or null; set and read on the connection's event loop. */
    private org.partita.broker.core.xa.XaBranch branch;

    ServerSession(int id, boolean transacted, AtomicLong deliveryIds) {
        this.id = id;
        this.transacted = transacted;
        this.deliveryIds = deliveryIds;
    }

    int id() {
        return id;
    }

    boolean transacted() {
        return transacted;
    }

    /** Numbers and records a delivery; atomic with {@link #voidAll} so a recover's fence is exact. */
    synchronized long track(QueueEntry entry, ServerConsumer consumer) {
        long deliveryId = deliveryIds.incrementAndGet();
        deliveries.put(deliveryId, new LocalDelivery(deliveryId, entry, consumer));
        return deliveryId;
    }

    /** Numbers and records a delivery relayed from another node of the cluster. */
    synchronized long track(RemoteFeed.Handle handle, ServerConsumer consumer) {
        long deliveryId = deliveryIds.incrementAndGet();
        deliveries.put(deliveryId, new RemoteDelivery(deliveryId, handle, consumer));
        return deliveryId;
    }

    /** Takes every unsettled delivery out of the session; returns the fence (all ids up to it are void). */
    synchronized long voidAll(List<Delivery> into) {
        into.addAll(drainDeliveries());
        return deliveryIds.get();
    }

    /**
     * Feeds of consumers that closed while the session may still settle what came through them (see
     * {@link RemoteFeed#closeConsumers}); each ends once nothing of the session depends on it.
     * Event loop only.
     */
    private final List<RemoteFeed> closedFeeds = new ArrayList<>();
    /** Once in an XA branch, a branch's work may settle other nodes' messages after it ended: feeds then end with the session. */
    private boolean everInBranch;

    /** {@code feed}'s consumer closed: its sessions on the other nodes end once nothing here depends on them. */
    void closeWithSession(RemoteFeed feed) {
        closedFeeds.add(feed);
        closeIdleFeeds();
    }

    boolean hasClosedFeeds() {
        return !closedFeeds.isEmpty();
    }

    /** Ends the feeds of closed consumers from which the session holds nothing unsettled any more. */
    void closeIdleFeeds() {
        if (!hasClosedFeeds() || everInBranch) {
            return;
        }
        java.util.Set<RemoteFeed> inUse = new java.util.HashSet<>();
        for (Delivery d : deliveries.values()) {
            if (d instanceof RemoteDelivery r) {
                inUse.add(r.handle().feed());
            }
        }
        for (Delivery d : txConsumed) {
            if (d instanceof RemoteDelivery r) {
                inUse.add(r.handle().feed());
            }
        }
        closedFeeds.removeIf(f -> {
            if (inUse.contains(f)) {
                return false;
            }
            f.close();
            return true;
        });
    }

    /** The session ended and what it held was handed back: the other nodes' sessions end too. */
    void closeFeeds() {
        closedFeeds.forEach(RemoteFeed::close);
        closedFeeds.clear();
    }

    /** The unsettled delivery, left in place, or null if this session does not hold it. */
    Delivery delivered(long deliveryId) {
        return deliveries.get(deliveryId);
    }

    /** Removes and returns the delivery, or null if this session does not hold it. */
    Delivery settle(long deliveryId) {
        return deliveries.remove(deliveryId);
    }

    Map<Integer, ServerConsumer> consumers() {
        return consumers;
    }

    org.partita.broker.core.xa.XaBranch branch() {
        return branch;
    }

    void branch(org.partita.broker.core.xa.XaBranch b) {
        branch = b;
        everInBranch |= b != null;
    }

    List<Broker.PendingSend> txSends() {
        return txSends;
    }

    List<Delivery> txConsumed() {
        return txConsumed;
    }

    /** Everything still delivered and unsettled, removed from the session. */
    List<Delivery> drainDeliveries() {
        List<Delivery> all = new ArrayList<>(deliveries.values());
        all.forEach(d -> deliveries.remove(d.id()));
        return all;
    }

    long txBytes() {
        return txBytes;
    }

    void addTxBytes(long bytes) {
        txBytes += bytes;
    }

    /** Forgets the transaction's bytes; returns them, for the node-wide count of open transactions. */
    long clearTxBytes() {
        long was = txBytes;
        txBytes = 0;
        return was;
    }
}
