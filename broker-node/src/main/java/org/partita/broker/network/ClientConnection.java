package org.partita.broker.network;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import org.partita.broker.core.Broker;
import org.partita.broker.core.BrokerQueue;
import org.partita.broker.core.ConsumerRef;
import org.partita.broker.core.DestinationAddress;
import org.partita.broker.core.MessageRef;
import org.partita.broker.core.QueueEntry;
import org.partita.broker.core.QueueFullException;
import org.partita.broker.core.QueueOptionConflictException;
import org.partita.broker.core.Subscription;
import org.partita.broker.core.SubscriptionConflictException;
import org.partita.broker.core.Subscriptions;
import org.partita.broker.core.UnknownDestinationException;
import org.partita.protocol.DestinationName;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;
import org.partita.protocol.FrameDecoder;
import org.partita.protocol.MessageCodec;
import org.partita.protocol.ProtocolException;
import org.partita.protocol.Protocol;
import org.partita.protocol.WireMessage;
import org.partita.protocol.selector.Selector;
import org.partita.protocol.selector.SelectorException;
import org.partita.broker.logging.RateLimitedLog;
import org.partita.broker.security.Operation;
import org.partita.broker.store.StoreUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One client connection: runs the protocol state machine of docs/protocol.md on the connection's
 * event loop and turns frames into calls on the broker core. Never blocks: store work completes
 * through futures that answer on the channel.
 */
final class ClientConnection extends SimpleChannelInboundHandler<Frame> {
    private static final Logger LOG = LoggerFactory.getLogger(ClientConnection.class);
    /** Events any client can repeat at will (bad frames, dropped sends): a burst must not flood the log. */
    private static final RateLimitedLog EVENTS = new RateLimitedLog(LOG);
    private static final int BROWSE_CHUNK_BYTES = 1024 * 1024;
    /** Bytes a DELIVER frame adds around a message: type, consumer id, delivery id, count, partition, length. */
    private static final int DELIVER_OVERHEAD = 1 + 4 + 8 + 4 + 4 + 4;

    private final Broker broker;
    private final NodeContext node;
    private final NodeMemory memory;
    /** Set by the handshake. */
    private SendWindow sendWindow;
    private final Map<Integer, ServerSession> sessions = new ConcurrentHashMap<>();
    private final Map<Integer, ServerConsumer> consumers = new ConcurrentHashMap<>();
    private final AtomicLong deliveryIds = new AtomicLong();
    private final Object connectionKey = new Object();
    private final ConnectionDestinations destinations;
    private final long connectionSerial;
    private final TrafficCounter traffic;
    private final long openedAt = System.currentTimeMillis();
    private Channel channel;
    private XaRequests xa;
    private boolean open;
    private volatile String clientId;
    private volatile String user;
    /** What this connection's user may do; node links and connections not yet logged in are not checked. */
    private volatile Access access = Access.UNCHECKED;
    /** The cluster member this connection is the node link of; null for a client. */
    private volatile String peerNode;
    /**
     * Frames that arrived while an earlier one waits for the cluster to agree on a queue definition:
     * handled in order once it is agreed, so a client's frames never overtake each other.
     */
    private final java.util.ArrayDeque<Frame> deferred = new java.util.ArrayDeque<>();
    private boolean deferring;

    ClientConnection(Broker broker, NodeContext node, TrafficCounter traffic, NodeMemory memory) {
        this.broker = broker;
        this.node = node;
        this.memory = memory;
        this.traffic = traffic;
        this.connectionSerial = node.nextTemporaryId();
        this.destinations = new ConnectionDestinations(broker, node);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        xa = new XaRequests(broker.xa(), connectionKey, this::session, channel);
        if (!node.opened(this)) {
            fail(ErrorCode.RESOURCE_EXHAUSTED, "the node has its maximum of " + node.limits().connections() + " connections");
            return;
        }
        long timeout = node.limits().handshakeTimeoutMillis();
        ctx.executor().schedule(() -> {
            if (!open && channel.isActive()) {
                fail(ErrorCode.AUTHENTICATION_FAILED, "no handshake within " + timeout + " ms");
            }
        }, timeout, java.util.concurrent.TimeUnit.MILLISECONDS);
        LOG.atDebug().addKeyValue("event", "connection.opened").addKeyValue("remote", remote())
                .log("connection opened from {}", remote());
        ctx.fireChannelActive();
    }

    /** The client's host address, without port: what login delays are kept per. */
    private String host() {
        return channel.remoteAddress() instanceof java.net.InetSocketAddress a
                ? a.getAddress().getHostAddress() : String.valueOf(channel.remoteAddress());
    }

    /** The client's address as {@code host:port}. */
    private String remote() {
        return channel.remoteAddress() instanceof java.net.InetSocketAddress a
                ? a.getAddress().getHostAddress() + ":" + a.getPort() : String.valueOf(channel.remoteAddress());
    }

    org.partita.broker.admin.ConnectionInfo info() {
        return new org.partita.broker.admin.ConnectionInfo(remote(), user, clientId, sessions.size(), consumers.size(),
                openedAt, traffic.bytesIn(), traffic.bytesOut());
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Frame frame) {
        if (deferring) {
            deferred.add(frame);
            return;
        }
        if (!open && !(frame instanceof Frame.Hello)) {
            fail(ErrorCode.ILLEGAL_STATE, "the first frame must be HELLO, not " + frame.type());
            return;
        }
        process(frame);
    }

    /** Handles one frame; a frame that must wait for the cluster stops the ones after it until it is done. */
    private void process(Frame frame) {
        try {
            handle(frame);
        } catch (org.partita.broker.core.DefinitionPendingException e) {
            deferring = true;
            deferred.addFirst(frame);
            e.agreed().whenComplete((v, t) -> channel.eventLoop().execute(() -> resume(t)));
        } catch (ProtocolException e) {
            if (e.code() == ErrorCode.MALFORMED_FRAME) {
                fail(e.code(), e.getMessage()); // a peer that sends garbage is not talked to further
            } else {
                reply(frame, e.code(), e.getMessage());
            }
        } catch (UnknownDestinationException e) {
            reply(frame, ErrorCode.UNKNOWN_DESTINATION, e.getMessage());
        } catch (SubscriptionConflictException e) {
            reply(frame, ErrorCode.ILLEGAL_STATE, e.getMessage());
        } catch (QueueFullException e) {
            reply(frame, frame instanceof Frame.Commit ? ErrorCode.TRANSACTION_ROLLED_BACK : ErrorCode.RESOURCE_EXHAUSTED,
                    e.getMessage());
        } catch (QueueOptionConflictException e) {
            reply(frame, ErrorCode.INVALID_DESTINATION, e.getMessage());
        } catch (IllegalArgumentException e) {
            reply(frame, ErrorCode.INVALID_REQUEST, e.getMessage());
        }
    }

    /** The cluster agreed (or failed to); the held frames are handled in order. */
    private void resume(Throwable failure) {
        deferring = false;
        if (failure != null) {
            Frame first = deferred.poll();
            Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            reply(first, ErrorCode.INVALID_DESTINATION, cause.getMessage());
        }
        processDeferred();
    }

    private void processDeferred() {
        while (!deferring && !deferred.isEmpty() && channel.isActive()) {
            process(deferred.poll());
        }
    }

    private void handle(Frame frame) {
        if (frame instanceof Frame.Hello f) {
            hello(f);
        } else if (frame instanceof Frame.Send f) {
            send(f);
        } else if (frame instanceof Frame.Ack f) {
            ack(f);
        } else if (frame instanceof Frame.Credit f) {
            if (f.messages() < 0) {
                reply(f, ErrorCode.INVALID_REQUEST, "credit must not be negative: " + f.messages());
                return;
            }
            ServerConsumer c = consumers.get(f.consumerId());
            if (c != null) {
                c.credit(f.messages());
            }
        } else if (frame instanceof Frame.Drain f) {
            ServerConsumer c = consumers.get(f.consumerId());
            if (c == null) {
                ok(f.requestId());
            } else {
                c.drain().thenRun(() -> ok(f.requestId()));
            }
        } else if (frame instanceof Frame.ConsumerUpdate f) {
            ServerConsumer c = consumers.get(f.consumerId());
            if (c == null) {
                reply(f, ErrorCode.ILLEGAL_STATE, "consumer " + f.consumerId() + " is not open");
                return;
            }
            CompletableFuture<Void> applied = c.update(f.priority() == Integer.MIN_VALUE ? null : f.priority(),
                    f.capacityMessages() < 0 ? null : f.capacityMessages(), f.capacityBytes() < 0 ? null : f.capacityBytes());
            if (f.spare() != Frame.ConsumerUpdate.UNCHANGED) {
                applied = c.spare(f.spare() == 1); // after the update on the queue's executor
            }
            applied.thenRun(() -> ok(f.requestId()));
        } else if (frame instanceof Frame.Release f) {
            release(f);
        } else if (frame instanceof Frame.SessionOpen f) {
            sessionOpen(f);
        } else if (frame instanceof Frame.SessionClose f) {
            ServerSession s = sessions.remove(f.sessionId());
            if (s != null) {
                closeSession(s);
            }
            ok(f.requestId());
        } else if (frame instanceof Frame.ConsumerOpen f) {
            consumerOpen(f);
        } else if (frame instanceof Frame.ConsumerClose f) {
            ServerConsumer c = consumers.remove(f.consumerId());
            if (c != null) {
                c.session().consumers().remove(c.id());
                c.close();
            }
            ok(f.requestId());
        } else if (frame instanceof Frame.Forward f) {
            forward(f);
        } else if (frame instanceof Frame.Recover f) {
            recover(f);
        } else if (frame instanceof Frame.Commit f) {
            commit(f);
        } else if (frame instanceof Frame.Rollback f) {
            rollback(f);
        } else if (frame instanceof Frame.Browse f) {
            browse(f);
        } else if (frame instanceof Frame.DestinationOp f) {
            destinationOp(f);
        } else if (frame instanceof Frame.Admin f) {
            authorizeAdmin(f);
            node.admin().run(f.command(), f.argument(), new org.partita.broker.admin.AdminCaller(user, remote())).whenComplete((body, t) -> {
                if (t == null) {
                    channel.writeAndFlush(new Frame.AdminReply(f.requestId(), body), channel.voidPromise());
                } else {
                    Throwable c = t instanceof java.util.concurrent.CompletionException && t.getCause() != null ? t.getCause() : t;
                    reply(f, ErrorCode.INTERNAL, c.getMessage());
                }
            });
        } else if (frame instanceof Frame.Ping f) {
            ok(f.requestId());
        } else if (frame instanceof Frame.Close f) {
            // the connection's temporary destinations are gone before close() returns (JMS 6.2.2): another
            // connection's send right after must fail, not race the socket's teardown
            destinations.deleteAll();
            channel.writeAndFlush(new Frame.Ok(f.requestId())).addListener(ChannelFutureListener.CLOSE);
        } else if (!xa.handle(frame)) {
            reply(frame, ErrorCode.INVALID_REQUEST, "a client may not send " + frame.type());
        }
    }

    private void hello(Frame.Hello f) {
        if (open || deferring) {
            reply(f, ErrorCode.ILLEGAL_STATE, "HELLO was already received");
            return;
        }
        if (f.version() < Protocol.OLDEST_VERSION || f.version() > Protocol.VERSION) {
            failRequest(f.requestId(), ErrorCode.UNSUPPORTED_VERSION, "protocol version " + f.version()
                    + " is not supported; this node speaks " + Protocol.OLDEST_VERSION + " to " + Protocol.VERSION);
            return;
        }
        ClusterFront cluster = node.cluster();
        if (cluster != null) {
            try {
                peerNode = cluster.linkingNode(f.user(), f.password());
            } catch (SecurityException e) {
                EVENTS.log(org.slf4j.event.Level.WARN, "login.failed", Map.of("user", f.user(), "remote", remote()),
                        "node link refused from {}: {}", remote(), e.getMessage());
                failRequest(f.requestId(), ErrorCode.AUTHENTICATION_FAILED, e.getMessage());
                return;
            }
        }
        if (peerNode != null) {
            accept(f);
            return;
        }
        // The password check runs on the login pool, never here; frames sent after HELLO wait for its answer.
        CompletableFuture<String> checked = node.logins().check(host(), f.user(), f.password());
        if (checked.isDone()) {
            loggedIn(f, checked.getNow(null), null);
            return;
        }
        deferring = true;
        checked.whenComplete((refusal, t) -> channel.eventLoop().execute(() -> loggedIn(f, refusal, t)));
    }

    /** The login pool answered: the connection opens, or is refused and closed. */
    private void loggedIn(Frame.Hello f, String refusal, Throwable failure) {
        deferring = false;
        if (!channel.isActive()) {
            return; // the client left while its login was checked
        }
        String who = f.user() == null ? "(none)" : f.user();
        if (failure != null) {
            deferred.clear();
            Throwable c = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            EVENTS.log(org.slf4j.event.Level.WARN, "login.busy", Map.of("user", who, "remote", remote()),
                    "login of user {} from {} not checked: {}", who, remote(), c.getMessage());
            failRequest(f.requestId(), ErrorCode.RESOURCE_EXHAUSTED, c.getMessage());
            return;
        }
        if (refusal != null) {
            deferred.clear();
            // rate limited: anyone can make the node refuse logins, and must not fill its disk with log
            EVENTS.log(org.slf4j.event.Level.INFO, "login.failed", Map.of("user", who, "remote", remote(), "reason", refusal),
                    "login refused for user {} from {}: {}", who, remote(), refusal);
            failRequest(f.requestId(), ErrorCode.AUTHENTICATION_FAILED, refusal);
            return;
        }
        if (accept(f)) {
            processDeferred();
        } else {
            deferred.clear();
        }
    }

    /** Opens the connection once its login is accepted; false if its client id is taken. */
    private boolean accept(Frame.Hello f) {
        String name = f.user() == null || f.user().isEmpty() ? null : f.user();
        Access granted = peerNode != null ? Access.UNCHECKED : new Access(name, node.authorizer());
        if (f.clientId() != null) {
            try {
                granted.require(Operation.CLIENT_ID, "client id", f.clientId());
            } catch (ProtocolException e) {
                failRequest(f.requestId(), e.code(), e.getMessage());
                return false;
            }
        }
        if (f.clientId() != null && !node.claimClientId(f.clientId(), connectionKey)) {
            failRequest(f.requestId(), ErrorCode.INVALID_CLIENT_ID, "client id '" + f.clientId() + "' is already in use on this node");
            return false;
        }
        clientId = f.clientId();
        user = name;
        access = granted;
        destinations.access(granted);
        open = true;
        FrameDecoder decoder = channel.pipeline().get(FrameDecoder.class);
        if (decoder != null) {
            decoder.acceptUpTo(node.maxFrameSize());
        }
        channel.writeAndFlush(new Frame.HelloOk(f.requestId(), f.version(), node.nodeName(), node.maxFrameSize()));
        sendWindow = new SendWindow(channel, memory, new ConsumptionPace(node.limits().pacedBacklogBytes()),
                node.limits().producerWindowBytes(),
                f.version() >= Protocol.SEND_CREDIT_VERSION);
        sendWindow.open();
        return true;
    }

    private void sessionOpen(Frame.SessionOpen f) {
        if (sessions.size() >= node.limits().sessionsPerConnection()) {
            reply(f, ErrorCode.RESOURCE_EXHAUSTED, "a connection may have at most "
                    + node.limits().sessionsPerConnection() + " sessions open");
            return;
        }
        if (sessions.putIfAbsent(f.sessionId(), new ServerSession(f.sessionId(), f.transacted(), deliveryIds)) != null) {
            reply(f, ErrorCode.ILLEGAL_STATE, "session " + f.sessionId() + " is already open");
            return;
        }
        ok(f.requestId());
    }

    /** Counts the send against the connection's window until the node is done with it. */
    private void send(Frame.Send f) {
        int bytes = f.message().length;
        sendWindow.received(bytes);
        CompletableFuture<Handled> handled;
        try {
            handled = handleSend(f);
        } catch (RuntimeException e) {
            sendWindow.handled(bytes, true, List.of());
            throw e;
        }
        handled.whenComplete((h, t) -> {
            boolean persistent = h == null || h.persistent();
            sendWindow.handled(bytes, persistent, persistent ? List.of() : h.queued());
        });
    }

    /** How a send ended, for its credit: a non-persistent message queued names its queues, whose consumers pace it. */
    private record Handled(boolean persistent, List<BrokerQueue> queued) {
    }

    private CompletableFuture<Handled> handleSend(Frame.Send f) {
        ServerSession session = session(f.sessionId());
        if (f.message().length > node.limits().messageBytes()) {
            // refused whole, with the connection left open: a message this large would not fit in the node's heap
            reply(f, ErrorCode.RESOURCE_EXHAUSTED, "message of " + f.message().length + " bytes is larger than the "
                    + node.limits().messageBytes() + " bytes this node takes (limits.messageBytes, a share of its heap);"
                    + " the message was not taken");
            return DONE;
        }
        if (f.message().length > node.maxFrameSize() - DELIVER_OVERHEAD) {
            reply(f, ErrorCode.RESOURCE_EXHAUSTED, "message of " + f.message().length
                    + " bytes is too large to be delivered within the maximum frame size of " + node.maxFrameSize() + " bytes");
            return DONE;
        }
        WireMessage wire = MessageCodec.decodeHeaders(f.message());
        DestinationName dest = destination(wire.destination());
        authorize(Operation.SEND, dest);
        if (!wire.persistent() && memory.nonPersistentOverrun()) {
            // a client that honours its credit never gets here: this one sends past it
            reply(f, ErrorCode.RESOURCE_EXHAUSTED, "the node holds its maximum of non-persistent messages ("
                    + node.limits().nonPersistentBytes() + " bytes); the message was not taken");
            return DONE;
        }
        if (session.branch() != null) {
            if (!memory.admitTransacted(f.message().length)) {
                reply(f, ErrorCode.RESOURCE_EXHAUSTED, openTransactionsFull("end the XA branch and roll it back"));
                return DONE;
            }
            // given back by the branch once it no longer holds its sends
            if (!broker.xa().admit(session.branch(), f.message().length, node.limits().transactionBytes(),
                    memory::transactionEnded)) {
                memory.transactionEnded(f.message().length);
                reply(f, ErrorCode.RESOURCE_EXHAUSTED, "the XA branch would hold more than "
                        + node.limits().transactionBytes() + " bytes; end it and roll it back (the message was not added)");
                return DONE;
            }
        }
        if (session.transacted() && session.txBytes() + f.message().length > node.limits().transactionBytes()) {
            reply(f, ErrorCode.RESOURCE_EXHAUSTED, "the transaction would hold more than "
                    + node.limits().transactionBytes() + " bytes; commit or roll it back (the message was not added)");
            return DONE;
        }
        MessageRef message = broker.newMessage(f.message(), wire, connectionKey);
        Broker.PendingSend send = Broker.PendingSend.routed(destinations.targets(dest, message), message);
        if (session.branch() != null) {
            broker.xa().addSend(session.branch(), send); // dropped if the branch already rolled back
            ok(f.requestId());
            return DONE;
        }
        if (session.transacted()) {
            if (!memory.admitTransacted(f.message().length)) {
                // node-wide: many sessions each with a large open transaction must not fill the heap
                reply(f, ErrorCode.RESOURCE_EXHAUSTED, openTransactionsFull("commit or roll back"));
                return DONE;
            }
            session.txSends().add(send);
            session.addTxBytes(f.message().length);
            ok(f.requestId());
            return DONE;
        }
        CompletableFuture<Void> stored = broker.send(send);
        answer(f, stored);
        boolean persistent = wire.persistent();
        return stored.handle((v, t) -> new Handled(persistent, t == null ? send.targets() : List.of()));
    }

    private String openTransactionsFull(String what) {
        return "the node's open transactions would hold more than " + memory.openTransactionLimit()
                + " bytes (limits.openTransactionBytes); " + what + " (the message was not added)";
    }

    private static final Handled NOT_QUEUED = new Handled(true, List.of());
    private static final CompletableFuture<Handled> DONE = CompletableFuture.completedFuture(NOT_QUEUED);

    /**
     * Another node hands over a message of a clustered queue whose partition this node hosts. Stored
     * like a persistent send; a message that node forwarded before (it may repeat one after a crash)
     * is taken once.
     */
    private void forward(Frame.Forward f) {
        if (peerNode == null) {
            reply(f, ErrorCode.INVALID_REQUEST, "only the nodes of the cluster forward messages");
            return;
        }
        WireMessage wire = MessageCodec.decodeHeaders(f.message());
        BrokerQueue queue = broker.existingQueue(f.queue());
        if (queue == null) {
            reply(f, ErrorCode.UNKNOWN_DESTINATION, "queue '" + f.queue() + "' is not defined on node " + node.nodeName() + " yet");
            return;
        }
        MessageRef message = broker.newMessage(f.message(), wire, connectionKey);
        if (!queue.hostsPartitionOf(message)) {
            // The sender applied a layout change first; it keeps the message and tries again shortly,
            // by when this node has applied the change too (refused like a queue not defined yet).
            reply(f, ErrorCode.UNKNOWN_DESTINATION, "queue '" + f.queue() + "' has no partition for this message on node "
                    + node.nodeName() + " yet: its layout here is older than the sender's");
            return;
        }
        // Two copies may come at once: one the node sent over a link it then gave up as down (read
        // here only now), and the retry over the new link.
        answer(f, node.cluster().storeOnce(peerNode, wire.messageId(), () -> broker.send(new Broker.PendingSend(
                List.of(queue), message, f.deliveryCount())).thenRun(() -> { })));
    }

    private void consumerOpen(Frame.ConsumerOpen f) {
        ServerSession session = session(f.sessionId());
        Selector selector;
        try {
            selector = Selector.parse(f.selector());
        } catch (SelectorException e) {
            reply(f, ErrorCode.INVALID_SELECTOR, e.getMessage());
            return;
        }
        DestinationName dest = destination(f.destination());
        if (f.subscription() != null) {
            checkNameLength(f.subscription(), "subscription name");
        }
        if (consumers.containsKey(f.consumerId())) {
            reply(f, ErrorCode.ILLEGAL_STATE, "consumer " + f.consumerId() + " is already open");
            return;
        }
        if (f.credit() < 0) {
            reply(f, ErrorCode.INVALID_REQUEST, "credit must not be negative: " + f.credit());
            return;
        }
        if (consumers.size() >= node.limits().consumersPerConnection()) {
            reply(f, ErrorCode.RESOURCE_EXHAUSTED, "a connection may have at most "
                    + node.limits().consumersPerConnection() + " consumers open");
            return;
        }
        destinations.checkConsumable(dest);
        if (f.durable()) {
            authorize(Operation.DURABLE, dest);
        }
        authorize(Operation.CONSUME, dest);
        BrokerQueue queue;
        Selector consumerSelector = selector;
        Subscription subscription = null;
        DestinationAddress address = DestinationAddress.parse(dest.name());
        int priority = address.priority(); // checked before anything is created
        int capacity = address.capacity();
        long capacityBytes = address.capacityBytes();
        if (dest.kind().isQueue()) {
            queue = destinations.consumerQueue(dest, address);
        } else {
            subscription = subscribe(f, dest);
            queue = subscription.queue();
            consumerSelector = Selector.matchAll(); // a subscription's selector filters at routing
        }
        ServerConsumer consumer = new ServerConsumer(f.consumerId(), session, queue, channel, subscription, broker.subscriptions());
        // The admin view names the owner of each partition: a relayed consumer by the node it serves.
        String owner = peerNode != null ? "node " + peerNode : String.valueOf(channel.remoteAddress());
        ConsumerRef ref = new ConsumerRef("consumer " + f.consumerId() + " of " + owner, consumer,
                consumerSelector, f.credit(), priority);
        if (capacity > 0 || capacityBytes > 0) {
            queue.update(ref, null, capacity, capacityBytes);
        }
        consumer.bind(ref);
        if (peerNode != null) {
            ref.origin(peerNode); // another node's consumer: the scope of a clustered queue ranks it
        } else if (node.cluster() != null && dest.kind().isQueue()) {
            consumer.feed(node.cluster().openFeed(queue, f.destination(), f.selector(), f.credit(), consumer));
        }
        consumers.put(f.consumerId(), consumer);
        session.consumers().put(f.consumerId(), consumer);
        // answered once the consumer takes part in dispatch: what is sent after createConsumer returns reaches it
        queue.attach(ref).thenRun(() -> ok(f.requestId()));
    }

    private Subscription subscribe(Frame.ConsumerOpen f, DestinationName topic) {
        Subscriptions subs = broker.subscriptions();
        if (f.durable()) {
            if (!f.shared() && clientId == null) {
                throw new ProtocolException(ErrorCode.ILLEGAL_STATE, "an unshared durable subscription needs a client id");
            }
            return subs.openDurable(clientId, f.subscription(), topic.name(), f.selector(), f.noLocal(), f.shared(), connectionKey);
        }
        if (f.shared()) {
            return subs.openShared(clientId, f.subscription(), topic.name(), f.selector());
        }
        String name = "subscriber:" + node.nodeName() + ":" + connectionSerial + ":" + f.consumerId();
        return subs.openPrivate(name, topic.name(), f.selector(), f.noLocal(), connectionKey);
    }

    private void ack(Frame.Ack f) {
        ServerSession session = session(f.sessionId());
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
        answer(f, CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)));
    }

    /** A delivery consumed in an XA branch: one of this node's is held by the branch, another node's settled after it. */
    private void inBranch(org.partita.broker.core.xa.XaBranch branch, Delivery d) {
        if (d instanceof LocalDelivery l) {
            broker.xa().addConsumed(branch, new Broker.Consumed(l.entry(), l.consumer().ref()));
        } else {
            broker.xa().addOutside(branch, new org.partita.broker.core.xa.OutsideWork() {
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

    private void release(Frame.Release f) {
        ServerSession session = session(f.sessionId());
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
        ok(f.requestId());
    }

    private void recover(Frame.Recover f) {
        ServerSession session = session(f.sessionId());
        java.util.Set<Long> seen = new java.util.HashSet<>();
        for (long id : f.seen()) {
            seen.add(id);
        }
        // Other nodes' deliveries still on the wire are held before the fence is taken; each feed is then
        // recovered as a whole on its nodes, which fence it as this node fences the session.
        java.util.Set<RemoteFeed> feeds = new java.util.LinkedHashSet<>();
        List<ServerConsumer> consumers = new ArrayList<>(session.consumers().values());
        for (ServerConsumer c : consumers) {
            if (c.feed() != null) {
                c.feed().holdDeliveries();
                feeds.add(c.feed());
            }
        }
        // This node's queues stop delivering to the session first, and the fence waits until each has:
        // a dispatch pass still running when it is taken could add a key's later messages after it,
        // and those would reach the application ahead of the earlier ones handed back.
        CompletableFuture.allOf(consumers.stream().map(ServerConsumer::hold).toArray(CompletableFuture[]::new))
                .whenComplete((v, t) -> onLoop(() -> {
                    try {
                        recoverHeld(f, session, seen, feeds);
                    } catch (RuntimeException e) {
                        // no longer inside the frame's handling: answered here, or the client would wait
                        LOG.warn("recover of session {} failed", f.sessionId(), e);
                        reply(f, ErrorCode.INTERNAL, "recover failed: " + e);
                    } finally {
                        consumers.forEach(ServerConsumer::resume); // after the releases, on each queue
                    }
                }));
    }

    private void onLoop(Runnable r) {
        if (channel.eventLoop().inEventLoop()) {
            r.run();
        } else {
            channel.eventLoop().execute(r);
        }
    }

    /** The rest of a recover, once no queue of this node delivers to the session any more. */
    private void recoverHeld(Frame.Recover f, ServerSession session, java.util.Set<Long> seen, java.util.Set<RemoteFeed> feeds) {
        List<Delivery> all = new ArrayList<>();
        long fence = session.voidAll(all);
        all.sort(java.util.Comparator.comparingLong(Delivery::id));
        List<Delivery> local = new ArrayList<>();
        java.util.Map<RemoteFeed, List<RemoteFeed.Handle>> seenRemote = new java.util.HashMap<>();
        for (Delivery d : all) {
            if (d instanceof RemoteDelivery r && !feeds.contains(r.handle().feed())) {
                d.release(seen.contains(d.id())); // its consumer closed: its feed is not recovered as a whole
            } else if (d instanceof RemoteDelivery r) {
                if (seen.contains(d.id())) {
                    seenRemote.computeIfAbsent(r.handle().feed(), k -> new ArrayList<>()).add(r.handle());
                }
            } else {
                local.add(d);
            }
        }
        // what a transaction acknowledged from other nodes is given back now, as seen, with its feed
        session.txConsumed().removeIf(d -> {
            if (d instanceof RemoteDelivery r && feeds.contains(r.handle().feed())) {
                seenRemote.computeIfAbsent(r.handle().feed(), k -> new ArrayList<>()).add(r.handle());
                return true;
            }
            return false;
        });
        Delivery.releaseAll(local, d -> seen.contains(d.id()));
        for (RemoteFeed feed : feeds) {
            feed.recover(seenRemote.getOrDefault(feed, List.of()));
        }
        session.closeIdleFeeds();
        channel.writeAndFlush(new Frame.Recovered(f.requestId(), fence), channel.voidPromise());
    }

    private void commit(Frame.Commit f) {
        ServerSession session = session(f.sessionId());
        if (!session.transacted()) {
            throw new ProtocolException(ErrorCode.ILLEGAL_STATE, "session " + f.sessionId() + " is not transacted: nothing to commit");
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
            reply(f, ErrorCode.TRANSACTION_ROLLED_BACK, "queue '" + changing + "' is changing its partitions or hosts;"
                    + " a transaction that consumed messages cannot send to it until the change is done; the transaction"
                    + " was rolled back");
            return;
        }
        try {
            // What came from other nodes is acknowledged there once the commit here is durable: a crash
            // in between redelivers it (at least once across nodes; docs/cluster.md).
            CompletableFuture<Void> stored = broker.commit(sends, consumed);
            CompletableFuture<Void> settled = stored.thenCompose(v -> CompletableFuture.allOf(consumedDeliveries.stream()
                    .filter(d -> d instanceof RemoteDelivery).map(Delivery::ack).toArray(CompletableFuture[]::new)));
            answer(f, settled);
            if (session.hasClosedFeeds()) {
                // a closed consumer's sessions on other nodes may end once their messages were acknowledged
                // there; checked only then, so an ordinary commit costs no extra wake-up of this loop
                settled.whenComplete((v, t) -> onLoop(session::closeIdleFeeds));
            }
            stored.whenComplete((v, t) -> {
                if (t != null) {
                    // nothing of it was stored: rolled back, so what it consumed comes back, as for a full queue
                    channel.eventLoop().execute(() -> consumedDeliveries.forEach(d -> d.release(true)));
                }
            });
        } catch (QueueFullException e) {
            // The transaction cannot commit: it is rolled back, so what it consumed comes back.
            consumedDeliveries.forEach(d -> d.release(true));
            reply(f, ErrorCode.TRANSACTION_ROLLED_BACK, e.getMessage() + "; the transaction was rolled back");
        }
    }

    private void rollback(Frame.Rollback f) {
        ServerSession session = session(f.sessionId());
        rollback(session);
        ok(f.requestId());
    }

    private void rollback(ServerSession session) {
        session.txSends().clear();
        memory.transactionEnded(session.clearTxBytes());
        Delivery.releaseAll(session.txConsumed(), d -> true);
        session.txConsumed().clear();
        session.closeIdleFeeds();
    }

    private void browse(Frame.Browse f) {
        Selector selector;
        try {
            selector = Selector.parse(f.selector());
        } catch (SelectorException e) {
            reply(f, ErrorCode.INVALID_SELECTOR, e.getMessage());
            return;
        }
        DestinationName dest = destination(f.destination());
        if (!dest.kind().isQueue()) {
            reply(f, ErrorCode.INVALID_REQUEST, "only queues can be browsed: " + dest);
            return;
        }
        authorize(Operation.BROWSE, dest);
        // Async on the broker's pool, never inline on this event loop: reading paged-out messages
        // back is an H2 call, and a browse that finished fast would otherwise run it right here.
        DestinationAddress address = DestinationAddress.parse(dest.name());
        // orders?appId=billing browses the AppId's queue; plain names browse the queue itself
        BrokerQueue browsed = dest.kind() == DestinationName.Kind.QUEUE && address.consumerOptions().containsKey("appId")
                ? destinations.consumerQueue(dest, address) : destinations.queue(dest);
        browsed.browse(selector).whenCompleteAsync((messages, t) -> {
            if (t != null) {
                reply(f, ErrorCode.INTERNAL, t.toString());
                return;
            }
            List<byte[]> chunk = new ArrayList<>();
            int bytes = 0;
            for (MessageRef m : messages) {
                byte[] encoded = browsable(m);
                if (encoded == null) {
                    continue;
                }
                if (!chunk.isEmpty() && bytes + encoded.length > BROWSE_CHUNK_BYTES) {
                    // flushed chunk by chunk: a deep backlog of paged-out messages must not pile up here
                    channel.writeAndFlush(new Frame.BrowseChunk(f.requestId(), chunk, false), channel.voidPromise());
                    chunk = new ArrayList<>();
                    bytes = 0;
                }
                chunk.add(encoded);
                bytes += encoded.length;
            }
            channel.writeAndFlush(new Frame.BrowseChunk(f.requestId(), chunk, true));
        }, broker.pool());
    }

    /** The bytes of a browsed message, or null if it was consumed and deleted since the snapshot. */
    private static byte[] browsable(MessageRef m) {
        try {
            return m.encoded();
        } catch (IllegalStateException consumedMeanwhile) {
            return null;
        }
    }

    private void destinationOp(Frame.DestinationOp f) {
        switch (f.op()) {
            case Frame.OP_SET_CLIENT_ID -> {
                if (clientId != null) {
                    reply(f, ErrorCode.ILLEGAL_STATE, "this connection already has client id '" + clientId + "'");
                } else if (f.name() != null && !f.name().isEmpty() && denied(Operation.CLIENT_ID, f.name())) {
                    throw access.refusal(Operation.CLIENT_ID, "client id", f.name());
                } else if (f.name() == null || f.name().isEmpty() || !node.claimClientId(f.name(), connectionKey)) {
                    reply(f, ErrorCode.INVALID_CLIENT_ID, "client id '" + f.name() + "' is already in use on this node");
                } else {
                    clientId = f.name();
                    ok(f.requestId());
                }
            }
            case Frame.OP_CREATE_TEMP_QUEUE ->
                    channel.writeAndFlush(new Frame.Created(f.requestId(), destinations.createTemporaryQueue()), channel.voidPromise());
            case Frame.OP_CREATE_TEMP_TOPIC ->
                    channel.writeAndFlush(new Frame.Created(f.requestId(), destinations.createTemporaryTopic()), channel.voidPromise());
            case Frame.OP_DELETE_TEMP -> {
                DestinationName d = DestinationName.parse(f.name());
                if (destinations.deleteTemporary(d)) {
                    ok(f.requestId());
                } else {
                    reply(f, ErrorCode.ILLEGAL_STATE, d + " is not a temporary destination of this connection");
                }
            }
            case Frame.OP_DECLARE_QUEUE -> {
                DestinationName d = destination(f.name());
                if (d.kind() != DestinationName.Kind.QUEUE) {
                    reply(f, ErrorCode.INVALID_REQUEST, "only queues are declared, not " + d);
                } else {
                    destinations.queue(d);
                    ok(f.requestId());
                }
            }
            case Frame.OP_UNSUBSCRIBE -> {
                String topic = broker.subscriptions().durableTopic(clientId, f.name());
                if (topic != null) {
                    access.require(Operation.DURABLE, "topic", topic);
                }
                broker.subscriptions().unsubscribe(clientId, f.name());
                ok(f.requestId());
            }
            default -> reply(f, ErrorCode.INVALID_REQUEST, "destination operation " + f.op() + " is not supported");
        }
    }

    /** A destination named by the client, within the node's name length limit and partition count limit. */
    private DestinationName destination(String encoded) {
        DestinationName d = DestinationName.parse(encoded);
        DestinationAddress address = DestinationAddress.parse(d.name());
        checkNameLength(address.name(), "destination name");
        int partitions = org.partita.broker.core.QueueOptions.parse(address.queueOptions(),
                org.partita.broker.core.QueueOptions.DEFAULTS).partitions();
        if (partitions > node.limits().partitionsPerQueue()) {
            throw new IllegalArgumentException("a queue may have at most " + node.limits().partitionsPerQueue()
                    + " partitions, not " + partitions);
        }
        return d;
    }

    private void checkNameLength(String name, String what) {
        int max = node.limits().destinationNameLength();
        if (name.length() > max) {
            throw new IllegalArgumentException("a " + what + " may have at most " + max + " characters, not " + name.length());
        }
    }


    /** Refuses the operation unless this connection's user may perform it on {@code dest}; temporary destinations are open. */
    private void authorize(Operation operation, DestinationName dest) {
        if (dest.kind().isTemporary()) {
            return; // only their connection consumes from them (checked apart); replies may come from anyone
        }
        boolean queue = dest.kind().isQueue();
        access.require(operation, queue ? "queue" : "topic", queue ? DestinationAddress.parse(dest.name()).name() : dest.name());
    }

    private boolean denied(Operation operation, String name) {
        try {
            access.require(operation, "client id", name);
            return false;
        } catch (ProtocolException e) {
            return true;
        }
    }

    /**
     * Admin commands need the manage permission on the queues they act on, or on the whole node.
     * A node without users knows no one, so it takes them from its own machine only.
     */
    private void authorizeAdmin(Frame.Admin f) {
        if (peerNode != null) {
            return;
        }
        if (!node.checksPasswords() && !isLoopback()) {
            throw new ProtocolException(ErrorCode.NOT_AUTHORIZED, "not authorized: admin command " + f.command() + " from "
                    + remote() + " refused; a node without a users file takes admin commands from its own machine only");
        }
        for (String queue : org.partita.broker.admin.AdminTargets.of(f.command(), f.argument())) {
            access.require(Operation.MANAGE, "queue", queue);
        }
    }

    private boolean isLoopback() {
        return channel.remoteAddress() instanceof java.net.InetSocketAddress a && a.getAddress() != null
                && a.getAddress().isLoopbackAddress();
    }

    private ServerSession session(int id) {
        ServerSession s = sessions.get(id);
        if (s == null) {
            throw new ProtocolException(ErrorCode.ILLEGAL_STATE, "session " + id + " is not open");
        }
        return s;
    }

    /** Ends a session: its consumers stop, its unsettled deliveries come back as redelivered. */
    private void closeSession(ServerSession s) {
        for (ServerConsumer c : s.consumers().values()) {
            consumers.remove(c.id());
            c.close();
        }
        s.consumers().clear();
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

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        node.closed(this);
        if (sendWindow != null) {
            sendWindow.closed();
        }
        LOG.atDebug().addKeyValue("event", "connection.closed").addKeyValue("remote", remote()).addKeyValue("user", user == null ? "(anonymous)" : user)
                .addKeyValue("bytesIn", traffic.bytesIn()).addKeyValue("bytesOut", traffic.bytesOut())
                .log("connection from {} closed (user {}, {} bytes in, {} bytes out)", remote(),
                        user == null ? "(anonymous)" : user, traffic.bytesIn(), traffic.bytesOut());
        for (ServerSession s : sessions.values()) {
            closeSession(s);
        }
        sessions.clear();
        broker.xa().connectionClosed(connectionKey);
        if (clientId != null) {
            node.releaseClientId(clientId, connectionKey);
        }
        destinations.deleteAll();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        org.partita.broker.process.FatalErrors.check(cause);
        Throwable c = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (c instanceof TooLongFrameException) {
            fail(ErrorCode.FRAME_TOO_LARGE, open ? "frame exceeds the maximum frame size of " + node.maxFrameSize() + " bytes"
                    : "frame exceeds the " + node.limits().handshakeFrameBytes() + " bytes allowed before the handshake");
        } else if (c instanceof ProtocolException p) {
            fail(p.code(), p.getMessage());
        } else if (c instanceof java.io.IOException) {
            LOG.debug("connection {} lost: {}", ctx.channel().remoteAddress(), c.toString());
            ctx.close();
        } else {
            EVENTS.warn("connection.error", "closing connection {} after an unexpected error", ctx.channel().remoteAddress(), c);
            fail(ErrorCode.INTERNAL, c.toString());
        }
    }

    private void answer(Frame request, CompletableFuture<Void> future) {
        future.whenComplete((v, t) -> {
            if (t == null) {
                ok(request.requestId());
            } else {
                org.partita.broker.process.FatalErrors.check(t);
                Throwable cause = t instanceof java.util.concurrent.CompletionException && t.getCause() != null ? t.getCause() : t;
                // a storage fault is a resource the client may wait for (ResourceAllocationException), not a bug
                if (request instanceof Frame.Commit && (cause instanceof StoreUnavailableException
                        || cause instanceof QueueFullException)) {
                    reply(request, ErrorCode.TRANSACTION_ROLLED_BACK, cause.getMessage() + "; the transaction was rolled back");
                } else {
                    // a send held while a clustered queue's layout changed may find its queue full when it goes on
                    reply(request, cause instanceof StoreUnavailableException || cause instanceof QueueFullException
                                    ? ErrorCode.RESOURCE_EXHAUSTED : ErrorCode.INTERNAL,
                            cause.getMessage());
                }
            }
        });
    }

    /**
     * Answers go in order with the deliveries other threads queued to this connection before (see
     * {@link InOrderWrites}): an answer completed here, on the connection's thread, by a future another
     * thread had already completed (a DRAIN whose queue ran it at once) would otherwise overtake the
     * delivery that queue had just queued, and a receiveNoWait with prefetch 0 missed its message.
     */
    private void ok(int requestId) {
        if (requestId != 0) {
            InOrderWrites.writeAndFlush(channel, new Frame.Ok(requestId));
        }
    }

    /**
     * Answers a failed request with ERROR; a request that asked for no answer (request id 0, such as
     * a non-persistent send) is told of with REQUEST_FAILED, so the client's ExceptionListener hears of it.
     */
    private void reply(Frame request, ErrorCode code, String message) {
        if (request.requestId() == 0) {
            EVENTS.info("message.dropped", "{} without confirmation from {} dropped: {} {}", request.type(),
                    channel.remoteAddress(), code, message);
            channel.writeAndFlush(new Frame.RequestFailed(request.type().code(), code, message), channel.voidPromise());
            return;
        }
        // Written at once, not queued like ok(): a refused send's error must reach the client ahead of
        // the SEND_CREDIT that gives its bytes back (SendWindow writes at once), or the client goes
        // on sending past a transaction's bound before it hears of the refusal.
        channel.writeAndFlush(new Frame.Error(request.requestId(), code, message), channel.voidPromise());
    }

    /** Answers a request with an error, then closes the connection (handshake refusals). */
    private void failRequest(int requestId, ErrorCode code, String message) {
        channel.writeAndFlush(new Frame.Error(requestId, code, message)).addListener(ChannelFutureListener.CLOSE);
    }

    /** A connection-level error: an ERROR frame with request id 0, then close. */
    private void fail(ErrorCode code, String message) {
        EVENTS.info("connection.refused", "closing connection {}: {} {}", channel.remoteAddress(), code, message);
        failRequest(0, code, message);
    }
}
