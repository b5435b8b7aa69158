package org.partita.broker.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.core.queue.MessageRef;
import org.partita.broker.core.queue.QueueFullException;
import org.partita.jms.transport.BrokerError;
import org.partita.protocol.ErrorCode;

/**
 * Hands an unkeyed message of a clustered queue that this node has no room for straight to another
 * node hosting the queue, over the link (a FORWARD and its answer), instead of storing it in a
 * store-and-forward log first: the sender's send is confirmed once a node with room stored it, and
 * refused, with nothing stored anywhere, when every node reached refused it as full. The nodes are
 * tried one after the other, in the order of the message's partition turn.
 *
 * <p>A forward whose outcome is unknown (the link failed before the node answered, or a fault
 * there) cannot be refused to the sender, as the node may have stored it: the message then goes to
 * that node's forward log, as for a node that is down, flagged as possibly sent before so the node
 * takes it once. A node that answered that the queue is not defined there yet did not store it: it
 * goes to that node's log unflagged.
 *
 * <p>While such a message is on its way the queue counts as not {@linkplain #idle forwarded}, so a
 * change of its layout waits for it like for a message in a log.
 */
final class DirectOverflow {
    /** Where this node stores a message that was not refused but not stored elsewhere either. */
    interface Stores {
        /** In the forward log for {@code peer}, for a forward that did not end in a store or a refusal. */
        CompletableFuture<Void> log(String peer, BrokerQueue queue, MessageRef message, int deliveryCount);

        /**
         * In this node's own partitions, which had no room when the message was sent but may have now
         * that every other node refused it; throws {@link QueueFullException} if they still have none.
         */
        CompletableFuture<Void> here(BrokerQueue queue, MessageRef message);
    }

    private final Function<String, PeerLink> links;
    private final RemoteRoom room;
    private final Stores stores;
    private final Map<String, AtomicInteger> onTheirWay = new ConcurrentHashMap<>();

    DirectOverflow(Function<String, PeerLink> links, RemoteRoom room, Stores stores) {
        this.links = links;
        this.room = room;
        this.stores = stores;
    }

    /**
     * Counts a send of {@code queue} as on its way; the caller checks after this whether the queue's
     * sends are held (then {@link #abandon}s it), so that a change of layout sees one or the other.
     */
    void begin(String queue) {
        onTheirWay.computeIfAbsent(queue, k -> new AtomicInteger()).incrementAndGet();
    }

    /** A send {@link #begin}-counted that does not go this way after all. */
    void abandon(String queue) {
        onTheirWay.get(queue).decrementAndGet();
    }

    /** No send of the queue is on its way directly to another node. */
    boolean idle(String queue) {
        AtomicInteger n = onTheirWay.get(queue);
        return n == null || n.get() == 0;
    }

    /**
     * Forwards a {@link #begin}-counted message to {@code peers} in turn until one stores it.
     *
     * @param peers the other nodes hosting the queue that are up, in the message's turn order (not empty)
     */
    CompletableFuture<Void> send(BrokerQueue queue, MessageRef message, List<String> peers, boolean hostedHere) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        done.whenComplete((v, t) -> abandon(queue.name()));
        attempt(new Attempt(queue, message, peers, hostedHere, new ArrayList<>(), done), 0);
        return done;
    }

    /** One message's way through the nodes. */
    private record Attempt(
            BrokerQueue queue,
            MessageRef message,
            List<String> peers,
            boolean hostedHere,
            List<String> refused,
            CompletableFuture<Void> done) {
        void completeWith(CompletableFuture<Void> stored) {
            stored.whenComplete((v, t) -> {
                if (t != null) {
                    done.completeExceptionally(t);
                } else {
                    done.complete(null);
                }
            });
        }
    }

    private void attempt(Attempt a, int from) {
        BrokerQueue queue = a.queue();
        List<String> peers = a.peers();
        for (int i = from; i < peers.size(); i++) {
            String peer = peers.get(i);
            PeerLink link = links.apply(peer);
            CompletableFuture<Void> sent = link == null
                    ? null
                    : link.forward(queue.name(), 0, a.message().encoded());
            if (sent == null) {
                continue; // went down since: nothing was sent to it
            }
            int next = i + 1;
            sent.whenComplete((v, t) -> {
                if (t == null) {
                    room.room(peer, queue.name());
                    a.done().complete(null);
                } else if (answered(t) == ErrorCode.RESOURCE_EXHAUSTED) {
                    room.full(peer, queue.name());
                    a.refused().add(peer);
                    attempt(a, next);
                } else {
                    a.completeWith(stores.log(peer, queue, a.message(), refusedBeforeStoring(t) ? 0 : 1));
                }
            });
            return;
        }
        if (a.refused().isEmpty() && !a.hostedHere()) {
            // every node went down since the message was routed: it waits for one, as for a node that is down
            a.completeWith(stores.log(peers.get(0), queue, a.message(), 0));
            return;
        }
        QueueFullException everyNodeFull = everyNodeFull(queue, a.refused(), a.hostedHere());
        if (!a.hostedHere()) {
            a.done().completeExceptionally(everyNodeFull);
            return;
        }
        try {
            a.completeWith(stores.here(queue, a.message())
                    .exceptionallyCompose(t -> CompletableFuture.failedFuture(
                            t instanceof QueueFullException || t.getCause() instanceof QueueFullException
                                    ? everyNodeFull
                                    : t)));
        } catch (QueueFullException stillFull) {
            a.done().completeExceptionally(everyNodeFull);
        }
    }

    private static QueueFullException everyNodeFull(BrokerQueue queue, List<String> refused, boolean hostedHere) {
        List<String> full = new ArrayList<>(refused);
        if (hostedHere) {
            full.add(0, "this one");
        }
        return new QueueFullException("every partition of queue '" + queue.name() + "' is full (maxDepthMessages "
                + queue.options().maxDepthMessages() + ", maxDepthBytes "
                + queue.options().maxDepthBytes()
                + ") on the nodes hosting it that are up (" + String.join(", ", full)
                + "); the message was not stored");
    }

    /**
     * The error code a request failed with: the node's answer, or {@link ErrorCode#INTERNAL} when the
     * link failed before an answer came; null for a failure of another kind.
     */
    static ErrorCode answered(Throwable t) {
        Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
        return cause instanceof BrokerError e ? e.code() : null;
    }

    /**
     * The other node answered that it did not take the message (full, or the queue not defined there
     * yet). After any other failure (the link lost, a store fault there) it may have stored it: the
     * message is then sent again flagged, so a copy stored before is recognised, or arrives as a
     * redelivery once that node restarted and forgot it, never as new.
     */
    static boolean refusedBeforeStoring(Throwable t) {
        ErrorCode answer = answered(t);
        return answer == ErrorCode.RESOURCE_EXHAUSTED || answer == ErrorCode.UNKNOWN_DESTINATION;
    }
}
