package org.partita.jms.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;
import org.partita.jms.api.PartitaErrorCodes;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;
import org.partita.protocol.FrameDecoder;
import org.partita.protocol.Protocol;
import org.partita.protocol.ProtocolException;

/** {@link BrokerConnection} over TCP with Netty: frames of docs/protocol.md, answers matched by request id. */
public final class NettyBrokerConnection implements BrokerConnection {
    private final Channel channel;
    private final FrameWriter writer;
    private final NonZeroIds requestIds = new NonZeroIds();
    private final Map<Integer, CompletableFuture<Frame>> pending = new ConcurrentHashMap<>();
    private final Map<Integer, List<byte[]>> browsing = new ConcurrentHashMap<>();
    private final AtomicBoolean failed = new AtomicBoolean();
    private volatile boolean closing;
    private volatile ConnectionListener listener;
    private volatile BrokerError failure;
    private volatile String nodeName;
    /** The node takes a consumer's byte window (version 5): one before it would refuse the open. */
    private volatile boolean consumerWindows;
    /** Whether the node takes large bodies in parts (protocol 6 on). */
    private volatile boolean largeBodies;

    private final NonZeroIds uploadIds = new NonZeroIds();
    private volatile int nodeMaxFrameSize = Protocol.DEFAULT_MAX_FRAME_SIZE;

    private final SendCredit sendCredit = new SendCredit();
    /** Completes at the node's first frame, or when the connection fails: see {@link #firstAnswer}. */
    private final CompletableFuture<Void> answered = new CompletableFuture<>();

    private final int maxFrameSize;
    /** host:port, as the application named it. */
    private final String address;

    /** When (System.nanoTime) a frame last came from the node. */
    private volatile long lastHeardNanos = System.nanoTime();
    /** The delivery lease the node announced, in nanoseconds; 0: none. */
    private volatile long leaseNanos;
    /** The ping asking the node to be heard from again, while one is on its way. */
    private volatile CompletableFuture<Void> leasePing;
    /** When the node last answered after being unresponsive longer than an election (see {@link #unresponsiveUntil}). */
    private volatile long unresponsiveUntil = Long.MIN_VALUE;

    /** 0 when the connection has no heartbeat. */
    private final long heartbeatMillis;

    private NettyBrokerConnection(
            Channel channel, FrameWriter writer, int maxFrameSize, String address, long heartbeatMillis) {
        this.channel = channel;
        this.writer = writer;
        this.maxFrameSize = maxFrameSize;
        this.address = address;
        this.heartbeatMillis = heartbeatMillis;
    }

    /** Opens the TCP connection (not yet the handshake: see {@link #open}). */
    public static NettyBrokerConnection connect(String host, int port, int maxFrameSize, long timeoutMillis) {
        return connect(host, port, maxFrameSize, timeoutMillis, null);
    }

    /**
     * Opens the connection, over TLS with {@code tls} (null for plain TCP): the TLS handshake runs
     * before the first frame, which waits for it, so a failed handshake fails {@link #open}.
     */
    /** Frames written before one socket write at most, when they come faster than the event loop flushes. */
    private static final int FLUSHES_PER_WRITE = 64;

    public static NettyBrokerConnection connect(
            String host, int port, int maxFrameSize, long timeoutMillis, io.netty.handler.ssl.SslContext tls) {
        return connect(host, port, maxFrameSize, timeoutMillis, tls, 0);
    }

    /**
     * As above, with a heartbeat: when nothing has come from the node for {@code heartbeatMillis}
     * the client pings it, and when nothing has come for twice that the connection is given up as
     * lost (failing over where the URL lists other nodes). A node that hangs, or a network that
     * drops packets without closing the connection, is found this way; a closed socket is found at
     * once anyway. 0 turns it off (node links ping on their own schedule).
     */
    public static NettyBrokerConnection connect(
            String host,
            int port,
            int maxFrameSize,
            long timeoutMillis,
            io.netty.handler.ssl.SslContext tls,
            long heartbeatMillis) {
        NettyBrokerConnection[] self = new NettyBrokerConnection[1];
        FrameWriter[] writer = new FrameWriter[1];
        Bootstrap b = new Bootstrap()
                .group(ClientTransportThreads.group())
                .channel(ClientTransportThreads.channel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, timeoutMillis))
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (heartbeatMillis > 0) {
                            ch.pipeline().addLast(new IdleStateHandler(heartbeatMillis, 0, 0, TimeUnit.MILLISECONDS));
                        }
                        if (tls != null) {
                            ch.pipeline().addLast(tls.newHandler(ch.alloc(), host, port));
                        }
                        // Non-persistent sends and acknowledgements come from application threads one frame
                        // at a time, through the event loop (FrameWriter); consolidating their flushes turns a
                        // burst of them into one socket write.
                        ch.pipeline()
                                .addLast(
                                        new io.netty.handler.flush.FlushConsolidationHandler(FLUSHES_PER_WRITE, true),
                                        new FrameDecoder(maxFrameSize));
                        writer[0] = ClientTransportThreads.frameWriter(ch, tls != null, maxFrameSize);
                        ch.pipeline().addLast(new Handler(() -> self[0]));
                    }
                });
        io.netty.channel.ChannelFuture f = b.connect(host, port).awaitUninterruptibly();
        if (!f.isSuccess()) {
            throw new BrokerError(
                    ErrorCode.INTERNAL,
                    PartitaErrorCodes.NODE_UNREACHABLE,
                    "cannot connect to " + (tls == null ? "tcp://" : "ssl://") + host + ":" + port + ": "
                            + (f.cause() == null ? "timed out" : f.cause().getMessage()));
        }
        self[0] = new NettyBrokerConnection(f.channel(), writer[0], maxFrameSize, host + ":" + port, heartbeatMillis);
        return self[0];
    }

    @Override
    public void setListener(ConnectionListener listener) {
        this.listener = listener;
    }

    /**
     * The handshake. What answers it with anything but a Partita frame (a banner, garbage, a close)
     * is not a Partita node, and the failure says so rather than naming a protocol detail.
     */
    @Override
    public CompletableFuture<Void> open(String user, String password, String clientId) {
        CompletableFuture<Void> opened = new CompletableFuture<>();
        request(id -> new Frame.Hello(id, Protocol.VERSION, user, password, clientId))
                .whenComplete((f, t) -> {
                    if (t != null) {
                        opened.completeExceptionally(notPartita(t));
                    } else if (!(f instanceof Frame.HelloOk ok)) {
                        opened.completeExceptionally(notPartita(new BrokerError(
                                ErrorCode.MALFORMED_FRAME, "it answered the handshake with " + f.type())));
                    } else {
                        nodeName = ok.nodeName();
                        consumerWindows = ok.version() >= Protocol.CONSUMER_WINDOW_VERSION;
                        largeBodies = ok.version() >= Protocol.LARGE_MESSAGE_VERSION;
                        nodeMaxFrameSize = Math.min(ok.maxFrameSize(), maxFrameSize);
                        leaseNanos = TimeUnit.MILLISECONDS.toNanos(ok.deliveryLeaseMillis());
                        if (leaseNanos > 0) {
                            watchLease();
                        }
                        if (ok.version() >= Protocol.SEND_CREDIT_VERSION) {
                            sendCredit.bounded(); // the first SEND_CREDIT follows HELLO_OK
                        }
                        if (ok.maxFrameSize() < maxFrameSize) {
                            // Never send what the node would refuse: refuse it here, with the connection intact.
                            writer.limit(ok.maxFrameSize());
                        }
                        opened.complete(null);
                    }
                });
        return opened;
    }

    private Throwable notPartita(Throwable t) {
        if (t instanceof BrokerError e && PartitaErrorCodes.TLS_FAILED.equals(e.errorCode())) {
            return t; // it says what failed already
        }
        if (t instanceof BrokerError e
                && (e.code() == ErrorCode.MALFORMED_FRAME || e.code() == ErrorCode.FRAME_TOO_LARGE)) {
            return new BrokerError(
                    e.code(),
                    PartitaErrorCodes.NOT_A_NODE,
                    noNodeAt() + ": what listens there sent bytes that are not Partita frames");
        }
        if (t instanceof BrokerError e && e.code() == ErrorCode.INTERNAL) {
            return new BrokerError(
                    e.code(),
                    PartitaErrorCodes.NOT_A_NODE,
                    noNodeAt() + ": what listens there ended the connection during the" + " handshake ("
                            + e.getMessage() + ")");
        }
        return t;
    }

    /**
     * Completes once the node sent its first frame (a GREETING, or the HELLO's answer from a node
     * that sends none) or the connection failed (then {@link #open}'s future says why). Until then
     * nothing at the address has shown it speaks Partita: a port where something else listens and
     * says nothing never completes it, which {@link NettyNodeConnector} tells within a short bound.
     */
    public CompletableFuture<Void> firstAnswer() {
        return answered;
    }

    /** host:port of the peer, as the application named it. */
    public String address() {
        return address;
    }

    /** What a failed handshake says: the peer at this address does not speak the Partita protocol. */
    public String noNodeAt() {
        return "no Partita node at " + address;
    }

    /** Drops the transport at once, without telling the peer (a handshake that never completed). */
    public void abort() {
        closing = true;
        channel.close();
    }

    @Override
    public CompletableFuture<Void> openSession(int sessionId, boolean transacted) {
        return requestOk(id -> new Frame.SessionOpen(id, sessionId, transacted));
    }

    @Override
    public CompletableFuture<Void> closeSession(int sessionId) {
        return requestOk(id -> new Frame.SessionClose(id, sessionId));
    }

    @Override
    public void awaitSendRoom(int bytes) {
        sendCredit.await();
    }

    @Override
    public CompletableFuture<Void> send(int sessionId, byte[] message, boolean confirm) {
        sendCredit.take(message.length);
        if (!confirm) {
            write(new Frame.Send(0, sessionId, message));
            return CompletableFuture.completedFuture(null);
        }
        return requestOk(id -> new Frame.Send(id, sessionId, message));
    }

    @Override
    public boolean takesLargeBodies() {
        return largeBodies;
    }

    @Override
    public int bodyPartBytes() {
        // a part's frame adds 30 bytes around it; a node takes frames of at least 1 KiB
        return Math.max(512, Math.min(BrokerConnection.super.bodyPartBytes(), nodeMaxFrameSize - 64));
    }

    @Override
    public int newUploadId() {
        return uploadIds.next();
    }

    @Override
    public CompletableFuture<Void> sendBodyPart(int uploadId, long offset, byte[] data, boolean last) {
        return requestOk(id -> new Frame.BodyPart(id, uploadId, offset, data, last));
    }

    @Override
    public CompletableFuture<Void> sendWithBody(int sessionId, byte[] message, int uploadId, boolean confirm) {
        sendCredit.take(message.length);
        if (!confirm) {
            write(new Frame.Send(0, sessionId, message, uploadId));
            return CompletableFuture.completedFuture(null);
        }
        return requestOk(id -> new Frame.Send(id, sessionId, message, uploadId));
    }

    @Override
    public CompletableFuture<byte[]> readBody(long deliveryId, long offset, int length) {
        return request(id -> new Frame.BodyRead(id, deliveryId, offset, length)).thenApply(f -> {
            if (f instanceof Frame.BodyData d) {
                return d.data();
            }
            throw new BrokerError(ErrorCode.INTERNAL, "a body read was answered with " + f.type());
        });
    }

    @Override
    public CompletableFuture<Void> openConsumer(ConsumerSpec s) {
        return requestOk(id -> new Frame.ConsumerOpen(
                id,
                s.sessionId(),
                s.consumerId(),
                s.destination(),
                s.selector(),
                s.subscription(),
                s.flags(),
                s.credit(),
                consumerWindows ? s.windowBytes() : 0));
    }

    @Override
    public CompletableFuture<Void> closeConsumer(int consumerId) {
        return requestOk(id -> new Frame.ConsumerClose(id, consumerId));
    }

    @Override
    public CompletableFuture<Void> updateConsumer(
            int consumerId, Integer priority, Integer capacityMessages, Long capacityBytes) {
        return requestOk(id -> new Frame.ConsumerUpdate(
                id,
                consumerId,
                priority == null ? Integer.MIN_VALUE : priority,
                capacityMessages == null ? -1 : capacityMessages,
                capacityBytes == null ? -1 : capacityBytes));
    }

    /**
     * A cluster node tells another that the consumer it opened there for its own client is spare
     * (its node gives it none of its own partitions) or not; clients never send this.
     */
    public CompletableFuture<Void> spare(int consumerId, boolean spare) {
        return requestOk(
                id -> new Frame.ConsumerUpdate(id, consumerId, Integer.MIN_VALUE, -1, -1, (byte) (spare ? 1 : 0)));
    }

    @Override
    public void credit(int consumerId, int messages) {
        write(new Frame.Credit(consumerId, messages));
    }

    @Override
    public CompletableFuture<Void> drain(int consumerId) {
        return requestOk(id -> new Frame.Drain(id, consumerId));
    }

    @Override
    public CompletableFuture<Void> ack(int sessionId, long[] deliveryIds, boolean confirm) {
        if (!confirm) {
            write(new Frame.Ack(0, sessionId, deliveryIds));
            return CompletableFuture.completedFuture(null);
        }
        return requestOk(id -> new Frame.Ack(id, sessionId, deliveryIds));
    }

    @Override
    public CompletableFuture<Void> release(int sessionId, long[] redeliver, long[] unseen) {
        return requestOk(id -> new Frame.Release(id, sessionId, redeliver, unseen));
    }

    @Override
    public CompletableFuture<Long> recover(int sessionId, long[] seen) {
        return request(id -> new Frame.Recover(id, sessionId, seen)).thenApply(f -> ((Frame.Recovered) f).fence());
    }

    @Override
    public CompletableFuture<Void> commit(int sessionId) {
        return requestOk(id -> new Frame.Commit(id, sessionId));
    }

    @Override
    public CompletableFuture<Void> rollback(int sessionId) {
        return requestOk(id -> new Frame.Rollback(id, sessionId));
    }

    @Override
    public CompletableFuture<List<byte[]>> browse(String destination, String selector) {
        int id = nextRequestId();
        browsing.put(id, new ArrayList<>());
        CompletableFuture<Frame> answer = register(id);
        write(new Frame.Browse(id, destination, selector));
        return answer.thenApply(f -> browsing.remove(id)).whenComplete((v, t) -> browsing.remove(id));
    }

    @Override
    public CompletableFuture<String> destinationOp(int op, String name) {
        return request(id -> new Frame.DestinationOp(id, op, name))
                .thenApply(f -> f instanceof Frame.Created c ? c.name() : null);
    }

    @Override
    public CompletableFuture<String> admin(String command, String argument) {
        return request(id -> new Frame.Admin(id, command, argument)).thenApply(f -> ((Frame.AdminReply) f).body());
    }

    @Override
    public String nodeName() {
        return nodeName;
    }

    @Override
    public CompletableFuture<Frame.XaResult> xa(IntFunction<Frame> request) {
        return request(request).thenApply(f -> (Frame.XaResult) f);
    }

    @Override
    public CompletableFuture<List<org.partita.protocol.WireXid>> xaRecover() {
        return request(Frame.XaRecover::new).thenApply(f -> ((Frame.XaRecovered) f).xids());
    }

    @Override
    public CompletableFuture<Void> close() {
        if (!isOpen()) {
            return CompletableFuture.completedFuture(null);
        }
        closing = true;
        CompletableFuture<Void> closed = new CompletableFuture<>();
        requestOk(Frame.Close::new).whenComplete((v, t) -> channel.close().addListener(f -> closed.complete(null)));
        return closed;
    }

    @Override
    public boolean isOpen() {
        return channel.isActive() && !failed.get();
    }

    /**
     * Node links only: hands a message of a clustered queue to the node hosting its partition;
     * completes once that node stored it.
     *
     * @param layout the queue's layout as this node routed the message by it (see {@link Frame.Forward})
     */
    public CompletableFuture<Void> forward(String queue, String layout, int deliveryCount, byte[] message) {
        return requestOk(id -> new Frame.Forward(id, queue, deliveryCount, message, layout));
    }

    @Override
    public CompletableFuture<Void> heardLately() {
        long lease = leaseNanos;
        if (lease == 0 || System.nanoTime() - lastHeardNanos < lease) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> p = leasePing;
        if (p == null || p.isDone()) {
            p = ping(); // one at a time, however many consumers ask
            leasePing = p;
        }
        return p;
    }

    /**
     * Pings the node whenever it has been silent for half a lease, so that a request is always owed
     * while it is silent: a node that answers is then never silent for an election (two leases), and
     * one that was (paused, hung, cut off) is told from an idle one, whose connection would otherwise
     * be as quiet (see {@link #onFrame}). Without this, a consumer with nothing prefetched and nothing
     * asked could not tell that its node had stopped while its partitions moved, and would hand out
     * unflagged what the node delivered when it resumed.
     */
    private void watchLease() {
        long halfLease = leaseNanos / 2;
        io.netty.util.concurrent.ScheduledFuture<?> watch = channel.eventLoop()
                .scheduleAtFixedRate(
                        () -> {
                            if (!failed.get() && System.nanoTime() - lastHeardNanos > halfLease) {
                                CompletableFuture<Void> p = leasePing;
                                if (p == null || p.isDone()) {
                                    leasePing = ping();
                                }
                            }
                        },
                        halfLease,
                        halfLease,
                        TimeUnit.NANOSECONDS);
        channel.closeFuture().addListener(f -> watch.cancel(false));
    }

    /**
     * A lease after the node last sent something after being silent, with a request owed, for longer
     * than its replica sets' election timeout (System.nanoTime); {@link Long#MIN_VALUE} if never. What
     * it delivered before then may have been delivered again by the node that took its partitions
     * over: a client hands such deliveries out flagged redelivered.
     */
    @Override
    public long unresponsiveUntil() {
        return unresponsiveUntil;
    }

    /** A round trip to the node: node links use it as their heartbeat. */
    public CompletableFuture<Void> ping() {
        return requestOk(Frame.Ping::new);
    }

    private CompletableFuture<Void> requestOk(IntFunction<Frame> frame) {
        return request(frame).thenApply(f -> null);
    }

    private CompletableFuture<Frame> request(IntFunction<Frame> frame) {
        int id = nextRequestId();
        CompletableFuture<Frame> answer = register(id);
        write(frame.apply(id));
        return answer;
    }

    private int nextRequestId() {
        return requestIds.next();
    }

    private CompletableFuture<Frame> register(int id) {
        CompletableFuture<Frame> answer = new CompletableFuture<>();
        BrokerError f = failure;
        if (f != null) {
            answer.completeExceptionally(f);
            return answer;
        }
        pending.put(id, answer);
        return answer;
    }

    private void write(Frame frame) {
        if (failure != null) {
            return;
        }
        writer.write(frame, cause -> {
            if (frame instanceof Frame.Send send) {
                // refused before it left (too large for a frame, say): the node never counts it, so the send
                // credit it took comes back here, or every later send would wait for credit that never comes
                sendCredit.grant(send.message().length);
            }
            CompletableFuture<Frame> answer = pending.remove(frame.requestId());
            if (answer != null) {
                Throwable c = cause;
                if (c instanceof io.netty.handler.codec.EncoderException && c.getCause() != null) {
                    c = c.getCause();
                }
                answer.completeExceptionally(
                        c instanceof ProtocolException p
                                ? new BrokerError(p.code(), p.getMessage())
                                : TlsFailures.isTls(c)
                                        ? TlsFailures.of(c, address())
                                        : new BrokerError(ErrorCode.INTERNAL, "write failed: " + c));
            }
        });
    }

    private void onFrame(Frame frame) {
        answered.complete(null);
        long now = System.nanoTime();
        long silent = now - lastHeardNanos;
        lastHeardNanos = now;
        long election = 2 * leaseNanos; // the node's lease is half its sets' election timeout
        if (election > 0 && silent > election && !pending.isEmpty()) {
            // silent for longer than an election while it owed an answer (the lease watch keeps a ping
            // owed whenever it is silent): it was paused, hung or cut off, and may have lost its
            // partitions to another node. What it decided to deliver before it stopped may still come
            // now or after this frame (a resumed node answers the requests it reads first, then writes
            // what its queues handed it before), so deliveries count as from before the outage until a
            // lease after it
            unresponsiveUntil = now + leaseNanos;
        }
        if (frame instanceof Frame.Deliver d) {
            ConnectionListener l = listener;
            if (l != null) {
                l.onDelivery(d.consumerId(), d.deliveryId(), d.deliveryCount(), d.partition(), d.message());
            }
        } else if (frame instanceof Frame.Partitions p) {
            ConnectionListener l = listener;
            if (l != null) {
                l.onPartitions(p.consumerId(), p.owned());
            }
        } else if (frame instanceof Frame.BrowseChunk c) {
            List<byte[]> acc = browsing.get(c.requestId());
            if (acc != null) {
                acc.addAll(c.messages());
            }
            if (c.last()) {
                complete(c.requestId(), c);
            }
        } else if (frame instanceof Frame.SendCredit c) {
            sendCredit.grant(c.bytes());
        } else if (frame instanceof Frame.Greeting) {
            // a node listens (answered above); the HELLO is still owed HELLO_OK or ERROR
        } else if (frame instanceof Frame.RequestFailed r) {
            ConnectionListener l = listener;
            if (l != null) {
                l.onRequestFailed(new BrokerError(r.code(), r.message()));
            }
        } else if (frame instanceof Frame.Error e) {
            if (e.requestId() == 0) {
                fail(new BrokerError(e.code(), e.message()));
            } else {
                CompletableFuture<Frame> answer = pending.remove(e.requestId());
                if (answer != null) {
                    answer.completeExceptionally(new BrokerError(e.code(), e.message()));
                }
            }
        } else {
            complete(frame.requestId(), frame);
        }
    }

    private void complete(int requestId, Frame frame) {
        CompletableFuture<Frame> answer = pending.remove(requestId);
        if (answer != null) {
            answer.complete(frame);
        }
    }

    /**
     * Nothing has come from the node for one heartbeat ({@code first}) or for two: ping it once, then
     * give the connection up. Before the handshake has completed the connect timeout rules instead.
     */
    private void heardNothing(boolean first) {
        if (nodeName == null || failed.get()) {
            return;
        }
        if (first) {
            ping(); // its answer, or anything else the node sends, resets the silence
        } else {
            fail(new BrokerError(
                    ErrorCode.INTERNAL,
                    "the node at " + address + " sent nothing for "
                            + 2 * heartbeatMillis + " ms, not even the answer to a ping (heartbeat " + heartbeatMillis
                            + " ms): connection given up"));
        }
    }

    private void fail(BrokerError cause) {
        if (!failed.compareAndSet(false, true)) {
            return;
        }
        failure = cause;
        answered.complete(null);
        sendCredit.failed(cause);
        for (Integer id : new ArrayList<>(pending.keySet())) {
            CompletableFuture<Frame> answer = pending.remove(id);
            if (answer != null) {
                answer.completeExceptionally(cause);
            }
        }
        ConnectionListener l = listener;
        if (l != null && !closing) {
            l.onFailure(cause);
        }
        channel.close();
    }

    private static final class Handler extends SimpleChannelInboundHandler<Frame> {
        private final java.util.function.Supplier<NettyBrokerConnection> owner;

        Handler(java.util.function.Supplier<NettyBrokerConnection> owner) {
            this.owner = owner;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, Frame frame) {
            owner.get().onFrame(frame);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
            NettyBrokerConnection c = owner.get();
            if (event instanceof IdleStateEvent idle && idle.state() == IdleState.READER_IDLE && c != null) {
                c.heardNothing(idle.isFirst());
            } else {
                ctx.fireUserEventTriggered(event);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            NettyBrokerConnection c = owner.get();
            if (c != null) {
                c.fail(new BrokerError(ErrorCode.INTERNAL, "connection to the node was closed"));
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            Throwable c = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
            NettyBrokerConnection conn = owner.get();
            if (conn == null) {
                ctx.close();
                return;
            }
            if (c instanceof TooLongFrameException) {
                conn.fail(new BrokerError(ErrorCode.FRAME_TOO_LARGE, "the node sent a frame over the maximum size"));
            } else if (c instanceof ProtocolException p) {
                conn.fail(new BrokerError(p.code(), "the node sent a bad frame: " + p.getMessage()));
            } else if (TlsFailures.isTls(c)) {
                conn.fail(TlsFailures.of(c, conn.address()));
            } else {
                conn.fail(new BrokerError(ErrorCode.INTERNAL, "connection lost: " + c));
            }
        }
    }
}
