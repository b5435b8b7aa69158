package org.partita.broker.network.flow;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import org.partita.protocol.FrameDecoder;

/** The node's frame decoder: tells its {@link FrameBudget} how much of a frame not yet complete it holds after each step. */
public final class CountedFrameDecoder extends FrameDecoder {
    private final FrameBudget budget;

    public CountedFrameDecoder(int maxFrameSize, int initialLimit, FrameBudget budget) {
        super(maxFrameSize, initialLimit);
        this.budget = budget;
    }

    @Override
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        Object frame = super.decode(ctx, in);
        int held = in.readableBytes();
        budget.holding(held, held >= 4 ? in.getUnsignedInt(in.readerIndex()) : 0, frame != null);
        return frame;
    }
}
