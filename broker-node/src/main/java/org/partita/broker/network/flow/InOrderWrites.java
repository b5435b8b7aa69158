package org.partita.broker.network.flow;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;

/**
 * Writes frames to a connection in the order of the calls, whichever thread makes them.
 *
 * <p>Netty writes at once when called on the connection's own event loop, but queues a write made on
 * another thread as a task on that loop. A frame written on the loop's thread could therefore
 * overtake one another thread queued a moment before: for a consumer, a key's later message or an
 * older set of partitions would reach the client first (a relay from a node link that shares the
 * loop, a dispatch run on a network thread). Queued on the loop's thread too, every frame goes after
 * the ones queued before it. The cost is one task per frame written from the loop's own thread.
 */
public final class InOrderWrites {
    private InOrderWrites() {}

    public static void writeAndFlush(Channel channel, Object frame) {
        EventLoop loop = channel.eventLoop();
        if (loop.inEventLoop()) {
            loop.execute(() -> channel.writeAndFlush(frame, channel.voidPromise()));
        } else {
            channel.writeAndFlush(frame, channel.voidPromise());
        }
    }
}
