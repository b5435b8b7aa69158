package org.partita.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingStream;

/**
 * This JVM's deoptimizations (JFR's {@code jdk.Deoptimization} events) in a window of time: compiled
 * code the JVM threw away because it met a case its compilation had left out, to run it interpreted
 * and compile it again. A broker's hot methods inline so much that one recompilation keeps a C2 thread
 * busy for 100 to 700 ms, on two cores a good part of the run being measured (a short queue name
 * written in a way the compiled journal encoder never saw once did this in every S1 run). Each run's
 * note names where the compiled code met the case it had left out.
 */
final class Deoptimizations {
    private static final Duration FLUSH_WAIT = Duration.ofSeconds(3);
    private static final int PLACES_SHOWN = 3;
    private static Deoptimizations started;

    private final RecordingStream stream;
    private final List<Deopt> seen = new ArrayList<>();
    /** When the stream last handed over everything recorded until then. */
    private Instant flushed = Instant.MIN;

    private record Deopt(Instant at, String place) {}

    private Deoptimizations() {
        stream = new RecordingStream();
        stream.enable("jdk.Deoptimization").withStackTrace();
        stream.onEvent("jdk.Deoptimization", this::record);
        stream.onFlush(this::flushed);
        stream.startAsync();
    }

    /** Starts watching this JVM, once; null where the JVM cannot record (no JFR). */
    static synchronized Deoptimizations watch() {
        if (started == null) {
            try {
                started = new Deoptimizations();
            } catch (RuntimeException | Error e) {
                return null;
            }
        }
        return started;
    }

    private synchronized void record(RecordedEvent e) {
        seen.add(new Deopt(e.getStartTime(), place(e)));
    }

    private synchronized void flushed() {
        flushed = Instant.now();
        notifyAll();
    }

    /**
     * The deoptimizations between {@code from} and {@code to}: "none", or their count and the most
     * frequent places. Waits (at most a few seconds) until the recording has handed over what happened
     * until {@code to}.
     */
    synchronized String between(Instant from, Instant to) throws InterruptedException {
        long deadline = System.nanoTime() + FLUSH_WAIT.toNanos();
        while (!flushed.isAfter(to) && System.nanoTime() - deadline < 0) {
            wait(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        }
        Map<String, Integer> byPlace = new LinkedHashMap<>();
        int count = 0;
        for (Deopt d : seen) {
            if (!d.at().isBefore(from) && !d.at().isAfter(to)) {
                byPlace.merge(d.place(), 1, Integer::sum);
                count++;
            }
        }
        if (count == 0) {
            return flushed.isAfter(to) ? "none" : "none seen (the recording did not catch up)";
        }
        return count + " ("
                + byPlace.entrySet().stream()
                        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                        .limit(PLACES_SHOWN)
                        .map(p -> p.getKey() + (p.getValue() > 1 ? " x" + p.getValue() : ""))
                        .collect(Collectors.joining("; "))
                + ")";
    }

    /**
     * Where the compiled code met what it had left out ({@code ByteBuffer.putArray:1304 unstable_if}),
     * and the innermost broker or client method on the stack at that moment, which the place was
     * inlined into.
     */
    private static String place(RecordedEvent e) {
        RecordedMethod m = e.getValue("method");
        String trapped = m == null ? "?" : simple(m);
        String where = trapped + ":" + e.getInt("lineNumber");
        String reason = e.getString("reason");
        String ours = null;
        if (e.getStackTrace() != null) {
            for (RecordedFrame f : e.getStackTrace().getFrames()) {
                String type = f.getMethod().getType().getName();
                if (type.startsWith("org.partita.") || type.startsWith("org.apache.activemq.")) {
                    ours = simple(f.getMethod());
                    break;
                }
            }
        }
        return where + " " + reason + (ours == null || ours.equals(trapped) ? "" : " in " + ours);
    }

    private static String simple(RecordedMethod m) {
        String type = m.getType().getName();
        return type.substring(type.lastIndexOf('.') + 1) + "." + m.getName();
    }
}
