package org.partita.broker.network.connection;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.partita.broker.core.Broker;
import org.partita.broker.core.xa.OutsideWork;
import org.partita.broker.core.xa.XaBranch;
import org.partita.protocol.Frame;

/**
 * How a session settles what it was delivered: ACK consumes (at once, in its local transaction, or in
 * its XA branch), RELEASE hands back, redelivered if the application saw it.
 */
final class Acknowledgements {
    private final ConnectionState state;
    private final Broker broker;
    private final Replies replies;

    Acknowledgements(ConnectionState state, Broker broker, Replies replies) {
        this.state = state;
        this.broker = broker;
        this.replies = replies;
    }

    void ack(Frame.Ack f) {
        ServerSession session = state.session(f.sessionId());
        List<CompletableFuture<Void>> done = new ArrayList<>(f.deliveryIds().length);
        for (long id : f.deliveryIds()) {
            Delivery d = session.settle(id);
            if (d == null) {
                continue; // already settled, e.g. released by a rollback that crossed this ack
            }
            if (session.branch() != null) {
                inBranch(session.branch(), d);
            } else if (session.transacted()) {
                session.txConsumed().add(d);
            } else {
                done.add(d.ack());
            }
        }
        session.closeIdleFeeds(); // after the acknowledgements went to the other nodes' sessions
        replies.whenDone(f, CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)));
    }

    /** A delivery consumed in an XA branch: one of this node's is held by the branch, another node's settled after it. */
    private void inBranch(XaBranch branch, Delivery d) {
        if (d instanceof LocalDelivery l) {
            broker.xa()
                    .addConsumed(
                            branch, new Broker.Consumed(l.entry(), l.consumer().ref()));
        } else {
            broker.xa().addOutside(branch, new OutsideWork() {
                @Override
                public CompletableFuture<Void> commit() {
                    return d.ack();
                }

                @Override
                public void rollback() {
                    d.release(true);
                }
            });
        }
    }

    void release(Frame.Release f) {
        ServerSession session = state.session(f.sessionId());
        for (long id : f.redeliver()) {
            Delivery d = session.settle(id);
            if (d != null) {
                d.release(true);
            }
        }
        for (long id : f.unseen()) {
            Delivery d = session.settle(id);
            if (d != null) {
                d.release(false);
            }
        }
        session.closeIdleFeeds();
        replies.ok(f.requestId());
    }
}
