package org.partita.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.TooLongFrameException;

/**
 * Splits the byte stream into frames by their 4-byte length prefix and decodes each one. A frame
 * longer than {@code maxFrameSize} fails with Netty's {@code TooLongFrameException} before any of
 * it is buffered; a malformed one with {@link ProtocolException}. Either way the pipeline's
 * exception handler answers with an error frame and closes the connection.
 *
 * <p>A node first accepts only small frames ({@link #FrameDecoder(int, int)}): before a peer has
 * authenticated, a length prefix above that first limit fails at once, so an unauthenticated socket
 * can make the node buffer a HELLO at most. {@link #acceptUpTo} lifts it after the handshake.
 */
public class FrameDecoder extends LengthFieldBasedFrameDecoder {
    private final int maxFrameSize;
    private int limit;
    private boolean refused;

    public FrameDecoder(int maxFrameSize) {
        this(maxFrameSize, maxFrameSize);
    }

    /** Accepts frames of up to {@code initialLimit} bytes until {@link #acceptUpTo} raises it (at most to {@code maxFrameSize}). */
    public FrameDecoder(int maxFrameSize, int initialLimit) {
        super(maxFrameSize + 4, 0, 4, 0, 4, true);
        this.maxFrameSize = maxFrameSize;
        this.limit = Math.min(initialLimit, maxFrameSize);
    }

    /** From now on accepts frames of up to {@code bytes} (never more than the maximum frame size). Event loop only. */
    public void acceptUpTo(int bytes) {
        limit = Math.min(bytes, maxFrameSize);
    }

    @Override
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        if (refused) {
            in.skipBytes(in.readableBytes());
            return null;
        }
        if (limit < maxFrameSize && in.readableBytes() >= 4 && in.getUnsignedInt(in.readerIndex()) > limit) {
            // nothing more is read from a peer that broke the limit: the connection is closed for it
            refused = true;
            long length = in.getUnsignedInt(in.readerIndex());
            in.skipBytes(in.readableBytes());
            throw new TooLongFrameException("frame of " + length + " bytes exceeds the limit of " + limit + " bytes");
        }
        ByteBuf body = (ByteBuf) super.decode(ctx, in);
        if (body == null) {
            return null;
        }
        try {
            if (!body.isReadable()) {
                throw new ProtocolException(ErrorCode.MALFORMED_FRAME, "empty frame");
            }
            return FrameCodec.decode(body);
        } finally {
            body.release();
        }
    }
}
