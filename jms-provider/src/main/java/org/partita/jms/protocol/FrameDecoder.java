package org.partita.jms.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;

/**
 * Splits the byte stream into frames by their 4-byte length prefix and decodes each one. A frame
 * longer than {@code maxFrameSize} fails with Netty's {@code TooLongFrameException} before any of
 * it is buffered; a malformed one with {@link ProtocolException}. Either way the pipeline's
 * exception handler answers with an error frame and closes the connection.
 */
public class FrameDecoder extends LengthFieldBasedFrameDecoder {

    public FrameDecoder(int maxFrameSize) {
        super(maxFrameSize + 4, 0, 4, 0, 4, true);
    }

    @Override
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
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
