package org.partita.bench;

import java.util.List;

/**
 * The counts the scenarios of scale step through, smallest first: S9's connections and S10's queues;
 * and whether the brokers run in their own JVMs, which decides what their heap figure is (the broker's
 * alone, or the tool's JVM with the broker and the clients in it) and whether a resident set is read.
 */
record ScaleSweeps(List<Integer> connectionCounts, List<Integer> queueCounts, boolean ownJvm) {
    static final List<Integer> CONNECTIONS = List.of(1, 100, 1_000, 10_000);
    static final List<Integer> QUEUES = List.of(10, 1_000, 10_000);
    static final ScaleSweeps DEFAULT = new ScaleSweeps(CONNECTIONS, QUEUES, false);

    /**
     * Sorted and without repeats: S10 names its queues the same at every step, so that a broker holds
     * exactly the step's count of queues when each step is at least as large as the one before.
     */
    ScaleSweeps {
        connectionCounts = connectionCounts.stream().distinct().sorted().toList();
        queueCounts = queueCounts.stream().distinct().sorted().toList();
    }

    /** The counts {@code s} steps through (S9: connections, S10: queues). */
    List<Integer> counts(Scenario s) {
        return switch (s) {
            case S9 -> connectionCounts;
            case S10 -> queueCounts;
            default -> throw new IllegalArgumentException(s + " is not a scenario of scale");
        };
    }
}
