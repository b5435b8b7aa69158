package org.partita.broker.network.flow;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** Counts the bytes one connection receives and sends, and adds them to the node's totals. */
public final class TrafficCounter extends ChannelDuplexHandler {
    private final AtomicLong in = new AtomicLong();
    private final AtomicLong out = new AtomicLong();
    private final LongAdder nodeIn;
    private final LongAdder nodeOut;

    public TrafficCounter(LongAdder nodeIn, LongAdder nodeOut) {
        this.nodeIn = nodeIn;
        this.nodeOut = nodeOut;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf b) {
            in.addAndGet(b.readableBytes());
            nodeIn.add(b.readableBytes());
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof ByteBuf b) {
            out.addAndGet(b.readableBytes());
            nodeOut.add(b.readableBytes());
        }
        ctx.write(msg, promise);
    }

    public long bytesIn() {
        return in.get();
    }

    public long bytesOut() {
        return out.get();
    }
}
