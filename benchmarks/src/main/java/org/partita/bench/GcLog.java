package org.partita.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The collections a broker JVM logged with {@code -Xlog:gc:file=<path>:uptimemillis}, read after
 * the JVM ended: what its heap held around a moment (a stop), seen from outside the broker's code.
 */
final class GcLog {
    /** {@code [12345ms] GC(7) Pause Young (Normal) (G1 Evacuation Pause) 300M->120M(512M) 5.1ms}. */
    private static final Pattern PAUSE = Pattern.compile(
            "^\\[(\\d+)ms\\] GC\\(\\d+\\) Pause (Young|Full)\\b.* (\\d+)([KMG])->(\\d+)([KMG])\\(\\d+[KMG]\\)");

    private GcLog() {}

    /** The option that makes a JVM write the log {@link #since} reads. */
    static String option(Path file) {
        return "-Xlog:gc:file=" + file + ":uptimemillis";
    }

    /** Collections from {@code fromUptimeMillis} (the JVM's uptime) to the end of the log. */
    static Summary since(Path file, long fromUptimeMillis) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        int collections = 0;
        int full = 0;
        long maxBefore = 0;
        long maxAfter = 0;
        for (String line : lines) {
            Matcher m = PAUSE.matcher(line);
            if (!m.find() || Long.parseLong(m.group(1)) < fromUptimeMillis) {
                continue;
            }
            collections++;
            if (m.group(2).equals("Full")) {
                full++;
            }
            maxBefore = Math.max(maxBefore, bytes(m.group(3), m.group(4)));
            maxAfter = Math.max(maxAfter, bytes(m.group(5), m.group(6)));
        }
        return new Summary(collections, full, maxBefore, maxAfter);
    }

    private static long bytes(String number, String unit) {
        long n = Long.parseLong(number);
        return switch (unit) {
            case "K" -> n << 10;
            case "M" -> n << 20;
            default -> n << 30;
        };
    }

    /**
     * @param collections young (and mixed) and full collections in the interval
     * @param full        full collections among them: the heap could not make room otherwise
     * @param maxBefore   the most heap in use when a collection started
     * @param maxAfter    the most heap still in use after a collection: what was really held
     */
    record Summary(int collections, int full, long maxBefore, long maxAfter) {
        static final Summary NONE = new Summary(0, 0, 0, 0);

        String describe() {
            return collections == 0
                    ? "no GC"
                    : String.format(
                            Locale.ROOT,
                            "%d GCs, %d full; max %d MiB after GC, %d MiB before",
                            collections,
                            full,
                            maxAfter >> 20,
                            maxBefore >> 20);
        }
    }
}
