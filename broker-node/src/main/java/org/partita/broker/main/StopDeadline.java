package org.partita.broker.main;

import java.time.Duration;

/**
 * Bounds a clean stop: a SIGTERM must end the process within a known time even if closing hangs
 * (a store that stopped answering, a peer that never closes). Past the deadline the process halts;
 * what was confirmed is in the journal, which the next start replays.
 */
final class StopDeadline {
    /** Exit status of a stop that did not finish in time. */
    static final int EXIT_STATUS = 4;

    private StopDeadline() {}

    /**
     * Runs {@code stop} when the JVM is asked to end (SIGTERM, Ctrl-C), and halts the process with
     * {@link #EXIT_STATUS} if {@code stop} has not returned within {@code deadline}.
     */
    static void onShutdown(Duration deadline, Runnable stop) {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            start(deadline);
                            stop.run();
                        },
                        "partita-shutdown"));
    }

    private static void start(Duration deadline) {
        Thread t = new Thread(
                () -> {
                    try {
                        Thread.sleep(deadline.toMillis());
                    } catch (InterruptedException e) {
                        return;
                    }
                    System.err.println("partita-node: the clean stop took longer than " + deadline.toSeconds()
                            + " s; halting (the journal recovers at the next start)");
                    System.err.flush();
                    Runtime.getRuntime().halt(EXIT_STATUS);
                },
                "partita-stop-deadline");
        t.setDaemon(true);
        t.start();
    }
}
