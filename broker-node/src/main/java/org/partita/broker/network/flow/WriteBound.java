package org.partita.broker.network.flow;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounds what the node holds for connections that do not read. Every byte waiting to be written
 * (replies and deliveries not yet taken by the socket) counts in the node-wide in-flight budget
 * ({@link NodeMemory}) until the socket took it, so while clients are slow to read, the node reads
 * less from the others. A connection is closed past {@code bound} bytes waiting for it alone; and,
 * while the budget is spent, when it holds more than its share of the budget and has taken nothing
 * for {@link NodeMemory#WRITE_STALL_NANOS}: so several clients that never read cannot together make
 * the node hold their bytes, and a client that reads, even large messages slowly, is not cut off.
 * Sits next to the socket, where what is written is already encoded (and encrypted).
 */
public final class WriteBound extends ChannelOutboundHandlerAdapter implements NodeMemory.Writer {
    private static final Logger LOG = LoggerFactory.getLogger(WriteBound.class);
    private final long bound;
    private final NodeMemory memory;
    private ChannelHandlerContext ctx;
    private boolean closing;
    /** Registered with {@link NodeMemory#holding} (event loop only): spares the set on every write of a connection within its share. */
    private boolean holding;
    /** When the socket last took a whole write, or bytes started waiting (event loop only). */
    private long progress = System.nanoTime();

    public WriteBound(long bound, NodeMemory memory) {
        this.bound = bound;
        this.memory = memory;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        holding = false;
        memory.notHolding(this);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        long waiting = waiting();
        long size = sizeOf(msg);
        if (!closing && waiting > bound) {
            closeNotReading("it does not read what the node writes ({} bytes waiting, bound {})", waiting, bound);
        } else if (!closing && stalled(waiting)) {
            closeStalled(waiting);
        }
        if (closing) {
            ReferenceCountUtil.release(msg);
            promise.tryFailure(new java.io.IOException("connection closed: it did not read what the node wrote"));
            return;
        }
        if (size == 0) {
            ctx.write(msg, promise);
            return;
        }
        if (waiting == 0) {
            progress = System.nanoTime(); // nothing was waiting: the stall clock starts now
        }
        memory.writing(size);
        if (!holding && waiting + size > memory.writeShare()) {
            holding = true;
            memory.holding(this);
        }
        // a void promise cannot be listened to: unvoid() gives one that still reports failures to the pipeline
        ChannelPromise counted = promise.unvoid();
        counted.addListener(f -> written(size, f.isSuccess()));
        ctx.write(msg, counted);
    }

    private void written(long size, boolean taken) {
        memory.written(size);
        if (taken) {
            progress = System.nanoTime();
        }
        if (holding && waiting() <= memory.writeShare()) {
            holding = false;
            memory.notHolding(this);
        }
    }

    /** From the node's tick while the budget is spent (any thread): closes this connection if it stalled. */
    @Override
    public void checkStalled() {
        ChannelHandlerContext c = ctx;
        if (c != null) {
            c.executor().execute(() -> {
                if (!closing && stalled(waiting())) {
                    closeStalled(waiting());
                }
            });
        }
    }

    private boolean stalled(long waiting) {
        return waiting > memory.writeShare()
                && memory.inFlightSpent()
                && System.nanoTime() - progress > NodeMemory.WRITE_STALL_NANOS;
    }

    private void closeStalled(long waiting) {
        closeNotReading(
                "it does not read what the node writes ({} bytes waiting, nothing taken for {} ms, more than its"
                        + " share {} of the node's in-flight budget, which is spent: {} of {} bytes)",
                waiting,
                (System.nanoTime() - progress) / 1_000_000,
                memory.writeShare(),
                memory.inFlightBytes(),
                memory.inFlightLimit());
    }

    private void closeNotReading(String why, Object... args) {
        closing = true;
        Object[] all = new Object[args.length + 1];
        all[0] = ctx.channel().remoteAddress();
        System.arraycopy(args, 0, all, 1, args.length);
        LOG.warn("closing connection {}: " + why, all);
        ctx.close();
    }

    private long waiting() {
        ChannelOutboundBuffer pending = ctx.channel().unsafe().outboundBuffer();
        return pending == null ? 0 : pending.totalPendingWriteBytes();
    }

    private static long sizeOf(Object msg) {
        if (msg instanceof ByteBuf b) {
            return b.readableBytes();
        }
        if (msg instanceof ByteBufHolder h) {
            return h.content().readableBytes();
        }
        return 0;
    }
}
