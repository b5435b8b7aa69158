package org.partita.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** Medians of the runs, the ratios, and the checks, as a Markdown report. */
final class Report {
    /** Partita over Partita: what a cluster costs over one node, and what replicas cost over none. */
    private static final Target[][] OWN_RATIOS = {
        {Target.PARTITA_CLUSTER, Target.PARTITA},
        {Target.PARTITA_REPLICATED, Target.PARTITA_CLUSTER},
        {Target.PARTITA_REPLICATED_ONE_LEADER, Target.PARTITA_REPLICATED}
    };

    private final List<RunResult> results;
    private final List<Scenario> scenarios;
    private final List<Target> targets;
    private final DiskSync.Result sync;
    private final Scenarios.Settings settings;
    private final String header;
    /** The chart of each scenario of scale (S9, S10), by its file name beside the report ({@link ScaleChart}). */
    private final Map<Scenario, String> charts;

    Report(
            String header,
            List<RunResult> results,
            List<Scenario> scenarios,
            List<Target> targets,
            DiskSync.Result sync,
            Scenarios.Settings settings) {
        this(header, results, scenarios, targets, sync, settings, Map.of());
    }

    Report(
            String header,
            List<RunResult> results,
            List<Scenario> scenarios,
            List<Target> targets,
            DiskSync.Result sync,
            Scenarios.Settings settings,
            Map<Scenario, String> charts) {
        this.header = header;
        this.charts = charts;
        this.results = results;
        this.scenarios = scenarios;
        this.targets = targets;
        this.sync = sync;
        this.settings = settings;
    }

    /** Median of a row over the runs of one target; NaN if no run produced it. */
    double median(String rowKey, Target target) {
        double[] v = results.stream()
                .filter(r -> r.target() == target)
                .map(r -> r.values().get(rowKey))
                .filter(d -> d != null && !d.isNaN())
                .mapToDouble(Double::doubleValue)
                .sorted()
                .toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    boolean allPassed() {
        return results.stream().allMatch(RunResult::passed);
    }

    /**
     * Which medians are divided: each Partita target over each Artemis target of its kind (one node
     * over one node, a cluster over a cluster, replicated over replicated), the Partita cluster over
     * one node, and the replicated Partita cluster over the one without replicas.
     */
    private List<Target[]> ratioColumns() {
        List<Target[]> pairs = new ArrayList<>();
        for (Target p : targets) {
            for (Target o : targets) {
                if (p.isPartita() && !o.isPartita() && p.kind() == o.kind()) {
                    pairs.add(new Target[] {p, o});
                }
            }
        }
        for (Target[] own : OWN_RATIOS) {
            if (targets.contains(own[0]) && targets.contains(own[1])) {
                pairs.add(own);
            }
        }
        return pairs;
    }

    private static String ratioLabel(Target[] pair) {
        if (pair[0] == Target.PARTITA_CLUSTER && pair[1] == Target.PARTITA) {
            return "Partita cluster / 1 node";
        }
        if (pair[0] == Target.PARTITA_REPLICATED && pair[1] == Target.PARTITA_CLUSTER) {
            return "Partita replicas=3 / no replicas";
        }
        if (pair[0] == Target.PARTITA_REPLICATED_ONE_LEADER && pair[1] == Target.PARTITA_REPLICATED) {
            return "Partita leaders=1 / a leader per node";
        }
        return pair[0].label() + " / " + pair[1].label().replace("Artemis ", "");
    }

    String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append(header).append("\n\n");
        sb.append(String.format(
                Locale.ROOT,
                "Disk sync rate: **%.0f syncs/s** (%.1f µs per sequential 4 KiB write + "
                        + "force, median of %d tries of %d writes); Artemis tuned journal-buffer-timeout = %d ns.%n%n",
                sync.syncsPerSecond(),
                sync.nanosPerSync() / 1000.0,
                sync.tries(),
                sync.writes(),
                sync.nanosPerSync()));
        sb.append("| Scenario | Unit |");
        for (Target t : targets) {
            sb.append(' ').append(t.label()).append(" |");
        }
        List<Target[]> ratios = ratioColumns();
        for (Target[] pair : ratios) {
            sb.append(' ').append(ratioLabel(pair)).append(" |");
        }
        sb.append("\n|---|---|");
        sb.append("---:|".repeat(targets.size() + ratios.size()));
        sb.append('\n');
        for (Scenario s : scenarios) {
            for (Scenario.Row row : s.rows(settings)) {
                sb.append("| ")
                        .append(row.label())
                        .append(" | ")
                        .append(row.unit())
                        .append(row.higherIsBetter() ? " ↑" : " ↓")
                        .append(" |");
                for (Target t : targets) {
                    sb.append(' ').append(format(median(row.key(), t))).append(" |");
                }
                for (Target[] pair : ratios) {
                    sb.append(' ')
                            .append(ratio(median(row.key(), pair[0]), median(row.key(), pair[1])))
                            .append(" |");
                }
                sb.append('\n');
            }
        }
        sb.append(
                "\n↑ higher is better, ↓ lower is better; ratios divide the first broker's median by the second's.\n");
        for (Map.Entry<Scenario, String> chart : charts.entrySet()) {
            sb.append("\n")
                    .append(chart.getKey())
                    .append(", throughput and memory against the swept count (medians):\n\n![")
                    .append(chart.getKey())
                    .append(" chart](")
                    .append(chart.getValue())
                    .append(")\n");
        }
        if (scenarios.contains(Scenario.S1)) {
            sb.append("\nS1 as a fraction of the disk sync rate:");
            for (Target t : targets) {
                sb.append(String.format(
                        Locale.ROOT, " %s %.1f%%;", t.label(), 100 * median("S1", t) / sync.syncsPerSecond()));
            }
            sb.setLength(sb.length() - 1);
            sb.append(".\n");
        }
        sb.append("\n### Checks\n\n");
        if (allPassed()) {
            sb.append("Every message of every run arrived exactly once");
            if (scenarios.stream().anyMatch(Scenario::atLeastOnce)) {
                sb.append(" (S8, across the kill: at least once, its repeats in its notes)");
            }
            if (scenarios.stream().anyMatch(s -> s.name().startsWith("S4") || s == Scenario.S8)) {
                sb.append(", with no per-key order violation");
            }
            sb.append(".\n");
        }
        for (RunResult r : results) {
            if (!r.passed()) {
                sb.append("- FAILED ")
                        .append(r.scenario())
                        .append(' ')
                        .append(r.target().label())
                        .append(" run ")
                        .append(r.run())
                        .append(": ")
                        .append(r.checkSummary())
                        .append(' ')
                        .append(r.notes())
                        .append('\n');
            }
        }
        sb.append('\n');
        for (Scenario s : scenarios) {
            Map<Target, List<String>> notes = new LinkedHashMap<>();
            for (RunResult r : results) {
                if (r.scenario() == s && !r.notes().isEmpty()) {
                    notes.computeIfAbsent(r.target(), k -> new ArrayList<>())
                            .add("run " + r.run() + ": "
                                    + r.notes().entrySet().stream()
                                            .map(e -> e.getKey() + " " + e.getValue())
                                            .collect(Collectors.joining(", ")));
                }
            }
            for (Map.Entry<Target, List<String>> e : notes.entrySet()) {
                sb.append("- ")
                        .append(s)
                        .append(' ')
                        .append(e.getKey().label())
                        .append(": ")
                        .append(String.join("; ", e.getValue()))
                        .append('\n');
            }
        }
        return sb.toString();
    }

    static String ratio(double p, double o) {
        if (o == 0 || Double.isNaN(o) || Double.isNaN(p)) {
            return "–";
        }
        double r = p / o;
        return r < 0.01 ? "<0.01" : String.format(Locale.ROOT, "%.2f", r);
    }

    static String format(double v) {
        if (Double.isNaN(v)) {
            return "–";
        }
        if (Math.abs(v) >= 100) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (Math.abs(v) >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }
}
