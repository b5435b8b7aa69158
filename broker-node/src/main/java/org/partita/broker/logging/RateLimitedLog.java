package org.partita.broker.logging;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.event.Level;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * Logs an event that outsiders can repeat at will (malformed connections, dropped messages, failed
 * logins) at most {@code perWindow} times per window and event name, so a burst cannot fill the
 * disk with log. What is held back is counted: the next line of that event after the window adds
 * {@code (N more suppressed in the last S s)} and the key-value {@code suppressed=N}, so nothing
 * goes unnoticed. Every line carries the key-value {@code event=<name>} (shown by the JSON log).
 *
 * <p>Event names are a fixed vocabulary (such as {@code connection.malformed}), never a value
 * taken from the outside, so the map of windows stays small. Thread-safe.
 */
public final class RateLimitedLog {
    /** Lines per window and event unless told otherwise. */
    public static final int DEFAULT_PER_WINDOW = 10;

    public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(10);

    private final Logger log;
    private final int perWindow;
    private final long windowNanos;
    private final LongSupplier nanoClock;
    private final Map<String, Window> windows = new ConcurrentHashMap<>();

    /** Counts of one event name; guarded by its own monitor. */
    private static final class Window {
        long start;
        int logged;
        long suppressed;
        long startOfSuppression;
    }

    public RateLimitedLog(Logger log) {
        this(log, DEFAULT_PER_WINDOW, DEFAULT_WINDOW, System::nanoTime);
    }

    public RateLimitedLog(Logger log, int perWindow, Duration window, LongSupplier nanoClock) {
        if (perWindow < 1 || window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("a rate limit needs at least one line per positive window");
        }
        this.log = log;
        this.perWindow = perWindow;
        this.windowNanos = window.toNanos();
        this.nanoClock = nanoClock;
    }

    public void info(String event, String format, Object... args) {
        log(Level.INFO, event, format, args);
    }

    public void warn(String event, String format, Object... args) {
        log(Level.WARN, event, format, args);
    }

    /** Logs the line unless this event already filled its window; a trailing Throwable is logged as the cause. */
    public void log(Level level, String event, String format, Object... args) {
        log(level, event, Map.of(), format, args);
    }

    /** The same, with key-values of the event's own (the user of a failed login) added to the line. */
    public void log(Level level, String event, Map<String, ?> keyValues, String format, Object... args) {
        if (!log.isEnabledForLevel(level)) {
            return;
        }
        long suppressedBefore;
        long suppressedSeconds;
        Window w = windows.computeIfAbsent(event, e -> new Window());
        synchronized (w) {
            long now = nanoClock.getAsLong();
            if (w.logged == 0 || now - w.start >= windowNanos) {
                suppressedBefore = w.suppressed;
                suppressedSeconds = Math.max(1, (now - w.startOfSuppression) / 1_000_000_000L);
                w.start = now;
                w.logged = 1;
                w.suppressed = 0;
            } else if (w.logged < perWindow) {
                w.logged++;
                suppressedBefore = 0;
                suppressedSeconds = 0;
            } else {
                if (w.suppressed++ == 0) {
                    w.startOfSuppression = now;
                }
                return;
            }
        }
        emit(level, event, keyValues, format, args, suppressedBefore, suppressedSeconds);
    }

    /** Lines held back so far and not yet reported, over all events; for tests. */
    public long pendingSuppressed() {
        long n = 0;
        for (Window w : windows.values()) {
            synchronized (w) {
                n += w.suppressed;
            }
        }
        return n;
    }

    private void emit(
            Level level,
            String event,
            Map<String, ?> keyValues,
            String format,
            Object[] args,
            long suppressed,
            long seconds) {
        LoggingEventBuilder b = log.atLevel(level).addKeyValue("event", event);
        for (Map.Entry<String, ?> kv : keyValues.entrySet()) {
            b = b.addKeyValue(kv.getKey(), kv.getValue());
        }
        Object[] a = args;
        if (a.length > 0 && a[a.length - 1] instanceof Throwable t) {
            b = b.setCause(t);
            a = Arrays.copyOf(a, a.length - 1);
        }
        if (suppressed > 0) {
            b = b.addKeyValue("suppressed", suppressed);
            format = format + " ({} more suppressed in the last {} s)";
            a = Arrays.copyOf(a, a.length + 2);
            a[a.length - 2] = suppressed;
            a[a.length - 1] = seconds;
        }
        b.log(format, a);
    }
}
