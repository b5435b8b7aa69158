package org.partita.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;

/** Writes a frame as its 4-byte length followed by its body; refuses frames over the maximum size. */
@ChannelHandler.Sharable
public class FrameEncoder extends MessageToByteEncoder<Frame> {
    private final int maxFrameSize;

    public FrameEncoder(int maxFrameSize) {
        super(Frame.class);
        this.maxFrameSize = maxFrameSize;
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, Frame frame, ByteBuf out) {
        encode(frame, out, maxFrameSize);
    }

    /**
     * Appends {@code frame} to {@code out} as its length and body; a frame over {@code maxFrameSize}
     * leaves {@code out} as it was and throws {@link ProtocolException} ({@link ErrorCode#FRAME_TOO_LARGE}).
     */
    public static void encode(Frame frame, ByteBuf out, int maxFrameSize) {
        int start = out.writerIndex();
        out.writeInt(0);
        FrameCodec.encode(frame, out);
        int length = out.writerIndex() - start - 4;
        if (length > maxFrameSize) {
            out.writerIndex(start);
            throw new ProtocolException(
                    ErrorCode.FRAME_TOO_LARGE,
                    frame.type() + " frame of " + length + " bytes exceeds the maximum frame size of " + maxFrameSize);
        }
        out.setInt(start, length);
    }
}
