package org.partita.jms.transport;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One event loop group shared by all client connections of a JVM, with daemon threads.
 *
 * <p>The client uses only Netty API that both the 4.1 and the 4.2 lines have, so that it runs in
 * applications and servers that pin Netty 4.1 (Spring Boot 3, many Jakarta EE servers): hence
 * {@code NioEventLoopGroup}, which 4.2 keeps (deprecated) beside its new {@code MultiThreadIoEventLoopGroup}.
 * The {@code spring-boot-it} module runs the client on Netty 4.1.
 */
final class ClientTransportThreads {
    private static volatile EventLoopGroup group;

    private ClientTransportThreads() {
    }

    @SuppressWarnings("deprecation") // NioEventLoopGroup: the one group class of both Netty lines
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
                    g = new NioEventLoopGroup(0, tf);
                    group = g;
                }
            }
        }
        return g;
    }
}
