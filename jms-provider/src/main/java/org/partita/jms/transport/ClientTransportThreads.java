package org.partita.jms.transport;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One event loop group shared by all client connections of a JVM, with daemon threads, on the best
 * {@linkplain ClientIo I/O} the JVM offers (Linux's epoll when Netty's native library loads, else NIO).
 */
final class ClientTransportThreads {
    private static volatile Loops loops;

    private record Loops(EventLoopGroup group, Class<? extends SocketChannel> channel) {
    }

    private ClientTransportThreads() {
    }

    static EventLoopGroup group() {
        return loops().group();
    }

    /** The channel class that goes with {@link #group()}. */
    static Class<? extends SocketChannel> channel() {
        return loops().channel();
    }

    private static Loops loops() {
        Loops l = loops;
        if (l == null) {
            synchronized (ClientTransportThreads.class) {
                l = loops;
                if (l == null) {
                    AtomicInteger n = new AtomicInteger();
                    ThreadFactory tf = r -> {
                        Thread t = new Thread(r, "partita-client-io-" + n.incrementAndGet());
                        t.setDaemon(true);
                        return t;
                    };
                    ClientIo io = ClientIo.best();
                    l = new Loops(io.newGroup(tf), io.channel());
                    loops = l;
                }
            }
        }
        return l;
    }
}
