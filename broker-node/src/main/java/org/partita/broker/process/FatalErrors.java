package org.partita.broker.process;

import java.util.concurrent.atomic.AtomicReference;

/**
 * What the node does when the JVM itself fails (an {@link OutOfMemoryError} or another {@link
 * VirtualMachineError}): a node that ran out of memory is not trustworthy any more, and staying up
 * unresponsive is worse than stopping, because a supervisor restarts a stopped node and the journal
 * recovers what it had confirmed.
 *
 * <p>Code that catches {@code Throwable} to keep a thread alive (event loops, queue executors, the
 * store's writer) hands it to {@link #check} first. An embedded node does nothing by default, so a
 * test or an application that embeds a node is never halted behind its back; {@code NodeMain}, the
 * process entry point, calls {@link #haltOnFatalErrors} so the process exits.
 */
public final class FatalErrors {
    /** Exit status of a node halted by a fatal JVM error. */
    public static final int EXIT_STATUS = 3;

    private static final AtomicReference<Runnable> ON_FATAL = new AtomicReference<>();

    private FatalErrors() {}

    /** From now on a fatal JVM error anywhere halts the process, also one that no code catches. */
    public static void haltOnFatalErrors() {
        ON_FATAL.set(() -> Runtime.getRuntime().halt(EXIT_STATUS));
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, error) -> {
            check(error);
            if (previous != null) {
                previous.uncaughtException(thread, error);
            } else {
                error.printStackTrace();
            }
        });
    }

    /** Halts the process if {@code t} (or its cause) is a fatal JVM error and the process asked for it. */
    public static void check(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof VirtualMachineError) {
                Runnable halt = ON_FATAL.get();
                if (halt != null) {
                    // no logging framework here: it may need the memory that ran out
                    System.err.println("partita-node: fatal JVM error, exiting with status " + EXIT_STATUS + ": " + c);
                    System.err.flush();
                    halt.run();
                }
                return;
            }
        }
    }
}
