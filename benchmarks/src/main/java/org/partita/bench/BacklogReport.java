package org.partita.bench;

import java.util.List;
import java.util.Locale;

/**
 * S11's Markdown report: a row per broker and backlog size with every figure of the step, then, for each
 * size, Partita's figures divided by each other broker's (steps that passed on both sides only), and a
 * link to the chart.
 */
final class BacklogReport {
    private static final long MIB = 1 << 20;

    private BacklogReport() {}

    /**
     * @param header the report's first lines (title, settings, machine)
     * @param chart  the chart's file name beside the report, or null for none
     */
    static String markdown(String header, List<Target> targets, List<BacklogFigures> steps, String chart) {
        StringBuilder sb = new StringBuilder(header).append("\n\n");
        sb.append("| Broker | backlog | fill msg/s | heap after fill | disk bytes / msg | clean stop "
                + "| GCs during the stop (full) | restart to first message | start until listening "
                + "| heap after restart | drain msg/s | exactly once |\n");
        sb.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (BacklogFigures f : steps) {
            sb.append(String.format(
                    Locale.ROOT,
                    "| %s | %,d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                    f.target.label(),
                    f.messages,
                    rate(f.fillRate),
                    mib(f.heapAfterFill),
                    rate(f.diskBytesPerMessage()),
                    millis(f.stopMillis),
                    f.stopMillis < 0 ? "" : f.stopGc.collections() + " (" + f.stopGc.full() + ")",
                    millis(f.firstDeliveryMillis),
                    millis(f.startMillis),
                    mib(f.heapAfterRestart),
                    rate(f.drainRate),
                    f.check()));
        }
        Target partita = targets.stream().filter(Target::isPartita).findFirst().orElse(null);
        List<Target> others = targets.stream().filter(t -> t != partita).toList();
        if (partita != null && !others.isEmpty()) {
            sb.append(
                    "\nPartita / other broker (rates: above 1 is faster; times, heap and disk: below 1 is less):\n\n");
            sb.append("| backlog | against | fill | drain | restart to first message | heap after fill "
                    + "| heap after restart | disk bytes / msg |\n");
            sb.append("|---:|---|---:|---:|---:|---:|---:|---:|\n");
            for (BacklogFigures p : steps) {
                if (p.target != partita || !p.passed()) {
                    continue;
                }
                for (Target other : others) {
                    BacklogFigures o = find(steps, other, p.messages);
                    if (o == null || !o.passed()) {
                        continue;
                    }
                    sb.append(String.format(
                            Locale.ROOT,
                            "| %,d | %s | %s | %s | %s | %s | %s | %s |%n",
                            p.messages,
                            other.label(),
                            ratio(p.fillRate, o.fillRate),
                            ratio(p.drainRate, o.drainRate),
                            ratio((double) p.firstDeliveryMillis, (double) o.firstDeliveryMillis),
                            ratio((double) p.heapAfterFill, (double) o.heapAfterFill),
                            ratio((double) p.heapAfterRestart, (double) o.heapAfterRestart),
                            ratio(p.diskBytesPerMessage(), o.diskBytesPerMessage())));
                }
            }
        }
        if (chart != null) {
            sb.append("\n![S11: fill, restart, heap and disk against the backlog](")
                    .append(chart)
                    .append(")\n");
        }
        return sb.toString();
    }

    private static BacklogFigures find(List<BacklogFigures> steps, Target target, int messages) {
        return steps.stream()
                .filter(f -> f.target == target && f.messages == messages)
                .findFirst()
                .orElse(null);
    }

    private static String rate(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%,.0f", v);
    }

    private static String mib(long bytes) {
        return bytes < 0 ? "" : String.format(Locale.ROOT, "%,.1f MiB", bytes / (double) MIB);
    }

    private static String millis(long ms) {
        return ms < 0 ? "" : String.format(Locale.ROOT, "%,d ms", ms);
    }

    private static String ratio(double a, double b) {
        return Double.isNaN(a) || Double.isNaN(b) || a < 0 || b <= 0 ? "" : String.format(Locale.ROOT, "%.2f", a / b);
    }
}
