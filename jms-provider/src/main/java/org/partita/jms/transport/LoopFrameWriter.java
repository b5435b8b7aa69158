package org.partita.jms.transport;

import io.netty.channel.Channel;
import java.util.function.Consumer;
import org.partita.protocol.Frame;
import org.partita.protocol.FrameEncoder;

/**
 * Frames handed to the channel's event loop, which encodes them (a {@link FrameEncoder} in the
 * pipeline) and writes them: what every Netty transport supports, TLS included. From any thread but
 * the loop's own, each frame wakes the loop.
 */
final class LoopFrameWriter implements FrameWriter {
    private static final String ENCODER = "encoder";

    private final Channel channel;

    /** Adds the encoder to the end of {@code channel}'s pipeline as it stands. */
    LoopFrameWriter(Channel channel, int maxFrameSize) {
        this.channel = channel;
        channel.pipeline().addLast(ENCODER, new FrameEncoder(maxFrameSize));
    }

    @Override
    public void write(Frame frame, Consumer<Throwable> failed) {
        channel.writeAndFlush(frame).addListener(f -> {
            if (!f.isSuccess()) {
                failed.accept(f.cause());
            }
        });
    }

    @Override
    public void limit(int maxFrameSize) {
        channel.pipeline().replace(ENCODER, ENCODER, new FrameEncoder(maxFrameSize));
    }
}
