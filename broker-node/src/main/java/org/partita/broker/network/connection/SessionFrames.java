package org.partita.broker.network.connection;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.partita.broker.core.Broker;
import org.partita.broker.core.queue.QueueFullException;
import org.partita.broker.network.NodeContext;
import org.partita.broker.network.flow.NodeMemory;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;
import org.partita.protocol.ProtocolException;

/**
 * A connection's sessions and their local transactions: SESSION_OPEN, SESSION_CLOSE, COMMIT and
 * ROLLBACK, and the end of every session when the connection ends.
 */
final class SessionFrames {
    private final ConnectionState state;
    private final Broker broker;
    private final NodeContext node;
    private final NodeMemory memory;
    private final Replies replies;

    SessionFrames(ConnectionState state, Broker broker, NodeContext node, NodeMemory memory, Replies replies) {
        this.state = state;
        this.broker = broker;
        this.node = node;
        this.memory = memory;
        this.replies = replies;
    }

    void open(Frame.SessionOpen f) {
        if (state.sessions().size() >= node.limits().sessionsPerConnection()) {
            replies.error(
                    f,
                    ErrorCode.RESOURCE_EXHAUSTED,
                    "a connection may have at most " + node.limits().sessionsPerConnection() + " sessions open");
            return;
        }
        ServerSession session = new ServerSession(f.sessionId(), f.transacted(), state.deliveryIds());
        if (state.sessions().putIfAbsent(f.sessionId(), session) != null) {
            replies.error(f, ErrorCode.ILLEGAL_STATE, "session " + f.sessionId() + " is already open");
            return;
        }
        replies.ok(f.requestId());
    }

    void close(Frame.SessionClose f) {
        ServerSession s = state.sessions().remove(f.sessionId());
        if (s != null) {
            end(s);
        }
        replies.ok(f.requestId());
    }

    /**
     * The connection ended: each of its sessions ends as if the client had closed it. Every
     * consumer stops first: a message one session hands back must not be delivered to another
     * session of the same closing connection, whose end would hand it back again, each time
     * counted as a delivery attempt (a connection with 15 sessions, lost under load, sent messages
     * to the dead-letter queue this way).
     */
    void closeAll() {
        for (ServerSession s : state.sessions().values()) {
            stopConsumers(s);
        }
        for (ServerSession s : state.sessions().values()) {
            end(s);
        }
        state.sessions().clear();
    }

    private void stopConsumers(ServerSession s) {
        for (ServerConsumer c : s.consumers().values()) {
            state.consumers().remove(c.id());
            c.close();
        }
        s.consumers().clear();
    }

    /** Ends a session: its consumers stop, its unsettled deliveries come back as redelivered. */
    private void end(ServerSession s) {
        stopConsumers(s);
        if (s.transacted()) {
            rollback(s);
        }
        broker.xa().sessionClosed(s);
        s.branch(null);
        for (Delivery d : s.drainDeliveries()) {
            d.release(true);
        }
        s.closeFeeds(); // after the releases: those of other nodes' messages go through their sessions there
    }

    void commit(Frame.Commit f) {
        ServerSession session = state.session(f.sessionId());
        if (!session.transacted()) {
            throw new ProtocolException(
                    ErrorCode.ILLEGAL_STATE, "session " + f.sessionId() + " is not transacted: nothing to commit");
        }
        List<Broker.PendingSend> sends = new ArrayList<>(session.txSends());
        List<Delivery> consumedDeliveries = new ArrayList<>(session.txConsumed());
        List<Broker.Consumed> consumed = Delivery.localConsumed(consumedDeliveries);
        session.txSends().clear();
        session.txConsumed().clear();
        memory.transactionEnded(session.clearTxBytes());
        String changing = consumedDeliveries.isEmpty() ? null : broker.heldBy(sends);
        if (changing != null) {
            // Held until the queue's layout change ends, what it consumed would stay unacknowledged, and
            // the change waits for exactly that: rolled back instead, so the change goes on.
            consumedDeliveries.forEach(d -> d.release(true));
            replies.error(
                    f,
                    ErrorCode.TRANSACTION_ROLLED_BACK,
                    "queue '" + changing + "' is changing its partitions or hosts;"
                            + " a transaction that consumed messages cannot send to it until the change is done; the transaction"
                            + " was rolled back");
            return;
        }
        try {
            // What came from other nodes is acknowledged there once the commit here is durable: a crash
            // in between redelivers it (at least once across nodes; docs/cluster.md).
            CompletableFuture<Void> stored = broker.commit(sends, consumed);
            CompletableFuture<Void> settled =
                    stored.thenCompose(v -> CompletableFuture.allOf(consumedDeliveries.stream()
                            .filter(d -> d instanceof RemoteDelivery)
                            .map(Delivery::ack)
                            .toArray(CompletableFuture[]::new)));
            replies.whenDone(f, settled);
            if (session.hasClosedFeeds()) {
                // a closed consumer's sessions on other nodes may end once their messages were acknowledged
                // there; checked only then, so an ordinary commit costs no extra wake-up of this loop
                settled.whenComplete((v, t) -> state.onLoop(session::closeIdleFeeds));
            }
            stored.whenComplete((v, t) -> {
                // refused, or taken by no queue (a topic without subscriptions): nothing keeps their bodies
                sends.forEach(s -> s.message().discardUntaken());
                if (t != null) {
                    // nothing of it was stored: rolled back, so what it consumed comes back, as for a full queue
                    state.channel().eventLoop().execute(() -> consumedDeliveries.forEach(d -> d.release(true)));
                }
            });
        } catch (QueueFullException e) {
            sends.forEach(s -> s.message().discardUntaken());
            // The transaction cannot commit: it is rolled back, so what it consumed comes back.
            consumedDeliveries.forEach(d -> d.release(true));
            replies.error(f, ErrorCode.TRANSACTION_ROLLED_BACK, e.getMessage() + "; the transaction was rolled back");
        }
    }

    void rollback(Frame.Rollback f) {
        rollback(state.session(f.sessionId()));
        replies.ok(f.requestId());
    }

    private void rollback(ServerSession session) {
        session.txSends().forEach(s -> s.message().discardUntaken());
        session.txSends().clear();
        memory.transactionEnded(session.clearTxBytes());
        Delivery.releaseAll(session.txConsumed(), d -> true);
        session.txConsumed().clear();
        session.closeIdleFeeds();
    }
}
