package org.partita.broker.cluster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.partita.broker.network.connection.RemoteFeed;

/**
 * The other hosting nodes' side of one client consumer of a clustered queue: a consumer opened on
 * each of them over its link ({@link FeedPart}), whose deliveries this node relays to the client.
 * The client's credit goes to every part (so the client may hold up to its prefetch from each node);
 * with a byte window, the room of a delivery the client let go of goes back to the part it came from.
 */
final class ConsumerFeed implements RemoteFeed {
    private final String queue;
    private final String destination;
    private final String selector;
    private final Sink sink;
    private final Runnable onClose;
    private final Map<String, FeedPart> parts = new ConcurrentHashMap<>();
    /** Credit the client granted since its last drain: what a part opened later starts with. */
    private int granted;
    /** Each part's byte window (the client's), 0 for none. */
    private final long windowBytes;

    private Integer priority;
    private boolean closed;
    /** The client consumer closed: no part opens any more; the parts' sessions wait for {@link #close}. */
    private boolean consumersClosed;
    /**
     * Whether this node gives the consumer none of its partitions (null until it has said), told to
     * every part. Under its own lock, never taken with this node's consumer locked: the feed calls
     * into that consumer under the feed's lock.
     */
    private final Object spareLock = new Object();

    private Boolean spare;

    ConsumerFeed(
            String queue,
            String destination,
            String selector,
            int credit,
            long windowBytes,
            Sink sink,
            Runnable onClose) {
        this.queue = queue;
        this.windowBytes = windowBytes;
        this.destination = destination;
        this.selector = selector;
        this.granted = credit;
        this.sink = sink;
        this.onClose = onClose;
    }

    String queue() {
        return queue;
    }

    /** A hosting node is reachable: its part opens with the credit the client has granted. */
    synchronized void peerUp(FeedLink link) {
        if (closed || consumersClosed || parts.containsKey(link.peer())) {
            return;
        }
        FeedPart part = new FeedPart(this, link, sink);
        synchronized (spareLock) {
            parts.put(link.peer(), part);
            part.open(destination, selector, granted, windowBytes, priority);
            if (spare != null) {
                part.spare(spare);
            }
        }
    }

    @Override
    public void spare(boolean now) {
        synchronized (spareLock) {
            if (spare == null || spare != now) {
                spare = now;
                parts.values().forEach(p -> p.spare(now));
            }
        }
    }

    /** A hosting node is gone: what it owned is no longer this consumer's (it redelivers it itself). */
    synchronized void peerDown(String peer) {
        FeedPart part = parts.remove(peer);
        if (part != null) {
            part.lost();
            ownedChanged();
        }
    }

    /**
     * A replica set is led by {@code leader} now (null: an election): the partitions {@code which}
     * of the queue are no longer any other node's, so the client gives back what it prefetched of
     * them from those nodes before the new leader delivers them again, flagged. A node that was
     * paused or cut off cannot say it lost them; the set's other replicas learn it from Ratis.
     */
    synchronized void ledElsewhere(String leader, java.util.function.IntPredicate which) {
        boolean changed = false;
        for (Map.Entry<String, FeedPart> e : parts.entrySet()) {
            if (!e.getKey().equals(leader)) {
                changed |= e.getValue().ledElsewhere(which);
            }
        }
        if (changed) {
            ownedChanged();
        }
    }

    /** The queue's hosts changed: parts on nodes that host none of it any more are closed. */
    synchronized void keepOnly(java.util.Collection<String> hosts) {
        boolean changed = parts.entrySet().removeIf(e -> {
            if (hosts.contains(e.getKey())) {
                return false;
            }
            e.getValue().close();
            return true;
        });
        if (changed) {
            ownedChanged();
        }
    }

    /**
     * The union of what the parts own, told to the client with what this node's queue gives it.
     * Under the feed's lock: two links report changes on their own threads, and a union computed
     * from one part's older set must not reach the client after one computed from its newer set.
     */
    synchronized void ownedChanged() {
        Set<Integer> union = new TreeSet<>();
        for (FeedPart p : parts.values()) {
            union.addAll(p.owned());
        }
        sink.partitionsChanged(union);
    }

    @Override
    public synchronized void credit(int messages) {
        granted += messages;
        parts.values().forEach(p -> p.credit(messages));
    }

    /**
     * Each part that made some of these deliveries may make that many more. Not counted in
     * {@link #granted}: a part opened later has made none of them. A part that closed and opened
     * again since gets none: it started with the window whole.
     */
    @Override
    public synchronized void returned(List<Handle> delivered) {
        Map<FeedPart, Integer> byPart = new java.util.IdentityHashMap<>();
        for (Handle h : delivered) {
            if (h instanceof FeedPart.Delivered d) {
                byPart.merge(d.part(), 1, Integer::sum);
            }
        }
        byPart.forEach((part, n) -> {
            if (parts.get(part.peer()) == part) {
                part.credit(n);
            }
        });
    }

    @Override
    public synchronized CompletableFuture<Void> drain() {
        granted = 0;
        return CompletableFuture.allOf(
                parts.values().stream().map(FeedPart::drain).toArray(CompletableFuture[]::new));
    }

    @Override
    public synchronized void update(Integer priority, Integer capacityMessages, Long capacityBytes) {
        if (priority != null) {
            this.priority = priority;
        }
        parts.values().forEach(p -> p.update(priority, capacityMessages, capacityBytes));
    }

    @Override
    public void holdDeliveries() {
        parts.values().forEach(FeedPart::hold);
    }

    @Override
    public void recover(Collection<Handle> seen) {
        for (FeedPart part : parts.values()) {
            List<Long> ids = new ArrayList<>();
            for (Handle h : seen) {
                if (h instanceof FeedPart.Delivered d && d.part() == part) {
                    ids.add(d.deliveryId());
                }
            }
            part.recover(ids);
        }
    }

    @Override
    public synchronized void closeConsumers() {
        consumersClosed = true;
        parts.values().forEach(FeedPart::closeConsumer);
    }

    @Override
    public synchronized void close() {
        closed = true;
        parts.values().forEach(FeedPart::close);
        parts.clear();
        onClose.run();
    }
}
