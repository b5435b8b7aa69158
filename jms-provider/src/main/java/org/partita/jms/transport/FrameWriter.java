package org.partita.jms.transport;

import java.util.function.Consumer;
import org.partita.protocol.Frame;

/**
 * How a connection's frames reach its socket. {@link LoopFrameWriter} hands each frame to the
 * channel's event loop, which encodes and writes it (every transport, TLS included);
 * {@link DirectFrameWriter} encodes it on the calling thread and writes a request to the socket there
 * when nothing is queued before it, so a synchronous send or a commit does not wake the event loop
 * (Linux epoll without TLS).
 *
 * <p>Frames written by one thread reach the socket in the order written.
 */
interface FrameWriter {
    /**
     * Sends {@code frame}; {@code failed} receives the cause when it cannot be sent (over the maximum
     * frame size, connection gone), on whichever thread learns of it.
     */
    void write(Frame frame, Consumer<Throwable> failed);

    /** The node accepts frames of at most this size: larger ones are refused here, the connection intact. */
    void limit(int maxFrameSize);
}
