package org.partita.broker.cluster;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.partita.broker.core.dispatch.ConsumerRef;
import org.partita.broker.core.dispatch.DeliverySink;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.core.queue.QueueEntry;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.selector.Selector;

/**
 * Moves the messages this node took for one clustered queue's partitions on another node to that
 * node: the store-and-forward log is a durable queue of this node ({@code $forward:<node>:<queue>}),
 * and the forwarder is its consumer while the link is up. A message leaves the log only once the
 * other node has stored it. A key has one message on its way at a time, so a failed or interrupted
 * forward is retried before the key's next one: the key's order holds across nodes. While the other
 * node is down the log fills and waits; when it returns, the log drains in order.
 */
final class Forwarder implements DeliverySink {
    /** Messages on their way at once (over all keys). */
    static final int WINDOW = 256;

    private static final long RETRY_MILLIS = 500;

    /**
     * The link to the other node, as the forwarder uses it: {@link PeerLink} on a node, an interface
     * so that a unit test can stand in for the other node ({@code ForwarderTest}).
     */
    interface Link {
        String peer();

        boolean isUp();

        /**
         * Sends a message to the other node's {@code queue}; done once that node stored it. Null,
         * sending nothing, while the link is down.
         */
        CompletableFuture<Void> forward(String queue, int deliveryCount, byte[] message);
    }

    private final BrokerQueue log;
    private final String queue;
    private final Link link;
    private final ScheduledExecutorService timer;
    private final RemoteRoom room;
    private ConsumerRef ref;
    /** Commits waiting for their messages in this log to be stored on the other side, by message. */
    private final java.util.Map<org.partita.broker.core.queue.MessageRef, CompletableFuture<Void>> watched =
            java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());

    Forwarder(BrokerQueue log, String queue, Link link, ScheduledExecutorService timer, RemoteRoom room) {
        this.log = log;
        this.queue = queue;
        this.link = link;
        this.timer = timer;
        this.room = room;
    }

    static String logName(String peer, String queue) {
        return org.partita.broker.core.Broker.FORWARD_LOG_PREFIX + peer + ":" + queue;
    }

    BrokerQueue log() {
        return log;
    }

    /** The clustered queue whose messages this log holds. */
    String queue() {
        return queue;
    }

    String peer() {
        return link.peer();
    }

    /**
     * Completes once {@code message}, about to be stored in this log, was stored on the other side;
     * forgotten if it is completed or cancelled otherwise (a bound, a failed commit).
     */
    CompletableFuture<Void> reached(org.partita.broker.core.queue.MessageRef message) {
        CompletableFuture<Void> reached = new CompletableFuture<>();
        watched.put(message, reached);
        reached.whenComplete((v, t) -> watched.remove(message, reached));
        return reached;
    }

    /** The link came up: forwarding starts. */
    synchronized void start() {
        if (ref == null && link.isUp()) {
            ref = new ConsumerRef("forwarder of " + queue + " to " + link.peer(), this, Selector.matchAll(), WINDOW, 0);
            ref.onePerKey();
            log.attach(ref);
        }
    }

    /** The link went down, or the other node refused: forwarding stops (what is on its way comes back). */
    synchronized void stop() {
        if (ref != null) {
            log.detach(ref);
            ref = null;
        }
    }

    @Override
    public void deliver(ConsumerRef consumer, QueueEntry entry, int partition) {
        // The count includes this delivery to the forwarder, which no application saw: a first forward
        // carries 0, so the message arrives unflagged; one sent again after a forward whose outcome is
        // unknown carries more, and arrives flagged.
        CompletableFuture<Void> sent =
                link.forward(queue, entry.deliveryCount() - 1, entry.message().encoded());
        if (sent == null) {
            giveBack(consumer, entry, false);
            return;
        }
        sent.whenComplete((v, t) -> {
            if (t == null) {
                room.room(link.peer(), queue);
                log.ack(entry, consumer);
                CompletableFuture<Void> waiting = watched.get(entry.message());
                if (waiting != null) {
                    waiting.complete(null);
                }
                synchronized (this) {
                    if (ref == consumer) {
                        log.credit(consumer, 1); // not once paused: see giveBack
                    }
                }
            } else {
                if (isFull(t)) {
                    room.full(link.peer(), queue);
                }
                giveBack(consumer, entry, !DirectOverflow.refusedBeforeStoring(t));
            }
        });
    }

    private static boolean isFull(Throwable t) {
        return DirectOverflow.answered(t) == ErrorCode.RESOURCE_EXHAUSTED;
    }

    /**
     * Back into the log, in its place, {@code maybeStored} counted as a delivery; forwarding pauses a
     * moment so that a full or restarting node is not hammered.
     */
    private void giveBack(ConsumerRef consumer, QueueEntry entry, boolean maybeStored) {
        synchronized (this) {
            if (ref != consumer) {
                log.release(entry, consumer, maybeStored);
                return; // already paused
            }
            // The released entry makes its key's next message eligible: the forwarder takes nothing
            // more before it is detached, or that next message would be forwarded ahead of it.
            log.drain(consumer);
            log.release(entry, consumer, maybeStored);
            stop();
        }
        timer.schedule(this::start, RETRY_MILLIS, TimeUnit.MILLISECONDS);
    }
}
