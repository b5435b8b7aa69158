package org.partita.broker.network.connection;

import static org.partita.broker.network.connection.ConnectionLog.EVENTS;
import static org.partita.broker.network.connection.ConnectionLog.LOG;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.partita.broker.admin.ConnectionInfo;
import org.partita.broker.core.Broker;
import org.partita.broker.core.DefinitionPendingException;
import org.partita.broker.core.queue.QueueFullException;
import org.partita.broker.core.queue.QueueOptionConflictException;
import org.partita.broker.core.queue.UnknownDestinationException;
import org.partita.broker.core.topic.SubscriptionConflictException;
import org.partita.broker.network.NodeContext;
import org.partita.broker.network.flow.NodeMemory;
import org.partita.broker.network.flow.SendWindow;
import org.partita.broker.network.flow.TrafficCounter;
import org.partita.broker.process.FatalErrors;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;
import org.partita.protocol.ProtocolException;

/**
 * One client connection's Netty handler: its life cycle, the order its frames are handled in, and
 * the dispatch of each frame by type to the handler of its concern, on the connection's event loop
 * (docs/protocol.md). The handlers never block: store work completes through futures that answer on
 * the channel ({@link Replies}). What the core throws while a frame is handled becomes the error code
 * of its answer here.
 */
public final class ClientConnection extends SimpleChannelInboundHandler<Frame> implements FrameOrder {
    private final Broker broker;
    private final NodeContext node;
    private final NodeMemory memory;
    private final TrafficCounter traffic;
    private final long serial;
    private final long openedAt = System.currentTimeMillis();
    /**
     * Frames read while an earlier one waits (for its login, or for the cluster to agree on a queue
     * definition): handled in order once it is done, so a client's frames never overtake each other.
     */
    private final ArrayDeque<Frame> held = new ArrayDeque<>();

    private boolean holding;

    private ConnectionState state;
    private Replies replies;
    private HandshakeHandler handshake;
    private SessionFrames sessions;
    private SendFrames sends;
    private ConsumerFrames consumers;
    private Acknowledgements acknowledgements;
    private SessionRecovery recovery;
    private BrowseFrames browsing;
    private AdminFrames admin;
    private XaRequests xa;
    private LargeBodyFrames largeBodies;

    public ClientConnection(Broker broker, NodeContext node, TrafficCounter traffic, NodeMemory memory) {
        this.broker = broker;
        this.node = node;
        this.memory = memory;
        this.traffic = traffic;
        this.serial = node.nextTemporaryId();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        Channel channel = ctx.channel();
        state = new ConnectionState(broker, node, channel, serial);
        replies = new Replies(channel);
        handshake = new HandshakeHandler(state, node, memory, replies, this);
        sessions = new SessionFrames(state, broker, node, memory, replies);
        largeBodies = new LargeBodyFrames(state, broker, node, replies);
        sends = new SendFrames(state, broker, node, memory, replies, largeBodies);
        consumers = new ConsumerFrames(state, broker, node, replies);
        acknowledgements = new Acknowledgements(state, broker, replies);
        recovery = new SessionRecovery(state, replies);
        browsing = new BrowseFrames(state, broker, replies);
        admin = new AdminFrames(state, broker, node, replies);
        xa = new XaRequests(
                broker.xa(), state.key(), state::session, replies, node::cluster, () -> state.peerNode() != null);
        if (!node.opened(this)) {
            replies.fail(
                    ErrorCode.RESOURCE_EXHAUSTED,
                    "the node has its maximum of " + node.limits().connections() + " connections");
            return;
        }
        long timeout = node.limits().handshakeTimeoutMillis();
        ctx.executor()
                .schedule(
                        () -> {
                            if (!state.open() && channel.isActive()) {
                                replies.fail(ErrorCode.AUTHENTICATION_FAILED, "no handshake within " + timeout + " ms");
                            }
                        },
                        timeout,
                        TimeUnit.MILLISECONDS);
        LOG.atDebug()
                .addKeyValue("event", "connection.opened")
                .addKeyValue("remote", state.remote())
                .log("connection opened from {}", state.remote());
        ctx.fireChannelActive();
    }

    public ConnectionInfo info() {
        return new ConnectionInfo(
                state.remote(),
                state.user(),
                state.clientId(),
                state.sessions().size(),
                state.consumers().size(),
                openedAt,
                traffic.bytesIn(),
                traffic.bytesOut());
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Frame frame) {
        if (holding) {
            held.add(frame);
            return;
        }
        if (!state.open() && !(frame instanceof Frame.Hello)) {
            replies.fail(ErrorCode.ILLEGAL_STATE, "the first frame must be HELLO, not " + frame.type());
            return;
        }
        process(frame);
    }

    /** Handles one frame; a frame that must wait for the cluster holds back the ones after it until it is done. */
    private void process(Frame frame) {
        try {
            dispatch(frame);
        } catch (DefinitionPendingException e) {
            holding = true;
            held.addFirst(frame);
            e.agreed().whenComplete((v, t) -> state.channel().eventLoop().execute(() -> definitionAgreed(t)));
        } catch (ProtocolException e) {
            if (e.code() == ErrorCode.MALFORMED_FRAME) {
                replies.fail(e.code(), e.getMessage()); // a peer that sends garbage is not talked to further
            } else {
                replies.error(frame, e.code(), e.getMessage());
            }
        } catch (QueueFullException e) {
            replies.error(
                    frame,
                    frame instanceof Frame.Commit ? ErrorCode.TRANSACTION_ROLLED_BACK : ErrorCode.RESOURCE_EXHAUSTED,
                    e.getMessage());
        } catch (UnknownDestinationException
                | SubscriptionConflictException
                | QueueOptionConflictException
                | IllegalArgumentException e) {
            replies.error(frame, FailureCodes.of(e), e.getMessage());
        }
    }

    private void dispatch(Frame frame) {
        switch (frame.type()) {
            case HELLO -> handshake.hello((Frame.Hello) frame);
            case SESSION_OPEN -> sessions.open((Frame.SessionOpen) frame);
            case SESSION_CLOSE -> sessions.close((Frame.SessionClose) frame);
            case COMMIT -> sessions.commit((Frame.Commit) frame);
            case ROLLBACK -> sessions.rollback((Frame.Rollback) frame);
            case SEND -> sends.send((Frame.Send) frame);
            case FORWARD -> sends.forward((Frame.Forward) frame);
            case BODY_PART -> largeBodies.part((Frame.BodyPart) frame);
            case BODY_READ -> largeBodies.read((Frame.BodyRead) frame);
            case CONSUMER_OPEN -> consumers.open((Frame.ConsumerOpen) frame);
            case CONSUMER_CLOSE -> consumers.close((Frame.ConsumerClose) frame);
            case CONSUMER_UPDATE -> consumers.update((Frame.ConsumerUpdate) frame);
            case CREDIT -> consumers.credit((Frame.Credit) frame);
            case DRAIN -> consumers.drain((Frame.Drain) frame);
            case ACK -> acknowledgements.ack((Frame.Ack) frame);
            case RELEASE -> acknowledgements.release((Frame.Release) frame);
            case RECOVER -> recovery.recover((Frame.Recover) frame);
            case BROWSE -> browsing.browse((Frame.Browse) frame);
            case ADMIN -> admin.admin((Frame.Admin) frame);
            case DESTINATION_OP -> admin.destinationOp((Frame.DestinationOp) frame);
            case XA_START, XA_END, XA_PREPARE, XA_COMMIT, XA_ROLLBACK, XA_FORGET, XA_RECOVER -> xa.handle(frame);
            case PING -> replies.ok(frame.requestId());
            case CLOSE -> close((Frame.Close) frame);
            default -> replies.error(frame, ErrorCode.INVALID_REQUEST, "a client may not send " + frame.type());
        }
    }

    private void close(Frame.Close f) {
        // the connection's temporary destinations are gone before close() returns (JMS 6.2.2): another
        // connection's send right after must fail, not race the socket's teardown
        state.destinations().deleteAll();
        replies.answerThenClose(new Frame.Ok(f.requestId()));
    }

    /** The cluster agreed on the definition a held frame waited for (or failed to): the held frames are handled in order. */
    private void definitionAgreed(Throwable failure) {
        holding = false;
        if (failure != null) {
            Frame first = held.poll();
            Throwable cause =
                    failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
            replies.error(first, ErrorCode.INVALID_DESTINATION, cause.getMessage());
        }
        handleHeld();
    }

    private void handleHeld() {
        while (!holding && !held.isEmpty() && state.channel().isActive()) {
            process(held.poll());
        }
    }

    @Override
    public boolean holding() {
        return holding;
    }

    @Override
    public void hold() {
        holding = true;
    }

    @Override
    public void resume() {
        holding = false;
        handleHeld();
    }

    @Override
    public void drop() {
        holding = false;
        held.clear();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        node.closed(this);
        SendWindow window = state.sendWindow();
        if (window != null) {
            window.closed();
        }
        String user = state.user() == null ? "(anonymous)" : state.user();
        LOG.atDebug()
                .addKeyValue("event", "connection.closed")
                .addKeyValue("remote", state.remote())
                .addKeyValue("user", user)
                .addKeyValue("bytesIn", traffic.bytesIn())
                .addKeyValue("bytesOut", traffic.bytesOut())
                .log(
                        "connection from {} closed (user {}, {} bytes in, {} bytes out)",
                        state.remote(),
                        user,
                        traffic.bytesIn(),
                        traffic.bytesOut());
        sessions.closeAll();
        largeBodies.closeAll();
        broker.xa().connectionClosed(state.key());
        if (state.clientId() != null) {
            node.releaseClientId(state.clientId(), state.key());
        }
        state.destinations().deleteAll();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        FatalErrors.check(cause);
        Throwable c = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (c instanceof TooLongFrameException) {
            replies.fail(
                    ErrorCode.FRAME_TOO_LARGE,
                    state.open()
                            ? "frame exceeds the maximum frame size of " + node.maxFrameSize() + " bytes"
                            : "frame exceeds the " + node.limits().handshakeFrameBytes()
                                    + " bytes allowed before the handshake");
        } else if (c instanceof ProtocolException p) {
            replies.fail(p.code(), p.getMessage());
        } else if (c instanceof IOException) {
            LOG.debug("connection {} lost: {}", ctx.channel().remoteAddress(), c.toString());
            ctx.close();
        } else {
            EVENTS.warn(
                    "connection.error",
                    "closing connection {} after an unexpected error",
                    ctx.channel().remoteAddress(),
                    c);
            replies.fail(ErrorCode.INTERNAL, c.toString());
        }
    }
}
