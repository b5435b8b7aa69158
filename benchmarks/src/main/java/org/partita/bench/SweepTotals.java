package org.partita.bench;

import java.util.Map;

/**
 * The checks of a sweep's steps (S9, S10) added up into one run's result: every message of every
 * step must arrive exactly once, within its step's time cap, without error; the first failure stops
 * the sweep, and the run fails with it.
 */
final class SweepTotals {
    private int expected;
    private int arrived;
    private int duplicates;
    private int unexpected;
    private boolean timedOut;
    private Throwable failure;

    /** Adds one step's tallies; {@code complete} false without a failure means its time cap stopped it. */
    void add(Tally[] tallies, boolean complete, Throwable stepFailure) {
        for (Tally t : tallies) {
            expected += t.expected();
            arrived += t.distinct();
            duplicates += t.duplicates();
            unexpected += t.unexpected();
        }
        if (stepFailure != null) {
            fail(stepFailure);
        } else if (!complete) {
            timedOut = true;
        }
    }

    void fail(Throwable e) {
        if (failure == null) {
            failure = e;
        }
    }

    /** Whether a step failed or was stopped by its time cap (or lost or duplicated a message). */
    boolean failed() {
        return failure != null || timedOut || arrived != expected || duplicates > 0 || unexpected > 0;
    }

    RunResult result(Scenario s, Target target, int run, Map<String, Double> values, Map<String, String> notes) {
        if (unexpected > 0) {
            notes.put("unexpected", unexpected + " messages that no producer of this run sent");
        }
        return new RunResult(
                s,
                target,
                run,
                values,
                expected,
                arrived,
                duplicates,
                timedOut && failure == null,
                notes,
                failure == null ? null : failure.toString());
    }
}
