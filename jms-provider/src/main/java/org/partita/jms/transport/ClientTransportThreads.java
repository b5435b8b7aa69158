package org.partita.jms.transport;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One event loop group shared by all client connections of a JVM, with daemon threads, on the best
 * {@linkplain ClientIo I/O} the JVM offers (Linux's epoll when Netty's native library loads, else NIO).
 *
 * <p>Half the cores, at least one, unless the system property {@value #THREADS_PROPERTY} says how many:
 * a message a client sends or receives crosses its loop and the application's thread, and loops beyond
 * what the cores can run beside those threads only add wake-ups and hand-offs (measured on two cores:
 * docs/performance.md, "Design for speed"). An application with many busy connections on many cores may want more.
 */
final class ClientTransportThreads {
    static final String THREADS_PROPERTY = "partita.client.ioThreads";

    private static volatile Loops loops;

    private record Loops(EventLoopGroup group, ClientIo io) {}

    private ClientTransportThreads() {}

    static EventLoopGroup group() {
        return loops().group();
    }

    /** The channel class that goes with {@link #group()}. */
    static Class<? extends SocketChannel> channel() {
        return loops().io().channel();
    }

    /** How frames reach the socket of a channel of {@link #channel()}'s class. */
    static FrameWriter frameWriter(SocketChannel channel, boolean tls, int maxFrameSize) {
        return loops().io().frameWriter(channel, tls, maxFrameSize);
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
                    l = new Loops(io.newGroup(count(), tf), io);
                    loops = l;
                }
            }
        }
        return l;
    }

    static int count() {
        return count(System.getProperty(THREADS_PROPERTY), Runtime.getRuntime().availableProcessors());
    }

    /**
     * {@code asked} when it is a positive integer, else half the {@code cores} (at least one); a value
     * that is not one is said in the log rather than ignored in silence.
     */
    static int count(String asked, int cores) {
        int half = Math.max(1, cores / 2);
        if (asked == null) {
            return half;
        }
        try {
            int n = Integer.parseInt(asked.strip());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // said below
        }
        org.slf4j.LoggerFactory.getLogger(ClientTransportThreads.class)
                .warn(
                        "-D{}={} is not a positive integer; the client runs {} event loop(s), half the cores",
                        THREADS_PROPERTY,
                        asked,
                        half);
        return half;
    }
}
