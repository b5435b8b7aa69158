package org.partita.bench;

import java.util.Map;

/**
 * One scenario run against one broker.
 *
 * @param values    figures by row key ({@link Scenario.Row#key()})
 * @param expected  messages (deliveries, for S5) that had to arrive
 * @param arrived   distinct ones that did
 * @param duplicates arrivals of a message that had already arrived
 * @param notes     scenario-specific checks and figures (order violations, consumers used, store details)
 * @param error     what went wrong, or null
 */
public record RunResult(
        Scenario scenario,
        Target target,
        int run,
        Map<String, Double> values,
        int expected,
        int arrived,
        int duplicates,
        boolean timedOut,
        Map<String, String> notes,
        String error) {

    /**
     * Every message arrived exactly once (at least once where the scenario allows repeats), within the
     * time cap, without error (and, for S4 and S8, each key's first arrivals in order).
     */
    public boolean passed() {
        if (error != null || timedOut || arrived != expected || (duplicates != 0 && !scenario.atLeastOnce())) {
            return false;
        }
        String violations = notes.get("orderViolations");
        return violations == null || "0".equals(violations);
    }

    /** The same run with one more note. */
    public RunResult withNote(String key, String value) {
        Map<String, String> more = new java.util.LinkedHashMap<>(notes);
        more.put(key, value);
        return new RunResult(scenario, target, run, values, expected, arrived, duplicates, timedOut, more, error);
    }

    /**
     * A run's result from what its consumers tallied: arrivals, duplicates, and those no producer of
     * the run sent (noted); {@code complete} false without a failure means the time cap stopped it.
     */
    static RunResult tallied(
            Scenario s,
            Target target,
            int run,
            Map<String, Double> values,
            Tally tally,
            boolean complete,
            Map<String, String> notes,
            Throwable failure) {
        if (tally.unexpected() > 0) {
            notes.put("unexpected", tally.unexpected() + " messages that no producer of this run sent");
        }
        return new RunResult(
                s,
                target,
                run,
                values,
                tally.expected(),
                tally.distinct(),
                tally.duplicates(),
                !complete && failure == null,
                notes,
                failure == null ? null : failure.toString());
    }

    /** The same run with one more figure. */
    public RunResult withValue(String key, double value) {
        Map<String, Double> more = new java.util.LinkedHashMap<>(values);
        more.put(key, value);
        return new RunResult(scenario, target, run, more, expected, arrived, duplicates, timedOut, notes, error);
    }

    public String checkSummary() {
        StringBuilder sb = new StringBuilder();
        sb.append(arrived).append('/').append(expected).append(" arrived");
        if (duplicates > 0) {
            sb.append(", ").append(duplicates).append(scenario.atLeastOnce() ? " repeats" : " duplicates");
        }
        if (timedOut) {
            sb.append(", TIME CAP HIT");
        }
        if (error != null) {
            sb.append(", ERROR ").append(error);
        }
        return sb.toString();
    }
}
