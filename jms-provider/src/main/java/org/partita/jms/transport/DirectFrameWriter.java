package org.partita.jms.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.ChannelOutputShutdownEvent;
import io.netty.channel.unix.FileDescriptor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.partita.protocol.Frame;
import org.partita.protocol.FrameEncoder;

/**
 * Frames encoded on the thread that sends them. A request, whose answer someone waits for (a
 * persistent send, a commit), is written to the socket by that thread when nothing is queued before
 * it: one system call on the application's thread instead of waking the event loop to make it (one
 * wake-up fewer on every synchronous send). A frame nobody waits for (a non-persistent send, an
 * acknowledgement, credit) goes to the event loop, which writes a burst of them with one system call
 * where writing each at once would make one per frame (a non-persistent flood lost 30% that way).
 * When the event loop has bytes of its own to write, or the socket takes only part of a frame, the
 * rest goes through the loop as usual and later frames follow it there until it has drained.
 *
 * <p>Writing beside Netty is safe because of four rules, each kept by this handler, which sits first
 * in the pipeline (next to the socket):
 * <ol>
 * <li>every byte the loop queues passes this handler's {@code write}, and every socket write the loop
 * starts from the pipeline passes its {@code flush}; both hold the lock a direct write holds;</li>
 * <li>the loop also writes outside the pipeline (when the socket has room again after a partial
 * write), but only while its outbound buffer holds bytes, and a direct write happens only when that
 * buffer is empty and no frame handed to the loop is still on its way to it;</li>
 * <li>a frame handed to the loop from another thread waits in the loop's task queue, where a frame
 * written on the loop itself would overtake it: on the loop, a frame goes behind such frames in that
 * queue, never straight into the pipeline;</li>
 * <li>the socket is closed only under the lock: this handler's {@code close} holds it, and the
 * channel is set never to close itself behind the pipeline's back on a failed read or write (half
 * closure allowed, no auto-close); the events Netty sends instead close it here.</li>
 * </ol>
 * Linux epoll only (the socket's descriptor is needed), and never under TLS, whose bytes only the
 * pipeline can make.
 */
final class DirectFrameWriter extends ChannelDuplexHandler implements FrameWriter {
    private final Channel channel;
    private final FileDescriptor socket;
    private final ReentrantLock lock = new ReentrantLock();
    /** Frames handed to the event loop that have not reached its outbound buffer yet. Guarded by {@link #lock}. */
    private int onTheirWay;
    /** Guarded by {@link #lock}. */
    private boolean closed;
    /** Frames written whole by the thread that sent them. Guarded by {@link #lock}. */
    private long writtenDirectly;

    private volatile int maxFrameSize;

    /** Puts itself first in {@code channel}'s pipeline and sets the channel's close rules (see above). */
    DirectFrameWriter(Channel channel, FileDescriptor socket, int maxFrameSize) {
        this.channel = channel;
        this.socket = socket;
        this.maxFrameSize = maxFrameSize;
        if (!channel.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true)) {
            throw new IllegalArgumentException(
                    channel.getClass().getName() + " cannot leave its closing to the pipeline");
        }
        channel.config().setAutoClose(false);
        channel.pipeline().addFirst("direct-writer", this);
    }

    @Override
    public void write(Frame frame, Consumer<Throwable> failed) {
        ByteBuf bytes = channel.alloc().directBuffer();
        try {
            FrameEncoder.encode(frame, bytes, maxFrameSize);
        } catch (RuntimeException e) {
            bytes.release();
            failed.accept(e);
            return;
        }
        IOException lost = null;
        lock.lock();
        try {
            if (frame.requestId() != 0 && canWriteNow()) {
                try {
                    writeNow(bytes);
                } catch (IOException e) {
                    lost = e;
                }
            }
            if (lost == null && bytes.isReadable()) {
                boolean othersOnTheirWay = onTheirWay != 0;
                onTheirWay++;
                if (othersOnTheirWay && channel.eventLoop().inEventLoop()) {
                    // Frames other threads handed to the loop wait in its task queue, one of them maybe
                    // the rest of a frame half written above: a write made here, on the loop, would go
                    // to the socket at once, ahead of them, and land inside that frame (a lease ping in
                    // the middle of a 15 MiB message, found in CI). Behind them in the queue it waits its turn.
                    try {
                        channel.eventLoop().execute(() -> handToLoop(bytes, failed));
                    } catch (java.util.concurrent.RejectedExecutionException shutDown) {
                        onTheirWay--;
                        bytes.release();
                        failed.accept(shutDown);
                    }
                } else {
                    handToLoop(bytes, failed);
                }
                return;
            }
            bytes.release();
        } finally {
            lock.unlock();
        }
        if (lost != null) {
            failed.accept(lost);
            channel.close(); // as Netty does after a failed write of its own
        }
    }

    /** Writes {@code bytes} through the pipeline: at once on the loop, else queued on it behind earlier frames. */
    private void handToLoop(ByteBuf bytes, Consumer<Throwable> failed) {
        channel.writeAndFlush(bytes).addListener(f -> {
            if (!f.isSuccess()) {
                failed.accept(f.cause());
            }
        });
    }

    /** Under {@link #lock}. */
    private boolean canWriteNow() {
        if (closed || onTheirWay != 0 || !socket.isOpen()) {
            return false;
        }
        ChannelOutboundBuffer queued = channel.unsafe().outboundBuffer();
        return queued != null && queued.totalPendingWriteBytes() == 0;
    }

    /** Under {@link #lock}: as much of {@code bytes} as the socket takes now, without waiting. */
    private void writeNow(ByteBuf bytes) throws IOException {
        int written;
        if (bytes.hasMemoryAddress()) {
            written = socket.writeAddress(bytes.memoryAddress(), bytes.readerIndex(), bytes.writerIndex());
        } else {
            ByteBuffer view = bytes.nioBuffer();
            written = socket.write(view, view.position(), view.limit());
        }
        bytes.skipBytes(written);
        if (!bytes.isReadable()) {
            writtenDirectly++;
        }
    }

    @Override
    public void limit(int maxFrameSize) {
        this.maxFrameSize = maxFrameSize;
    }

    /** How many frames went to the socket whole from the threads that sent them (tests read it). */
    long writtenDirectly() {
        lock.lock();
        try {
            return writtenDirectly;
        } finally {
            lock.unlock();
        }
    }

    // The pipeline side: the event loop's writes, flushes and close, under the same lock.

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        lock.lock();
        try {
            onTheirWay--; // every frame in this pipeline comes from write(Frame, ...) above
            ctx.write(msg, promise);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        lock.lock();
        try {
            ctx.flush();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        lock.lock();
        try {
            closed = true;
            ctx.close(promise);
        } finally {
            lock.unlock();
        }
    }

    /** A read found the peer gone, or a write of the loop failed: Netty left the channel open; close it here. */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof ChannelInputShutdownEvent || event instanceof ChannelOutputShutdownEvent) {
            ctx.channel().close();
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        lock.lock();
        try {
            closed = true;
        } finally {
            lock.unlock();
        }
        ctx.fireChannelInactive();
    }
}
