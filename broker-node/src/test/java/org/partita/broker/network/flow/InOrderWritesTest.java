package org.partita.broker.network.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.local.LocalAddress;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalIoHandler;
import io.netty.channel.local.LocalServerChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A consumer's frames reach its client in the order they were written, even when one is written on
 * the connection's own event loop right after another thread queued one (a relay from a node link
 * sharing the loop, a dispatch on a network thread): the race that let a key's later message
 * overtake an earlier one on the cluster. One event loop serves both ends, as on a two-core node.
 */
class InOrderWritesTest {
    private EventLoopGroup loop;
    private Channel server;
    private Channel channel;
    private final BlockingQueue<Object> received = new LinkedBlockingQueue<>();

    @BeforeEach
    void connect() throws Exception {
        loop = new MultiThreadIoEventLoopGroup(1, LocalIoHandler.newFactory());
        LocalAddress address = new LocalAddress("in-order-writes-" + System.nanoTime());
        server = new ServerBootstrap()
                .group(loop)
                .channel(LocalServerChannel.class)
                .childHandler(new ChannelInitializer<LocalChannel>() {
                    @Override
                    protected void initChannel(LocalChannel ch) {
                        ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                received.add(msg);
                            }
                        });
                    }
                })
                .bind(address)
                .sync()
                .channel();
        channel = new Bootstrap()
                .group(loop)
                .channel(LocalChannel.class)
                .handler(new ChannelInboundHandlerAdapter())
                .connect(address)
                .sync()
                .channel();
    }

    @AfterEach
    void close() {
        channel.close();
        server.close();
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }

    @Test
    void aFrameWrittenOnTheLoopGoesAfterOneAnotherThreadQueuedBefore() throws Exception {
        assertEquals(List.of("queued first", "written second"), race(InOrderWrites::writeAndFlush));
    }

    /** The same race with Netty's plain write: the reason the class exists, and proof the race is met. */
    @Test
    void nettyAloneLetsTheLoopsWriteOvertake() throws Exception {
        assertEquals(List.of("written second", "queued first"), race((ch, frame) -> ch.writeAndFlush(frame)));
    }

    /**
     * While the loop is busy in a task, another thread writes a frame (Netty queues it behind that
     * task); then the task, on the loop's thread, writes a second one.
     */
    private List<Object> race(BiConsumer<Channel, Object> write) throws Exception {
        CountDownLatch queued = new CountDownLatch(1);
        channel.eventLoop().execute(() -> {
            try {
                assertTrue(queued.await(10, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            write.accept(channel, "written second");
        });
        Thread other = new Thread(() -> {
            write.accept(channel, "queued first");
            queued.countDown();
        });
        other.start();
        other.join(10_000);
        List<Object> got = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Object frame = received.poll(10, TimeUnit.SECONDS);
            if (frame != null) {
                got.add(frame);
            }
        }
        return got;
    }
}
