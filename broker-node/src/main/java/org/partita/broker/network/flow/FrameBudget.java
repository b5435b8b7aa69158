package org.partita.broker.network.flow;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;

/**
 * Counts the bytes a connection's {@link CountedFrameDecoder} holds of a frame not yet complete in
 * the node-wide in-flight budget ({@link NodeMemory}), and stops reading a connection in the middle
 * of a large frame while that budget is spent, so that many connections each starting a frame of
 * the maximum size cannot make the node hold connections × maximum frame size. One such connection
 * at a time may finish its frame past the budget ({@link NodeMemory#mayFinish}), so a frame larger
 * than the budget completes and nothing waits for ever. Once decoded, a frame's bytes leave this
 * count; a SEND's are then counted by its {@link SendWindow} until the node is done with it.
 *
 * <p>Sits before the decoder: a decoder left without a whole frame asks for another read even with
 * auto-read off, and this handler holds that request back while the connection is paused.
 */
public final class FrameBudget extends ChannelDuplexHandler implements NodeMemory.Waiter, NodeMemory.Reader {
    /** Frames up to this size (requests, small messages) are read in any case: they hold little, and a normal client's request is never held behind a large frame. */
    static final int LARGE_FRAME_BYTES = 64 * 1024;

    private final NodeMemory memory;
    private ChannelHandlerContext ctx;
    /** All fields: event loop only. Bytes of this connection's partial frame counted in the budget. */
    private long counted;

    private boolean paused;
    private boolean closed;

    public FrameBudget(NodeMemory memory) {
        this.memory = memory;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /**
     * The decoder's state after one decode step: it holds {@code bytes} not yet decoded, of a frame of
     * {@code frameLength} bytes (0 if its length is not read yet); {@code decoded} if the step completed a frame.
     */
    void holding(int bytes, long frameLength, boolean decoded) {
        if (closed) {
            return; // the decoder decodes what is left once more as the channel closes: released already
        }
        long change = bytes - counted;
        counted = bytes;
        if (change > 0) {
            memory.framing(change);
        } else if (change < 0) {
            memory.framed(-change);
        }
        if (decoded) {
            memory.finished(this);
        }
        if (bytes > 0
                && frameLength > LARGE_FRAME_BYTES
                && !paused
                && memory.inFlightSpent()
                && !memory.mayFinish(this)) {
            paused = true;
            ReadSwitch.of(ctx.channel()).hold(ReadSwitch.Reason.FRAME);
            memory.await(this);
        }
    }

    @Override
    public boolean stalled() {
        return !ctx.channel().config().isAutoRead();
    }

    @Override
    public void resume() {
        ctx.channel().eventLoop().execute(this::retry);
    }

    private void retry() {
        if (!paused || closed) {
            return;
        }
        if (!memory.inFlightSpent() || memory.mayFinish(this)) {
            paused = false;
            ReadSwitch.of(ctx.channel()).release(ReadSwitch.Reason.FRAME);
        } else {
            memory.await(this);
        }
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        if (!ReadSwitch.of(ctx.channel()).held()) {
            ctx.read();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        closed = true;
        memory.forget(this);
        if (counted > 0) {
            memory.framed(counted);
            counted = 0;
        }
        memory.finished(this);
        super.channelInactive(ctx);
    }
}
