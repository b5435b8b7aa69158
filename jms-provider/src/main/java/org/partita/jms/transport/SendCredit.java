package org.partita.jms.transport;

import java.util.concurrent.TimeUnit;
import org.partita.protocol.ErrorCode;

/**
 * The client's side of the node's send credit (SEND_CREDIT, protocol 3): bytes the connection may
 * still send before the node confirms earlier sends. A send may start while the window is above
 * zero and takes its whole length from it, so what a connection has outstanding stays within one
 * window plus one message, however fast the application sends. Before the node speaks protocol 3
 * (or before the handshake) the window is {@linkplain #unbounded unbounded}.
 */
final class SendCredit {
    /** How long a send waits for credit before it fails: the node withholds credit only while it is short of memory. */
    static final long WAIT_MILLIS = 60_000;

    private boolean bounded;
    private long available;
    private BrokerError failure;

    synchronized void bounded() {
        bounded = true;
    }

    synchronized void unbounded() {
        bounded = false;
        notifyAll();
    }

    synchronized void grant(int bytes) {
        available += bytes;
        notifyAll();
    }

    /** The connection failed: waiting senders go on and find out when they send. */
    synchronized void failed(BrokerError cause) {
        failure = cause;
        notifyAll();
    }

    /** Blocks while the window is spent. */
    synchronized void await() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        boolean interrupted = false;
        try {
            while (bounded && available <= 0 && failure == null) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new BrokerError(
                            ErrorCode.RESOURCE_EXHAUSTED,
                            "the node gave no send credit for " + WAIT_MILLIS / 1000
                                    + " s: it is short of memory and its consumers do not catch up");
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** A send of {@code bytes} goes out. */
    synchronized void take(int bytes) {
        if (bounded) {
            available -= bytes;
        }
    }
}
