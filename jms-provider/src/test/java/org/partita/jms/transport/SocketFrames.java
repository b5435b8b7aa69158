package org.partita.jms.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.partita.protocol.Frame;
import org.partita.protocol.FrameCodec;

/** Frames on a plain socket, for the tests' scripted nodes: a length prefix, then the frame's body. */
final class SocketFrames {
    private SocketFrames() {}

    static void write(DataOutputStream out, Frame frame) throws IOException {
        ByteBuf body = Unpooled.buffer();
        FrameCodec.encode(frame, body);
        out.writeInt(body.readableBytes());
        out.write(body.array(), body.arrayOffset() + body.readerIndex(), body.readableBytes());
        out.flush();
    }

    static Frame read(DataInputStream in) throws IOException {
        byte[] body = new byte[in.readInt()];
        in.readFully(body);
        return FrameCodec.decode(Unpooled.wrappedBuffer(body));
    }
}
