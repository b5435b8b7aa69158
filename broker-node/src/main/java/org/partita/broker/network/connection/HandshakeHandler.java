package org.partita.broker.network.connection;

import static org.partita.broker.network.connection.ConnectionLog.EVENTS;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.partita.broker.network.ClusterFront;
import org.partita.broker.network.NodeContext;
import org.partita.broker.network.flow.ConsumptionPace;
import org.partita.broker.network.flow.NodeMemory;
import org.partita.broker.network.flow.SendWindow;
import org.partita.broker.security.Operation;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;
import org.partita.protocol.FrameDecoder;
import org.partita.protocol.Protocol;
import org.partita.protocol.ProtocolException;
import org.slf4j.event.Level;

/**
 * HELLO (docs/protocol.md, "States"): the version check, the GREETING that tells a client of version 5
 * on at once that a node listens, the login of a client or of another node of the cluster, the client
 * id it claims, and the opening of the connection with HELLO_OK and its first send credit. Any refusal
 * answers the HELLO with ERROR and closes the connection.
 */
final class HandshakeHandler {
    private final ConnectionState state;
    private final NodeContext node;
    private final NodeMemory memory;
    private final Replies replies;
    private final FrameOrder order;

    HandshakeHandler(ConnectionState state, NodeContext node, NodeMemory memory, Replies replies, FrameOrder order) {
        this.state = state;
        this.node = node;
        this.memory = memory;
        this.replies = replies;
        this.order = order;
    }

    void hello(Frame.Hello f) {
        if (state.open() || order.holding()) {
            replies.error(f, ErrorCode.ILLEGAL_STATE, "HELLO was already received");
            return;
        }
        if (f.version() < Protocol.OLDEST_VERSION || f.version() > Protocol.VERSION) {
            replies.failRequest(
                    f.requestId(),
                    ErrorCode.UNSUPPORTED_VERSION,
                    "protocol version " + f.version() + " is not supported; this node speaks " + Protocol.OLDEST_VERSION
                            + " to " + Protocol.VERSION);
            return;
        }
        if (f.version() >= Protocol.GREETING_VERSION) {
            // at once, before the login check, which may wait on the login pool: the client learns a
            // node listens within a short bound, where something else listening would leave it waiting
            replies.answer(new Frame.Greeting(f.requestId()));
        }
        ClusterFront cluster = node.cluster();
        if (cluster != null) {
            try {
                state.peerNode(cluster.linkingNode(f.user(), f.password()));
            } catch (SecurityException e) {
                EVENTS.log(
                        Level.WARN,
                        "login.failed",
                        Map.of("user", f.user(), "remote", state.remote()),
                        "node link refused from {}: {}",
                        state.remote(),
                        e.getMessage());
                replies.failRequest(f.requestId(), ErrorCode.AUTHENTICATION_FAILED, e.getMessage());
                return;
            }
        }
        if (state.peerNode() != null) {
            accept(f);
            return;
        }
        // The password check runs on the login pool, never here; frames sent after HELLO wait for its answer.
        CompletableFuture<String> checked = node.logins().check(state.host(), f.user(), f.password());
        if (checked.isDone()) {
            loggedIn(f, checked.getNow(null), null);
            return;
        }
        order.hold();
        checked.whenComplete((refusal, t) -> state.channel().eventLoop().execute(() -> loggedIn(f, refusal, t)));
    }

    /** The login pool answered: the connection opens, or is refused and closed. */
    private void loggedIn(Frame.Hello f, String refusal, Throwable failure) {
        if (!state.channel().isActive()) {
            order.drop(); // the client left while its login was checked
            return;
        }
        String who = f.user() == null ? "(none)" : f.user();
        if (failure != null) {
            order.drop();
            Throwable c =
                    failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
            EVENTS.log(
                    Level.WARN,
                    "login.busy",
                    Map.of("user", who, "remote", state.remote()),
                    "login of user {} from {} not checked: {}",
                    who,
                    state.remote(),
                    c.getMessage());
            replies.failRequest(f.requestId(), ErrorCode.RESOURCE_EXHAUSTED, c.getMessage());
            return;
        }
        if (refusal != null) {
            order.drop();
            // rate limited: anyone can make the node refuse logins, and must not fill its disk with log
            EVENTS.log(
                    Level.INFO,
                    "login.failed",
                    Map.of("user", who, "remote", state.remote(), "reason", refusal),
                    "login refused for user {} from {}: {}",
                    who,
                    state.remote(),
                    refusal);
            replies.failRequest(f.requestId(), ErrorCode.AUTHENTICATION_FAILED, refusal);
            return;
        }
        if (accept(f)) {
            order.resume();
        } else {
            order.drop();
        }
    }

    /** Opens the connection once its login is accepted; false if its client id is refused or taken. */
    private boolean accept(Frame.Hello f) {
        String name = f.user() == null || f.user().isEmpty() ? null : f.user();
        Access granted = state.peerNode() != null ? Access.UNCHECKED : new Access(name, node.authorizer());
        if (f.clientId() != null) {
            try {
                granted.require(Operation.CLIENT_ID, "client id", f.clientId());
            } catch (ProtocolException e) {
                replies.failRequest(f.requestId(), e.code(), e.getMessage());
                return false;
            }
        }
        if (f.clientId() != null && !node.claimClientId(f.clientId(), state.key())) {
            replies.failRequest(
                    f.requestId(),
                    ErrorCode.INVALID_CLIENT_ID,
                    "client id '" + f.clientId() + "' is already in use on this node");
            return false;
        }
        state.opened(name, f.clientId(), granted);
        // frames up to the node's maximum from now on, no longer the few bytes allowed before the handshake
        FrameDecoder decoder = state.channel().pipeline().get(FrameDecoder.class);
        if (decoder != null) {
            decoder.acceptUpTo(node.maxFrameSize());
        }
        ClusterFront cluster = node.cluster();
        replies.answer(new Frame.HelloOk(
                f.requestId(),
                f.version(),
                node.nodeName(),
                node.maxFrameSize(),
                cluster == null ? 0 : cluster.deliveryLeaseMillis()));
        SendWindow window = new SendWindow(
                state.channel(),
                memory,
                new ConsumptionPace(node.limits().pacedBacklogBytes()),
                node.limits().producerWindowBytes(),
                f.version() >= Protocol.SEND_CREDIT_VERSION);
        state.sendWindow(window);
        window.open();
        return true;
    }
}
