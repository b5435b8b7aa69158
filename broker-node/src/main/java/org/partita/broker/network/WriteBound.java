package org.partita.broker.network;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounds what the node holds for one connection that does not read: past {@code bound} bytes waiting
 * to be written, the connection is closed, so a client that never reads its replies and deliveries
 * cannot make the node hold more and more for it (nor make other clients wait on that memory).
 * Sits next to the socket, where what is written is already encoded.
 */
final class WriteBound extends ChannelOutboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(WriteBound.class);
    private final long bound;
    private boolean closing;

    WriteBound(long bound) {
        this.bound = bound;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        ChannelOutboundBuffer pending = ctx.channel().unsafe().outboundBuffer();
        if (closing || (pending != null && pending.totalPendingWriteBytes() > bound)) {
            ReferenceCountUtil.release(msg);
            promise.tryFailure(new java.io.IOException("connection closed: it did not read what the node wrote"));
            if (!closing) {
                closing = true;
                LOG.warn("closing connection {}: it does not read what the node writes ({} bytes waiting, bound {})",
                        ctx.channel().remoteAddress(), pending.totalPendingWriteBytes(), bound);
                ctx.close();
            }
            return;
        }
        ctx.write(msg, promise);
    }
}
