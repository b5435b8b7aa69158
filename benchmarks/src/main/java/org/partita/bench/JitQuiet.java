package org.partita.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;

/**
 * Waits, after a warm-up, until this JVM's JIT compilers have finished what the warm-up gave them
 * (no compilation for half a second). Compilation goes on in the background after the code that
 * triggered it has run, and on two cores a compiler thread at work takes a good part of a core from
 * the run being measured (a broker JVM's C2 thread was seen using 60% of a core around its warm-up).
 * The pause also lets the warm-up's brokers finish closing before the first measured run.
 */
final class JitQuiet {
    /** No compilation for this long counts as done. */
    private static final long QUIET_MILLIS = 500;
    /** The wait never takes longer than this: a JVM that keeps compiling is measured anyway. */
    private static final long MAX_MILLIS = 15_000;

    private static final long POLL_MILLIS = 50;

    private JitQuiet() {}

    /** Milliseconds this JVM's JIT compilers have spent so far; -1 where the JVM does not tell. */
    static long compilationMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit == null || !jit.isCompilationTimeMonitoringSupported() ? -1 : jit.getTotalCompilationTime();
    }

    /** @return how long it waited, in milliseconds; 0 where the JVM does not report compilation time */
    static long await() throws InterruptedException {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return 0;
        }
        long began = System.nanoTime();
        long deadline = began + TimeUnit.MILLISECONDS.toNanos(MAX_MILLIS);
        long compiled = jit.getTotalCompilationTime();
        long quietSince = began;
        while (System.nanoTime() - deadline < 0) {
            Thread.sleep(POLL_MILLIS);
            long now = jit.getTotalCompilationTime();
            if (now != compiled) {
                compiled = now;
                quietSince = System.nanoTime();
            } else if (System.nanoTime() - quietSince >= TimeUnit.MILLISECONDS.toNanos(QUIET_MILLIS)) {
                break;
            }
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
    }
}
