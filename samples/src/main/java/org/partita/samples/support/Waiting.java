package org.partita.samples.support;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for something a sample expects to happen, for a bounded time. */
public final class Waiting {
    private static final long POLL_MILLIS = 20;

    private Waiting() {}

    /** Whether {@code condition} became true within {@code limit}. */
    public static boolean until(Duration limit, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(POLL_MILLIS);
        }
        return true;
    }
}
