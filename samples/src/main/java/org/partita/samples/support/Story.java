package org.partita.samples.support;

import java.io.PrintWriter;

/**
 * What a sample tells its reader while it runs: one line per event, stamped with the seconds since
 * the sample started, so the order of events (and how long a rebalance took) can be read off.
 * Listeners call it from their own threads, hence the lock.
 */
public final class Story {
    private final PrintWriter out;
    private final long startNanos = System.nanoTime();

    public Story(PrintWriter out) {
        this.out = out;
    }

    /** A line of the story, formatted as {@link String#format}. */
    public synchronized void say(String format, Object... args) {
        out.printf("%6.1fs  %s%n", seconds(), String.format(format, args));
        out.flush();
    }

    /** A heading that starts a new part of the story. */
    public synchronized void part(String title) {
        out.printf("%n== %s%n", title);
        out.flush();
    }

    /** A line without a time stamp (tables, summaries). */
    public synchronized void plain(String format, Object... args) {
        out.printf("          %s%n", String.format(format, args));
        out.flush();
    }

    public double seconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
