package org.partita.jms.transport;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;

/**
 * Opens again, on the node a failover connection moves to, what the facade has open: its sessions,
 * the queues its producers declared, its consumers under the same ids (durable and shared
 * subscriptions by name) without credit, and their priority and capacity changes. Consumers of
 * temporary destinations are left out: those lived on the lost node only. Any refusal fails the
 * attempt, and the connection tries the next node.
 */
final class Replay {
    /** No request of a replay waits longer than a request of the facade would. */
    private static final long REQUEST_TIMEOUT_MILLIS = 60_000;

    private final NodeLink link;
    private final ReplayLog log;
    private final long deadlineNanos;

    /** What was opened again on {@code link}; {@code detached}: consumers of temporary destinations, not re-created. */
    record Outcome(NodeLink link, List<Integer> sessions, List<Integer> consumers, List<Integer> detached) {}

    Replay(NodeLink link, ReplayLog log, long deadlineNanos) {
        this.link = link;
        this.log = log;
        this.deadlineNanos = deadlineNanos;
    }

    Outcome run() {
        BrokerConnection node = link.node;
        if (!node.isOpen()) {
            throw new BrokerError(ErrorCode.INTERNAL, "the node closed the connection after the handshake");
        }
        ReplayLog.Snapshot open = log.snapshot();
        List<Integer> sessions = new ArrayList<>();
        List<Integer> consumers = new ArrayList<>();
        List<Integer> detached = new ArrayList<>();
        for (ReplayLog.SessionOpen s : open.sessions()) {
            await(node.openSession(s.id(), s.transacted()), "opening session " + s.id() + " again");
            sessions.add(s.id());
        }
        for (String queue : open.declared()) {
            await(node.destinationOp(Frame.OP_DECLARE_QUEUE, queue), "declaring queue " + queue + " again");
        }
        for (ReplayLog.ConsumerOpen c : open.consumers()) {
            if (c.temporary()) {
                log.detach(c.id());
                detached.add(c.id());
                continue;
            }
            String what = "opening consumer " + c.id() + " of " + c.spec().destination()
                    + (c.spec().subscription() == null
                            ? ""
                            : " (subscription " + c.spec().subscription() + ")") + " again";
            await(node.openConsumer(c.spec()), what);
            consumers.add(c.id());
            if (c.updated()) {
                await(
                        node.updateConsumer(c.id(), c.priority(), c.capacityMessages(), c.capacityBytes()),
                        "changing consumer " + c.id() + " again");
            }
        }
        return new Outcome(link, sessions, consumers, detached);
    }

    private <T> T await(CompletableFuture<T> answer, String what) {
        try {
            return answer.get(
                    Math.max(1, Math.min(REQUEST_TIMEOUT_MILLIS, millisLeft(deadlineNanos))), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            BrokerError b = c instanceof BrokerError be ? be : new BrokerError(ErrorCode.INTERNAL, String.valueOf(c));
            throw new BrokerError(b.code(), b.errorCode(), what + " failed: " + b.getMessage());
        } catch (TimeoutException e) {
            throw new BrokerError(ErrorCode.INTERNAL, what + ": no answer in time");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrokerError(ErrorCode.INTERNAL, what + ": interrupted");
        }
    }

    /** Milliseconds left before {@code deadlineNanos} ({@link Long#MAX_VALUE}: no deadline), never negative. */
    static long millisLeft(long deadlineNanos) {
        if (deadlineNanos == Long.MAX_VALUE) {
            return Long.MAX_VALUE;
        }
        return Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
    }
}
