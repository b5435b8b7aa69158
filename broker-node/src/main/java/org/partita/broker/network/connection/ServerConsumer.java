package org.partita.broker.network.connection;

import io.netty.channel.Channel;
import org.partita.broker.core.dispatch.ConsumerRef;
import org.partita.broker.core.dispatch.DeliverySink;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.core.queue.QueueEntry;
import org.partita.broker.core.topic.Subscription;
import org.partita.broker.core.topic.Subscriptions;
import org.partita.broker.network.flow.InOrderWrites;
import org.partita.protocol.Frame;

/**
 * A client's consumer on this node: bridges its queue's dispatch to Deliver frames. For a queue
 * spread over the cluster it also relays what the other hosting nodes deliver to it (its
 * {@link RemoteFeed}), and tells the client the union of the partitions it owns on every node.
 */
final class ServerConsumer implements DeliverySink, RemoteFeed.Sink {
    private final int id;
    private final ServerSession session;
    private final BrokerQueue queue;
    private final Channel channel;
    private final Subscription subscription;
    private final Subscriptions subscriptions;
    private ConsumerRef ref;
    private volatile RemoteFeed feed;
    private volatile boolean closed;
    /**
     * Taken by {@link #close} and around each delivery's check of {@link #closed} and its record in
     * the session. Deliveries come on the queue's thread while the connection's thread may close the
     * consumer and then empty the session: under one lock with the close, a delivery is either in
     * the session before it is emptied, or not made (handed back unseen).
     */
    private final Object closing = new Object();
    /** Partitions owned here and on the other nodes; the client is told their union. */
    private java.util.Set<Integer> ownedHere = java.util.Set.of();

    private java.util.Set<Integer> ownedThere = java.util.Set.of();
    private java.util.Set<Integer> told = java.util.Set.of();
    /**
     * With a byte window: what was sent and not given back, to tell each source what came back
     * (null without a window: credit then goes to every source, as a client before version 5 gives
     * it). Guards the ledger's order and the writes' order together.
     */
    private final PrefetchLedger ledger;

    /** @param subscription the topic subscription consumed, or null for a queue */
    ServerConsumer(
            int id,
            ServerSession session,
            BrokerQueue queue,
            Channel channel,
            Subscription subscription,
            Subscriptions subscriptions,
            boolean windowed) {
        this.ledger = windowed ? new PrefetchLedger() : null;
        this.id = id;
        this.session = session;
        this.queue = queue;
        this.channel = channel;
        this.subscription = subscription;
        this.subscriptions = subscriptions;
    }

    void bind(ConsumerRef ref) {
        this.ref = ref;
    }

    int id() {
        return id;
    }

    ServerSession session() {
        return session;
    }

    BrokerQueue queue() {
        return queue;
    }

    ConsumerRef ref() {
        return ref;
    }

    void feed(RemoteFeed f) {
        this.feed = f;
    }

    /** The other nodes' part of this consumer, or null when its queue is not spread over the cluster. */
    RemoteFeed feed() {
        return feed;
    }

    /**
     * The client granted credit. With a byte window it gave back the room of that many deliveries:
     * each goes back to where it came from, with its bytes; credit beyond them (the window granted
     * again) goes here and to every node of the feed, as all credit does without a window.
     */
    void credit(int messages) {
        if (ledger == null) {
            grant(messages);
            return;
        }
        PrefetchLedger.Returned r;
        synchronized (ledger) {
            r = ledger.take(messages);
        }
        if (r.localMessages() > 0 || r.beyond() > 0) {
            queue.creditReturned(ref, r.localMessages() + r.beyond(), r.localBytes());
        }
        RemoteFeed f = feed;
        if (f != null) {
            if (!r.remote().isEmpty()) {
                f.returned(r.remote());
            }
            if (r.beyond() > 0) {
                f.credit(r.beyond());
            }
        }
    }

    private void grant(int messages) {
        queue.credit(ref, messages);
        RemoteFeed f = feed;
        if (f != null) {
            f.credit(messages);
        }
    }

    /** Stops this node's deliveries to it; completes once every delivery made so far is in its session. */
    java.util.concurrent.CompletableFuture<Void> hold() {
        return queue.hold(ref);
    }

    void resume() {
        queue.resume(ref);
    }

    /**
     * Takes the credit back here and on every node of the feed; once nothing it allowed can still
     * come, the ledger starts afresh (the client grants its whole window again after a drain).
     */
    java.util.concurrent.CompletableFuture<Void> drain() {
        java.util.concurrent.CompletableFuture<Void> here = queue.drain(ref);
        RemoteFeed f = feed;
        java.util.concurrent.CompletableFuture<Void> all =
                f == null ? here : java.util.concurrent.CompletableFuture.allOf(here, f.drain());
        return ledger == null
                ? all
                : all.thenRun(() -> {
                    synchronized (ledger) {
                        ledger.clear();
                    }
                });
    }

    java.util.concurrent.CompletableFuture<Void> update(
            Integer priority, Integer capacityMessages, Long capacityBytes) {
        RemoteFeed f = feed;
        if (f != null && (priority != null || capacityMessages != null || capacityBytes != null)) {
            f.update(priority, capacityMessages, capacityBytes);
        }
        return queue.update(ref, priority, capacityMessages, capacityBytes);
    }

    /** Another node says whether it gives this (relayed) consumer none of its own partitions. */
    java.util.concurrent.CompletableFuture<Void> spare(boolean spare) {
        return queue.spare(ref, spare);
    }

    /**
     * Stops deliveries: the queue forgets the consumer, and anything dispatched meanwhile goes back.
     * Once this returns, no delivery is recorded in the session any more ({@link #closing}), so the
     * session's end hands back every delivery it holds; none comes in behind it to stay in flight.
     */
    void close() {
        synchronized (closing) {
            closed = true;
        }
        RemoteFeed f = feed;
        if (f != null) {
            f.closeConsumers();
            session.closeWithSession(f);
        }
        queue.detach(ref);
        if (subscription != null) {
            subscriptions.consumerClosed(subscription);
        }
    }

    @Override
    public void partitionsChanged(ConsumerRef consumer, int[] owned) {
        java.util.Set<Integer> s = new java.util.TreeSet<>();
        for (int p : owned) {
            s.add(p);
        }
        synchronized (this) {
            ownedHere = s;
            tellOwned();
        }
        RemoteFeed f = feed;
        if (f != null) {
            f.spare(owned.length == 0); // outside this lock: the feed calls back into it under its own
        }
    }

    @Override
    public void partitionsChanged(java.util.Set<Integer> owned) {
        synchronized (this) {
            ownedThere = java.util.Set.copyOf(owned);
            tellOwned();
        }
    }

    /** Under this object's lock, so that two nodes' changes reach the client in the order they were made. */
    private void tellOwned() {
        java.util.Set<Integer> union = new java.util.TreeSet<>(ownedHere);
        union.addAll(ownedThere);
        if (!closed && !union.equals(told)) {
            told = union;
            write(new Frame.Partitions(
                    id, union.stream().mapToInt(Integer::intValue).toArray()));
        }
    }

    @Override
    public void deliver(RemoteFeed.Handle handle, int deliveryCount, int partition, byte[] message) {
        long deliveryId;
        synchronized (closing) {
            deliveryId = closed ? -1 : session.track(handle, this);
        }
        if (deliveryId < 0) {
            handle.release(false);
            return;
        }
        send(handle, new Frame.Deliver(id, deliveryId, deliveryCount, partition, message));
    }

    @Override
    public void deliver(ConsumerRef consumer, QueueEntry entry, int partition) {
        long deliveryId;
        synchronized (closing) {
            deliveryId = closed ? -1 : session.track(entry, this);
        }
        if (deliveryId < 0) {
            queue.release(entry, consumer, false);
            return;
        }
        send(
                PrefetchLedger.LOCAL,
                new Frame.Deliver(
                        id,
                        deliveryId,
                        entry.deliveryCount(),
                        partition,
                        entry.message().encoded()));
    }

    /** Writes a delivery, noted in the ledger in the order the client receives them. */
    private void send(Object source, Frame.Deliver d) {
        if (ledger == null) {
            write(d);
            return;
        }
        synchronized (ledger) {
            ledger.add(source, d.message().length);
            write(d);
        }
    }

    /** In the order of these calls, whichever thread makes them: see {@link InOrderWrites}. */
    private void write(Frame frame) {
        InOrderWrites.writeAndFlush(channel, frame);
    }
}
