package org.partita.broker.network;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.flush.FlushConsolidationHandler;
import java.net.InetSocketAddress;
import org.partita.broker.core.Broker;
import org.partita.broker.network.connection.ClientConnection;
import org.partita.broker.network.flow.CountedFrameDecoder;
import org.partita.broker.network.flow.FrameBudget;
import org.partita.broker.network.flow.NodeMemory;
import org.partita.broker.network.flow.TrafficCounter;
import org.partita.broker.network.flow.WriteBound;
import org.partita.protocol.FrameEncoder;

/** The node's network front: accepts client connections and gives each its protocol handler. */
public final class NodeServer implements AutoCloseable {
    private static final int FLUSHES_PER_WRITE = 64;

    private static final ServerIo IO = ServerIo.best();

    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final int eventLoops;
    private final Channel serverChannel;
    private final NodeMemory memory;
    private final io.netty.channel.group.ChannelGroup clients =
            new io.netty.channel.group.DefaultChannelGroup(io.netty.util.concurrent.GlobalEventExecutor.INSTANCE);

    /** Plain TCP on one event loop. */
    public NodeServer(String host, int port, Broker broker, NodeContext node) throws InterruptedException {
        this(host, port, broker, node, null, null, 1);
    }

    /**
     * @param tls        the server side of TLS, or null for plain TCP only
     * @param plaintext  with TLS: who may still connect without it
     * @param eventLoops threads that read and write the connections' sockets
     */
    public NodeServer(
            String host,
            int port,
            Broker broker,
            NodeContext node,
            io.netty.handler.ssl.SslContext tls,
            org.partita.broker.config.TlsSettings.Plaintext plaintext,
            int eventLoops)
            throws InterruptedException {
        this.eventLoops = eventLoops;
        // named after the node, so that thread dumps and profiles of a JVM with several nodes tell them apart
        boss = IO.newGroup(1, "partita-accept-" + node.nodeName());
        workers = IO.newGroup(eventLoops, "partita-io-" + node.nodeName());
        FrameEncoder encoder = new FrameEncoder(node.maxFrameSize());
        memory = new NodeMemory(
                node.limits().inFlightBytes(),
                node.limits().nonPersistentBytes(),
                node.limits().openTransactionBytes(),
                broker::unstoredBytes);
        // consumers free non-persistent bytes on the queues' threads: waiting producers are looked at often
        workers.scheduleAtFixedRate(memory::resumeWaiting, 5, 5, java.util.concurrent.TimeUnit.MILLISECONDS);
        // connections that take nothing while they hold the spent budget are found even when nothing more is written to
        // them
        workers.scheduleAtFixedRate(memory::checkWriters, 100, 100, java.util.concurrent.TimeUnit.MILLISECONDS);
        ServerBootstrap b = new ServerBootstrap()
                .group(boss, workers)
                .channel(IO.serverChannel())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        clients.add(ch);
                        TrafficCounter traffic = node.newTrafficCounter();
                        // Deliveries are written from queue threads, one message at a time; consolidating
                        // their flushes turns a burst of them into one socket write instead of one each.
                        ch.pipeline().addLast(new WriteBound(node.limits().writeBufferBytes(), memory), traffic);
                        if (tls != null) {
                            ch.pipeline().addLast(new PlaintextGate(tls, plaintext));
                        }
                        FrameBudget budget = new FrameBudget(memory);
                        ch.pipeline()
                                .addLast(
                                        new FlushConsolidationHandler(FLUSHES_PER_WRITE, true),
                                        budget,
                                        new CountedFrameDecoder(
                                                node.maxFrameSize(),
                                                node.limits().handshakeFrameBytes(),
                                                budget),
                                        encoder,
                                        new ClientConnection(broker, node, traffic, memory));
                    }
                });
        try {
            serverChannel = b.bind(host, port).sync().channel();
        } catch (Exception e) {
            close();
            throw e;
        }
    }

    /** Bytes in flight now, counted in {@code limits.inFlightBytes}: of frames being read, of sends not yet stored or queued, and waiting to be written. */
    public long inFlightBytes() {
        return memory.inFlightBytes();
    }

    /** Bytes of sends held in open transactions (local and XA) now, counted in {@code limits.openTransactionBytes}. */
    public long openTransactionBytes() {
        return memory.openTransactionBytes();
    }

    /** Threads that read and write the connections' sockets. */
    public int eventLoops() {
        return eventLoops;
    }

    /** How the event loops wait for sockets: {@code epoll} (Linux, native) or {@code nio}. */
    public String io() {
        return IO.name();
    }

    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /** Tells every client the node is shutting down (ERROR SHUTTING_DOWN), then closes. */
    @Override
    public void close() {
        if (serverChannel != null) {
            serverChannel.close().syncUninterruptibly();
        }
        clients.writeAndFlush(new org.partita.protocol.Frame.Error(
                        0, org.partita.protocol.ErrorCode.SHUTTING_DOWN, "the node is shutting down"))
                .awaitUninterruptibly(2, java.util.concurrent.TimeUnit.SECONDS);
        clients.close().awaitUninterruptibly(2, java.util.concurrent.TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
        boss.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }
}
