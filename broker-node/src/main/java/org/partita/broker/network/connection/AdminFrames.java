package org.partita.broker.network.connection;

import org.partita.broker.admin.AdminCaller;
import org.partita.broker.admin.AdminTargets;
import org.partita.broker.core.Broker;
import org.partita.broker.network.NodeContext;
import org.partita.broker.security.Operation;
import org.partita.protocol.DestinationName;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;
import org.partita.protocol.ProtocolException;

/**
 * Requests about the node and its destinations rather than messages: ADMIN commands, and
 * DESTINATION_OP (a client id claimed after the handshake, temporary destinations, a queue declared
 * with options, a durable subscription removed).
 */
final class AdminFrames {
    private final ConnectionState state;
    private final Broker broker;
    private final NodeContext node;
    private final Replies replies;

    AdminFrames(ConnectionState state, Broker broker, NodeContext node, Replies replies) {
        this.state = state;
        this.broker = broker;
        this.node = node;
        this.replies = replies;
    }

    void admin(Frame.Admin f) {
        authorize(f);
        node.admin()
                .run(f.command(), f.argument(), new AdminCaller(state.user(), state.remote()))
                .whenComplete((body, t) -> {
                    if (t == null) {
                        replies.answer(new Frame.AdminReply(f.requestId(), body));
                    } else {
                        Throwable c = FailureCodes.unwrap(t);
                        replies.error(f, FailureCodes.of(c), c.getMessage());
                    }
                });
    }

    /**
     * Admin commands need the manage permission on the queues they act on, or on the whole node.
     * A node without users knows no one, so it takes them from its own machine only.
     */
    private void authorize(Frame.Admin f) {
        if (state.peerNode() != null) {
            return;
        }
        if (!node.checksPasswords() && !state.fromLoopback()) {
            throw new ProtocolException(
                    ErrorCode.NOT_AUTHORIZED,
                    "not authorized: admin command " + f.command() + " from " + state.remote()
                            + " refused; a node without a users file takes admin commands from its own machine only");
        }
        for (String queue : AdminTargets.of(f.command(), f.argument())) {
            state.access().require(Operation.MANAGE, "queue", queue);
        }
    }

    void destinationOp(Frame.DestinationOp f) {
        ConnectionDestinations destinations = state.destinations();
        switch (f.op()) {
            case Frame.OP_SET_CLIENT_ID -> setClientId(f);
            case Frame.OP_CREATE_TEMP_QUEUE ->
                replies.answer(new Frame.Created(f.requestId(), destinations.createTemporaryQueue()));
            case Frame.OP_CREATE_TEMP_TOPIC ->
                replies.answer(new Frame.Created(f.requestId(), destinations.createTemporaryTopic()));
            case Frame.OP_DELETE_TEMP -> {
                DestinationName d = DestinationName.parse(f.name());
                if (destinations.deleteTemporary(d)) {
                    replies.ok(f.requestId());
                } else {
                    replies.error(f, ErrorCode.ILLEGAL_STATE, d + " is not a temporary destination of this connection");
                }
            }
            case Frame.OP_DECLARE_QUEUE -> {
                DestinationName d = state.destination(f.name());
                if (d.kind() != DestinationName.Kind.QUEUE) {
                    replies.error(f, ErrorCode.INVALID_REQUEST, "only queues are declared, not " + d);
                } else {
                    destinations.queue(d);
                    replies.ok(f.requestId());
                }
            }
            case Frame.OP_UNSUBSCRIBE -> {
                String topic = broker.subscriptions().durableTopic(state.clientId(), f.name());
                if (topic != null) {
                    state.access().require(Operation.DURABLE, "topic", topic);
                }
                broker.subscriptions().unsubscribe(state.clientId(), f.name());
                replies.ok(f.requestId());
            }
            default ->
                replies.error(f, ErrorCode.INVALID_REQUEST, "destination operation " + f.op() + " is not supported");
        }
    }

    /** Connection.setClientID after the handshake: a connection has one client id, held by it alone on this node. */
    private void setClientId(Frame.DestinationOp f) {
        String current = state.clientId();
        if (current != null) {
            replies.error(f, ErrorCode.ILLEGAL_STATE, "this connection already has client id '" + current + "'");
        } else if (f.name() != null && !f.name().isEmpty() && denied(f.name())) {
            throw state.access().refusal(Operation.CLIENT_ID, "client id", f.name());
        } else if (f.name() == null || f.name().isEmpty() || !node.claimClientId(f.name(), state.key())) {
            replies.error(
                    f, ErrorCode.INVALID_CLIENT_ID, "client id '" + f.name() + "' is already in use on this node");
        } else {
            state.clientId(f.name());
            replies.ok(f.requestId());
        }
    }

    private boolean denied(String clientId) {
        try {
            state.access().require(Operation.CLIENT_ID, "client id", clientId);
            return false;
        } catch (ProtocolException e) {
            return true;
        }
    }
}
