package org.partita.ra.inbound;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * How long an endpoint waits after a failed delivery before it takes its next message: 100 ms
 * after the first failure in a row, doubling up to 2 s, and nothing once a delivery succeeds. A
 * container refuses every invocation for a while when it shuts a bean down (until it deactivates
 * the endpoint); without a pause each refusal would hand the message back and take it again at
 * once, spending its delivery attempts in a loop. The wait ends early when the activation stops,
 * so a deactivation never waits for it.
 */
final class FailurePause {
    static final long FIRST_MILLIS = 100;
    static final long MAX_MILLIS = 2_000;

    private final CountDownLatch stopped;
    private int failuresInARow;

    /** {@code stopped} is counted down when the activation stops. */
    FailurePause(CountDownLatch stopped) {
        this.stopped = stopped;
    }

    void succeeded() {
        failuresInARow = 0;
    }

    /** Waits before the next delivery, longer after each failure in a row; at once if the activation stops. */
    void failed() {
        long millis = delayAfter(++failuresInARow);
        try {
            stopped.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static long delayAfter(int failuresInARow) {
        int doublings = Math.min(failuresInARow - 1, 30);
        return Math.min(MAX_MILLIS, FIRST_MILLIS << doublings);
    }
}
