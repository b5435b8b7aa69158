package org.partita.bench;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * End-to-end latency of one scenario run: each message carries the {@link System#nanoTime()} of its
 * send in property {@code t} (producers and consumers share the load tool's JVM, so one clock), and
 * each first arrival records the time since. Recording is thread-safe and allocation-free.
 */
final class Latency {
    static final String SENT_AT = "t";
    private final Histogram histogram = new ConcurrentHistogram(TimeUnit.MINUTES.toNanos(10), 3);

    /** Time the tool itself stood still while messages waited, left out of their latency. */
    private volatile long pausedNanos;

    /** Records the arrival, now, of {@code m}. */
    void arrived(Message m) throws JMSException {
        long sent = m.getLongProperty(SENT_AT);
        long waited = System.nanoTime() - sent - pausedNanos;
        histogram.recordValue(Math.max(0, Math.min(histogram.getHighestTrackableValue(), waited)));
    }

    /**
     * The tool paused for a measurement of its own ({@code nanos}) while every message still to
     * arrive had been sent and was waiting: that pause is not counted in their latency. Call it
     * before any of them arrives.
     */
    void paused(long nanos) {
        pausedNanos += nanos;
    }

    /** Adds {@code <key>.p50}, {@code .p99} and {@code .max} in milliseconds (nothing if no message arrived). */
    void report(String key, Map<String, Double> values) {
        if (histogram.getTotalCount() == 0) {
            return;
        }
        values.put(key + ".p50", histogram.getValueAtPercentile(50) / 1e6);
        values.put(key + ".p99", histogram.getValueAtPercentile(99) / 1e6);
        values.put(key + ".max", histogram.getMaxValue() / 1e6);
    }
}
