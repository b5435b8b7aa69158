package org.partita.jms.transport;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** One event loop group shared by all client connections of a JVM, with daemon threads. */
final class ClientTransportThreads {
    private static volatile EventLoopGroup group;

    private ClientTransportThreads() {
    }

    static EventLoopGroup group() {
        EventLoopGroup g = group;
        if (g == null) {
            synchronized (ClientTransportThreads.class) {
                g = group;
                if (g == null) {
                    AtomicInteger n = new AtomicInteger();
                    ThreadFactory tf = r -> {
                        Thread t = new Thread(r, "partita-client-io-" + n.incrementAndGet());
                        t.setDaemon(true);
                        return t;
                    };
                    g = new MultiThreadIoEventLoopGroup(0, tf, NioIoHandler.newFactory());
                    group = g;
                }
            }
        }
        return g;
    }
}
