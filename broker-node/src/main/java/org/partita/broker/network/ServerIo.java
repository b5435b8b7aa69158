package org.partita.broker.network;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;

/**
 * How the node's event loops wait for sockets: Linux's epoll through Netty's native transport when
 * its library loads (the node's jar carries it for x86-64 Linux), else Java's NIO selector. Epoll
 * wakes a loop with fewer system calls and no selector rebuilds, which shortens every round trip of
 * a synchronous send. {@code -Dio.netty.transport.noNative=true} (Netty's own switch) forces NIO.
 */
interface ServerIo {
    /**
     * @param threads at least one
     * @param name    the threads' names begin with it: {@code <name>-<group>-<n>}
     */
    EventLoopGroup newGroup(int threads, String name);

    Class<? extends ServerChannel> serverChannel();

    String name();

    static ServerIo best() {
        return io.netty.channel.epoll.Epoll.isAvailable() ? new EpollServerIo() : new NioServerIo();
    }

    /** Java's NIO selector, on every platform. */
    final class NioServerIo implements ServerIo {
        @Override
        public EventLoopGroup newGroup(int threads, String name) {
            return new MultiThreadIoEventLoopGroup(
                    threads,
                    new io.netty.util.concurrent.DefaultThreadFactory(name),
                    io.netty.channel.nio.NioIoHandler.newFactory());
        }

        @Override
        public Class<? extends ServerChannel> serverChannel() {
            return io.netty.channel.socket.nio.NioServerSocketChannel.class;
        }

        @Override
        public String name() {
            return "nio";
        }
    }

    /** Linux's epoll, through Netty's native transport. */
    final class EpollServerIo implements ServerIo {
        @Override
        public EventLoopGroup newGroup(int threads, String name) {
            return new MultiThreadIoEventLoopGroup(
                    threads,
                    new io.netty.util.concurrent.DefaultThreadFactory(name),
                    io.netty.channel.epoll.EpollIoHandler.newFactory());
        }

        @Override
        public Class<? extends ServerChannel> serverChannel() {
            return io.netty.channel.epoll.EpollServerSocketChannel.class;
        }

        @Override
        public String name() {
            return "epoll";
        }
    }
}
