package org.partita.broker.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.partita.broker.network.connection.RemoteFeed;
import org.partita.jms.transport.BrokerConnection;

/**
 * The consumer one client consumer has on one other hosting node, over the link: its own session
 * there, so that a recover can be fenced there as a client's is here. Deliveries still on the wire
 * when the client recovers are held until that node's fence is known, then the voided ones dropped.
 */
final class FeedPart implements PeerLink.Receiver {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(FeedPart.class);
    private final ConsumerFeed feed;
    private final FeedLink link;
    private final RemoteFeed.Sink sink;
    private FeedConnection connection;
    private int sessionId;
    private int consumerId;
    private volatile Set<Integer> owned = Set.of();
    private boolean consumerClosed;
    /**
     * Recovers under way: the client may recover again before that node answered the last one, and
     * what it delivers in between is void by the later recover there, so it is held until the last
     * answer is in.
     */
    private int holding;
    /** Held by a recover whose request has not gone to that node yet. */
    private boolean heldForNextRecover;

    private long voidUpTo;
    private final List<Object[]> held = new ArrayList<>();
    /**
     * The last recover asked there, answered or not: the next is asked only once it is answered.
     * That node does not keep two recovers of one session in order (each waits for its queues to
     * stop delivering first, and one may then run at once while the other waits its turn on the
     * event loop). A later recover run first, its seen list without the client's earlier
     * deliveries, would hand those back unseen, and they would come again unflagged.
     */
    private CompletableFuture<?> lastAsked = CompletableFuture.completedFuture(null);

    /** A delivery relayed from this part's node. */
    record Delivered(FeedPart part, FeedConnection connection, long deliveryId) implements RemoteFeed.Handle {
        @Override
        public CompletableFuture<Void> ack() {
            return part.live(connection)
                    ? connection.ack(part.sessionId, new long[] {deliveryId}, true)
                    : CompletableFuture.completedFuture(null); // its node restarted: it redelivers the message itself
        }

        @Override
        public void release(boolean seen) {
            if (part.live(connection)) {
                long[] one = {deliveryId};
                connection.release(part.sessionId, seen ? one : new long[0], seen ? new long[0] : one);
            }
        }

        @Override
        public RemoteFeed feed() {
            return part.feed;
        }
    }

    FeedPart(ConsumerFeed feed, FeedLink link, RemoteFeed.Sink sink) {
        this.feed = feed;
        this.link = link;
        this.sink = sink;
    }

    /** The node this part's consumer is on. */
    String peer() {
        return link.peer();
    }

    synchronized void open(String destination, String selector, int credit, long windowBytes, Integer priority) {
        FeedConnection c = link.feedConnection();
        if (c == null) {
            return;
        }
        connection = c;
        sessionId = link.nextId();
        consumerId = link.nextId();
        link.register(consumerId, this);
        String name = priority == null ? destination : withPriority(destination, priority);
        c.openSession(sessionId, false);
        c.openConsumer(new BrokerConnection.ConsumerSpec(
                        sessionId, consumerId, name, selector, null, 0, credit, windowBytes))
                .whenComplete((v, t) -> {
                    if (t != null) {
                        LOG.warn(
                                "node {} refused the consumer of {} this node opened for a client: {}",
                                link.peer(),
                                destination,
                                t.getMessage());
                    }
                });
    }

    /** The consumer's current priority replaces the one its name gave. */
    private static String withPriority(String destination, int priority) {
        int q = destination.indexOf('?');
        String base = q < 0 ? destination : destination.substring(0, q);
        StringBuilder options = new StringBuilder();
        if (q >= 0) {
            for (String pair : destination.substring(q + 1).split("&")) {
                if (!pair.startsWith("priority=") && !pair.isEmpty()) {
                    options.append(options.length() == 0 ? "" : "&").append(pair);
                }
            }
        }
        options.append(options.length() == 0 ? "" : "&").append("priority=").append(priority);
        return base + "?" + options;
    }

    private boolean live(FeedConnection c) {
        return c != null && c.equals(link.feedConnection());
    }

    Set<Integer> owned() {
        return owned;
    }

    /** Under this part's lock, so that deliveries released after a recover keep their order with new ones. */
    @Override
    public synchronized void delivered(long deliveryId, int deliveryCount, int partition, byte[] message) {
        if (deliveryId <= voidUpTo) {
            credit(1); // voided by a recover that node already processed: its room goes back there
            return;
        }
        if (holding > 0) {
            held.add(new Object[] {deliveryId, deliveryCount, partition, message});
            return;
        }
        sink.deliver(new Delivered(this, connection, deliveryId), deliveryCount, partition, message);
    }

    @Override
    public void partitions(int[] now) {
        Set<Integer> s = new TreeSet<>();
        for (int p : now) {
            s.add(p);
        }
        owned = s;
        feed.ownedChanged();
    }

    /**
     * The partitions {@code which} are led by another node now (a replica set's leadership moved):
     * this part's node no longer serves them, whether or not it could say so (paused, cut off).
     * Returns whether it owned any of them.
     */
    boolean ledElsewhere(java.util.function.IntPredicate which) {
        Set<Integer> before = owned;
        Set<Integer> after = new TreeSet<>(before);
        after.removeIf(which::test);
        if (after.size() == before.size()) {
            return false;
        }
        owned = after;
        return true;
    }

    void credit(int n) {
        FeedConnection c = connection;
        if (live(c) && n > 0) {
            c.credit(consumerId, n);
        }
    }

    CompletableFuture<Void> drain() {
        FeedConnection c = connection;
        return live(c) ? c.drain(consumerId).exceptionally(t -> null) : CompletableFuture.completedFuture(null);
    }

    void update(Integer priority, Integer capacityMessages, Long capacityBytes) {
        FeedConnection c = connection;
        if (live(c)) {
            c.updateConsumer(consumerId, priority, capacityMessages, capacityBytes);
        }
    }

    /** Tells that node whether this node gives the consumer none of its own partitions. */
    void spare(boolean spare) {
        FeedConnection c = connection;
        if (live(c)) {
            c.spare(consumerId, spare).exceptionally(t -> null); // a lost link: the next part says it again
        }
    }

    synchronized void hold() {
        holding++;
        heldForNextRecover = true;
    }

    /** Gives back what this node delivered, {@code seen} redelivered, then lets later deliveries through. */
    void recover(List<Long> seen) {
        synchronized (this) {
            if (!heldForNextRecover) {
                holding++; // a part that joined after the hold: held now, until this recover's answer
            }
            heldForNextRecover = false;
        }
        FeedConnection c = connection;
        if (!live(c)) {
            release(Long.MAX_VALUE);
            return;
        }
        long[] ids = seen.stream().mapToLong(Long::longValue).toArray();
        CompletableFuture<Long> answer;
        synchronized (this) {
            answer = lastAsked
                    .handle((v, t) -> null) // asked after the one before, whether it failed or not
                    .thenCompose(v -> live(c)
                            ? c.recover(sessionId, ids)
                            : CompletableFuture.completedFuture(Long.MAX_VALUE)); // link lost meanwhile
            lastAsked = answer;
        }
        answer.whenComplete((fence, t) -> release(t == null ? fence : Long.MAX_VALUE));
    }

    private synchronized void release(long fence) {
        voidUpTo = Math.max(voidUpTo, fence);
        holding--;
        if (holding > 0) {
            return; // a later recover is on its way there: it may void what is held
        }
        int voided = 0;
        for (Object[] d : held) {
            if ((long) d[0] > voidUpTo) {
                sink.deliver(new Delivered(this, connection, (long) d[0]), (int) d[1], (int) d[2], (byte[]) d[3]);
            } else {
                voided++;
            }
        }
        held.clear();
        credit(voided); // what a recover voided never reaches the client, which would give its room back
    }

    /** Its node is gone: it takes back what it delivered by itself (the link's session ended there). */
    void lost() {
        owned = Set.of();
        link.unregister(consumerId);
    }

    /**
     * Closes the consumer there and keeps its session: what it delivered and the client's application
     * received is settled through it later. It stays registered, so a delivery that crossed the close
     * is handed back unseen by the closed client consumer.
     */
    synchronized void closeConsumer() {
        if (consumerClosed) {
            return;
        }
        consumerClosed = true;
        FeedConnection c = connection;
        if (live(c)) {
            c.closeConsumer(consumerId);
        }
        owned = Set.of();
    }

    void close() {
        closeConsumer();
        link.unregister(consumerId);
        FeedConnection c = connection;
        if (live(c)) {
            c.closeSession(sessionId);
        }
    }
}
