package org.partita.broker.network.connection;

import java.util.concurrent.CompletableFuture;
import org.partita.broker.core.Broker;
import org.partita.broker.core.dispatch.ConsumerRef;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.broker.core.queue.DestinationAddress;
import org.partita.broker.core.topic.Subscription;
import org.partita.broker.core.topic.Subscriptions;
import org.partita.broker.network.NodeContext;
import org.partita.broker.security.Operation;
import org.partita.protocol.DestinationName;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;
import org.partita.protocol.ProtocolException;
import org.partita.protocol.selector.Selector;
import org.partita.protocol.selector.SelectorException;

/**
 * A connection's consumers: CONSUMER_OPEN (on a queue, or on a topic through a durable, shared or
 * private subscription), CONSUMER_CLOSE, CONSUMER_UPDATE, and the credit that paces their deliveries
 * (CREDIT, DRAIN).
 */
final class ConsumerFrames {
    private final ConnectionState state;
    private final Broker broker;
    private final NodeContext node;
    private final Replies replies;

    ConsumerFrames(ConnectionState state, Broker broker, NodeContext node, Replies replies) {
        this.state = state;
        this.broker = broker;
        this.node = node;
        this.replies = replies;
    }

    void open(Frame.ConsumerOpen f) {
        ServerSession session = state.session(f.sessionId());
        Selector selector;
        try {
            selector = Selector.parse(f.selector());
        } catch (SelectorException e) {
            replies.error(f, ErrorCode.INVALID_SELECTOR, e.getMessage());
            return;
        }
        DestinationName dest = state.destination(f.destination());
        if (f.subscription() != null) {
            state.checkNameLength(f.subscription(), "subscription name");
        }
        if (state.consumers().containsKey(f.consumerId())) {
            replies.error(f, ErrorCode.ILLEGAL_STATE, "consumer " + f.consumerId() + " is already open");
            return;
        }
        if (f.credit() < 0 || f.windowBytes() < 0) {
            replies.error(
                    f,
                    ErrorCode.INVALID_REQUEST,
                    f.credit() < 0
                            ? "credit must not be negative: " + f.credit()
                            : "a byte window must not be negative: " + f.windowBytes());
            return;
        }
        if (state.consumers().size() >= node.limits().consumersPerConnection()) {
            replies.error(
                    f,
                    ErrorCode.RESOURCE_EXHAUSTED,
                    "a connection may have at most " + node.limits().consumersPerConnection() + " consumers open");
            return;
        }
        state.destinations().checkConsumable(dest);
        if (f.durable()) {
            state.authorize(Operation.DURABLE, dest);
        }
        state.authorize(Operation.CONSUME, dest);
        BrokerQueue queue;
        Selector consumerSelector = selector;
        Subscription subscription = null;
        DestinationAddress address = DestinationAddress.parse(dest.name());
        int priority = address.priority(); // checked before anything is created
        int capacity = address.capacity();
        long capacityBytes = address.capacityBytes();
        if (dest.kind().isQueue()) {
            queue = state.destinations().consumerQueue(dest, address);
        } else {
            subscription = subscribe(f, dest);
            queue = subscription.queue();
            consumerSelector = Selector.matchAll(); // a subscription's selector filters at routing
        }
        ServerConsumer consumer = new ServerConsumer(
                f.consumerId(),
                session,
                queue,
                state.channel(),
                subscription,
                broker.subscriptions(),
                f.windowBytes() > 0);
        // The admin view names the owner of each partition: a relayed consumer by the node it serves.
        String peerNode = state.peerNode();
        String owner = peerNode != null
                ? "node " + peerNode
                : String.valueOf(state.channel().remoteAddress());
        ConsumerRef ref = new ConsumerRef(
                "consumer " + f.consumerId() + " of " + owner, consumer, consumerSelector, f.credit(), priority);
        if (capacity > 0 || capacityBytes > 0) {
            queue.update(ref, null, capacity, capacityBytes);
        }
        ref.window(f.windowBytes()); // before attach hands the consumer to the queue's executor
        consumer.bind(ref);
        if (peerNode != null) {
            ref.origin(peerNode); // another node's consumer: the scope of a clustered queue ranks it
        } else if (node.cluster() != null && dest.kind().isQueue()) {
            consumer.feed(node.cluster()
                    .openFeed(queue, f.destination(), f.selector(), f.credit(), f.windowBytes(), consumer));
        }
        state.consumers().put(f.consumerId(), consumer);
        session.consumers().put(f.consumerId(), consumer);
        // answered once the consumer takes part in dispatch: what is sent after createConsumer returns reaches it
        queue.attach(ref).thenRun(() -> replies.ok(f.requestId()));
    }

    /** The subscription a topic consumer reads: durable or shared by name, else private to this consumer. */
    private Subscription subscribe(Frame.ConsumerOpen f, DestinationName topic) {
        Subscriptions subs = broker.subscriptions();
        String clientId = state.clientId();
        if (f.durable()) {
            if (!f.shared() && clientId == null) {
                throw new ProtocolException(
                        ErrorCode.ILLEGAL_STATE, "an unshared durable subscription needs a client id");
            }
            return subs.openDurable(
                    clientId, f.subscription(), topic.name(), f.selector(), f.noLocal(), f.shared(), state.key());
        }
        if (f.shared()) {
            return subs.openShared(clientId, f.subscription(), topic.name(), f.selector());
        }
        String name = "subscriber:" + node.nodeName() + ":" + state.serial() + ":" + f.consumerId();
        return subs.openPrivate(name, topic.name(), f.selector(), f.noLocal(), state.key());
    }

    void close(Frame.ConsumerClose f) {
        ServerConsumer c = state.consumers().remove(f.consumerId());
        if (c != null) {
            c.session().consumers().remove(c.id());
            c.close();
        }
        replies.ok(f.requestId());
    }

    void update(Frame.ConsumerUpdate f) {
        ServerConsumer c = state.consumers().get(f.consumerId());
        if (c == null) {
            replies.error(f, ErrorCode.ILLEGAL_STATE, "consumer " + f.consumerId() + " is not open");
            return;
        }
        CompletableFuture<Void> applied = c.update(
                f.priority() == Integer.MIN_VALUE ? null : f.priority(),
                f.capacityMessages() < 0 ? null : f.capacityMessages(),
                f.capacityBytes() < 0 ? null : f.capacityBytes());
        if (f.spare() != Frame.ConsumerUpdate.UNCHANGED) {
            applied = c.spare(f.spare() == 1); // after the update on the queue's executor
        }
        applied.thenRun(() -> replies.ok(f.requestId()));
    }

    void credit(Frame.Credit f) {
        if (f.messages() < 0) {
            replies.error(f, ErrorCode.INVALID_REQUEST, "credit must not be negative: " + f.messages());
            return;
        }
        ServerConsumer c = state.consumers().get(f.consumerId());
        if (c != null) {
            c.credit(f.messages());
        }
    }

    void drain(Frame.Drain f) {
        ServerConsumer c = state.consumers().get(f.consumerId());
        if (c == null) {
            replies.ok(f.requestId());
        } else {
            c.drain().thenRun(() -> replies.ok(f.requestId()));
        }
    }
}
