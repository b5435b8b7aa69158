package org.partita.jms.transport;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import java.util.concurrent.ThreadFactory;

/**
 * How the client's event loops wait for sockets: Linux's epoll through Netty's native transport
 * when its library is on the class path and loads, else Java's NIO selector (every platform).
 * Epoll wakes a loop with fewer system calls, which shortens each round trip of a synchronous send.
 * {@code -Dio.netty.transport.noNative=true} (Netty's own switch) forces NIO.
 *
 * <p>The client uses only Netty API that both the 4.1 and the 4.2 lines have, so that it runs in
 * applications and servers that pin Netty 4.1 (Spring Boot 3, many Jakarta EE servers): hence the
 * {@code NioEventLoopGroup} and {@code EpollEventLoopGroup} classes, which 4.2 keeps (deprecated)
 * beside its new {@code MultiThreadIoEventLoopGroup}. The {@code spring-boot-it} module runs the
 * client on Netty 4.1.
 */
interface ClientIo {
    /** @param count how many event loops, at least one */
    EventLoopGroup newGroup(int count, ThreadFactory threads);

    Class<? extends SocketChannel> channel();

    /**
     * How {@code channel}'s frames reach its socket; adds what it needs to the end of the pipeline as
     * it stands (or to its head). {@code tls}: the pipeline encrypts.
     */
    FrameWriter frameWriter(SocketChannel channel, boolean tls, int maxFrameSize);

    /** Epoll when available, NIO otherwise. */
    static ClientIo best() {
        return EpollClientIo.available() ? new EpollClientIo() : new NioClientIo();
    }

    /** Java's NIO selector. */
    final class NioClientIo implements ClientIo {
        @Override
        @SuppressWarnings("deprecation") // the one group class of both Netty lines
        public EventLoopGroup newGroup(int count, ThreadFactory threads) {
            return new io.netty.channel.nio.NioEventLoopGroup(count, threads);
        }

        @Override
        public Class<? extends SocketChannel> channel() {
            return io.netty.channel.socket.nio.NioSocketChannel.class;
        }

        @Override
        public FrameWriter frameWriter(SocketChannel channel, boolean tls, int maxFrameSize) {
            return new LoopFrameWriter(channel, maxFrameSize);
        }
    }

    /** Linux's epoll, through Netty's native transport (an optional part of the class path). */
    final class EpollClientIo implements ClientIo {
        /** False when the epoll classes are missing (not on the class path) or their native library does not load. */
        static boolean available() {
            try {
                Class.forName("io.netty.channel.epoll.Epoll", false, ClientIo.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                return false;
            }
            try {
                return io.netty.channel.epoll.Epoll.isAvailable();
            } catch (LinkageError e) {
                return false;
            }
        }

        @Override
        @SuppressWarnings("deprecation") // the one group class of both Netty lines
        public EventLoopGroup newGroup(int count, ThreadFactory threads) {
            return new io.netty.channel.epoll.EpollEventLoopGroup(count, threads);
        }

        @Override
        public Class<? extends SocketChannel> channel() {
            return io.netty.channel.epoll.EpollSocketChannel.class;
        }

        /** Frames written by the threads that send them, unless TLS must encrypt them on the loop. */
        @Override
        public FrameWriter frameWriter(SocketChannel channel, boolean tls, int maxFrameSize) {
            if (tls || !(channel instanceof io.netty.channel.unix.UnixChannel unix)) {
                return new LoopFrameWriter(channel, maxFrameSize);
            }
            return new DirectFrameWriter(channel, unix.fd(), maxFrameSize);
        }
    }
}
