package org.partita.broker.cluster;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.partita.broker.core.queue.QueueFullException;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.MessageCodec;
import org.partita.protocol.ProviderProperties;

/**
 * A client's send on its own (not in a transaction) to a partition of a replicated queue that this
 * node does not serve goes straight to the node that does, its replica set's leader, and is
 * confirmed once that node confirmed it, that is once a majority of the set holds it: nothing of a
 * replicated queue waits confirmed in one node's forward log, where the loss of that node would hold
 * it up. While the set elects a leader the send is tried again, for up to {@code patienceMillis};
 * then it is refused, nothing stored, naming the partition and how many of its replicas this node
 * reaches.
 */
final class LeaderSends {
    private static final long RETRY_MILLIS = 100;

    private final ScheduledExecutorService timer;
    private final long patienceMillis;
    private final Predicate<String> reachable;
    /** Per queue and key, the last send handed on: the next one of the key starts once it ended. */
    private final java.util.Map<String, CompletableFuture<Void>> lanes = new java.util.HashMap<>();
    /** Per queue, sends on their way to a leader: a change of layout waits for them as for a forward log. */
    private final java.util.Map<String, java.util.concurrent.atomic.AtomicInteger> onTheirWay =
            new java.util.concurrent.ConcurrentHashMap<>();

    /** @param reachable whether a node is this one or linked to it now */
    LeaderSends(ScheduledExecutorService timer, long patienceMillis, Predicate<String> reachable) {
        this.timer = timer;
        this.patienceMillis = patienceMillis;
        this.reachable = reachable;
    }

    /**
     * Sends {@code message} to {@code queue}'s partition through {@code leader}, the way to its set's
     * leader.
     *
     * @param lane the message's key (its hash), or null for an unkeyed message: sends of one key go
     *             one after the other, in the order they came
     */
    CompletableFuture<Void> send(String queue, int partition, SetLeaderLink leader, byte[] message, Integer lane) {
        Send send = new Send(
                queue,
                partition,
                leader,
                message,
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(patienceMillis),
                new CompletableFuture<>(),
                false);
        java.util.concurrent.atomic.AtomicInteger counted =
                onTheirWay.computeIfAbsent(queue, q -> new java.util.concurrent.atomic.AtomicInteger());
        counted.incrementAndGet();
        send.done().whenComplete((v, t) -> counted.decrementAndGet());
        if (lane == null) {
            attempt(send);
            return send.done();
        }
        // One send of a key on its way at a time, in the order they came: a send tried again during
        // an election must not be overtaken by the next one of its key (sends that do not wait for
        // their answer, non-persistent ones, come one after the other without a pause).
        String key = queue + "\u0000" + lane;
        synchronized (lanes) {
            CompletableFuture<Void> before = lanes.getOrDefault(key, CompletableFuture.completedFuture(null));
            CompletableFuture<Void> after = send.done().handle((v, t) -> null);
            lanes.put(key, after);
            after.whenComplete((v, t) -> {
                synchronized (lanes) {
                    lanes.remove(key, after);
                }
            });
            before.whenComplete((v, t) -> attempt(send));
        }
        return send.done();
    }

    /** Whether a send of the key ({@code lane}, its hash) to the queue is on its way to a leader. */
    boolean busy(String queue, int lane) {
        synchronized (lanes) {
            return lanes.containsKey(queue + "\u0000" + lane);
        }
    }

    /** No send of the queue is on its way to a leader. */
    boolean idle(String queue) {
        java.util.concurrent.atomic.AtomicInteger n = onTheirWay.get(queue);
        return n == null || n.get() == 0;
    }

    /**
     * One client send on its way to the leader, tried again until {@code deadline} (System.nanoTime);
     * {@code mayBeStored} once a try was left in doubt (its message then goes marked
     * {@link ProviderProperties#SENT_AGAIN}, so that the leader keeps one copy).
     */
    private record Send(
            String queue,
            int partition,
            SetLeaderLink leader,
            byte[] message,
            long deadline,
            CompletableFuture<Void> done,
            boolean mayBeStored) {}

    private void attempt(Send s) {
        CompletableFuture<Void> sent;
        try {
            sent = s.leader().forward(s.queue(), 0, s.message());
        } catch (RuntimeException e) {
            s.done().completeExceptionally(e);
            return;
        }
        if (sent == null) {
            later(s);
            return;
        }
        sent.whenComplete((v, t) -> {
            if (t == null) {
                s.done().complete(null);
            } else if (DirectOverflow.answered(t) == ErrorCode.UNKNOWN_DESTINATION) {
                later(s); // that node does not serve it (any more)
            } else if (DirectOverflow.refusedBeforeStoring(t)) {
                // refused there (full): nothing stored, and the client hears it as such (ResourceAllocationException)
                s.done().completeExceptionally(new QueueFullException(unwrap(t).getMessage()));
            } else if (System.nanoTime() - s.deadline() < 0) {
                // in doubt (the leader took it and lost its leadership, or the link went): a majority
                // may hold it. Sent again marked, so that the set's leader keeps one copy
                later(new Send(
                        s.queue(),
                        s.partition(),
                        s.leader(),
                        s.mayBeStored()
                                ? s.message()
                                : MessageCodec.withProperty(s.message(), ProviderProperties.SENT_AGAIN, Boolean.TRUE),
                        s.deadline(),
                        s.done(),
                        true));
            } else {
                s.done()
                        .completeExceptionally(new IllegalStateException(
                                "the send to partition " + s.partition() + " of queue '" + s.queue()
                                        + "' ended without an"
                                        + " answer from the node serving it ("
                                        + unwrap(t).getMessage()
                                        + "): it may or may not be stored",
                                unwrap(t)));
            }
        });
    }

    private void later(Send s) {
        if (System.nanoTime() - s.deadline() > 0) {
            List<String> replicas = s.leader().replicas();
            long up = replicas.stream().filter(reachable).count();
            if (s.mayBeStored()) {
                s.done()
                        .completeExceptionally(new IllegalStateException("the send to partition " + s.partition()
                                + " of queue '" + s.queue() + "' was left in doubt by a change of leader and no node of"
                                + " its replica set " + replicas + " took it again within " + patienceMillis + " ms ("
                                + up + " of " + replicas.size() + " replicas reachable): it may or may not be stored"));
                return;
            }
            s.done()
                    .completeExceptionally(new QueueFullException("partition " + s.partition() + " of queue '"
                            + s.queue() + "' takes no sends now: no node of its replica set " + replicas
                            + " served it within "
                            + patienceMillis + " ms (" + up + " of " + replicas.size()
                            + " replicas reachable, a majority of "
                            + (replicas.size() / 2 + 1) + " needed); nothing was stored"));
            return;
        }
        timer.schedule(() -> attempt(s), RETRY_MILLIS, TimeUnit.MILLISECONDS);
    }

    private static Throwable unwrap(Throwable t) {
        return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    }
}
