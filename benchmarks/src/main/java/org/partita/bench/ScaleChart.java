package org.partita.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Stroke;
import java.io.IOException;
import java.nio.file.Path;
import java.text.NumberFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * A scenario of scale's chart (S9, S10), a PNG beside the Markdown report: above, the throughput against
 * the swept count, below, the memory against it, the count on a logarithmic axis (10 to 10,000 is the
 * point); a colour per target, the same in both panels, and a dashed line for a target's second figure
 * (S9's persistent variant, the resident set beside the heap). Each point is a median of the report.
 */
final class ScaleChart {
    static final int WIDTH = 900;
    static final int HEIGHT = 720;

    /** A colour per target, in the targets' order; S11's chart ({@link BacklogChart}) uses the same. */
    private static final Color[] COLOURS = {
        new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0xff7f0e), new Color(0x9467bd)
    };

    static final Stroke SOLID = new BasicStroke(2f);
    static final Stroke DASHED =
            new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f);

    /** One figure of a step drawn as a line per target: the series' name after the target's, and its row key at a count. */
    private record Line(String suffix, IntFunction<String> key) {}

    private ScaleChart() {}

    /** The chart's file beside the report {@code markdown}: {@code results.md} gives {@code results-s10.png}. */
    static Path fileBeside(Path markdown, Scenario s) {
        return fileBeside(markdown, s.name());
    }

    /** The chart's file beside the report {@code markdown} for the scenario named {@code id} (S11 is no {@link Scenario}). */
    static Path fileBeside(Path markdown, String id) {
        String name = markdown.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String stem = dot > 0 ? name.substring(0, dot) : name;
        return markdown.resolveSibling(stem + "-" + id.toLowerCase(Locale.ROOT) + ".png");
    }

    /** The colour of the {@code t}-th target. */
    static Color colour(int t) {
        return COLOURS[t % COLOURS.length];
    }

    /** A logarithmic axis with a tick at each power of ten: the steps' counts are orders of magnitude apart. */
    static LogAxis countAxis(String label) {
        LogAxis x = new LogAxis(label);
        x.setBase(10);
        x.setTickUnit(new NumberTickUnit(1.0), false, false);
        x.setAutoTickUnitSelection(false);
        x.setMinorTickMarksVisible(true);
        x.setNumberFormatOverride(NumberFormat.getIntegerInstance(Locale.ROOT));
        return x;
    }

    /** Draws {@code s}'s chart from the report's medians into {@code png}. */
    static void write(Path png, Scenario s, ScaleSweeps sweeps, List<Target> targets, Report report)
            throws IOException {
        List<Line> throughput = new ArrayList<>();
        List<Line> memory = new ArrayList<>();
        String counted;
        if (s == Scenario.S9) {
            counted = "connections";
            throughput.add(new Line(", non-persistent", n -> ConnectionScaleScenario.throughputKey(n, false)));
            throughput.add(new Line(", persistent", n -> ConnectionScaleScenario.throughputKey(n, true)));
            memory.add(new Line(" heap", ConnectionScaleScenario::heapKey));
            memory.add(new Line(" RSS", ConnectionScaleScenario::rssKey));
        } else if (s == Scenario.S10) {
            counted = "queues";
            throughput.add(new Line("", QueueScaleScenario::throughputKey));
            memory.add(new Line(" heap", QueueScaleScenario::heapKey));
            memory.add(new Line(" RSS", QueueScaleScenario::rssKey));
        } else {
            throw new IllegalArgumentException(s + " is not a scenario of scale");
        }
        if (!sweeps.ownJvm()) {
            memory.remove(1); // embedded: no resident set of the broker alone
        }
        List<Integer> counts = sweeps.counts(s);
        CombinedDomainXYPlot plot = new CombinedDomainXYPlot(countAxis(counted + " (log scale)"));
        plot.setGap(12);
        plot.add(panel("throughput, msg/s", throughput, counts, targets, report), 1);
        String heap = sweeps.ownJvm() ? "broker memory, MiB" : "tool JVM heap (broker + clients), MiB";
        plot.add(panel(heap, memory, counts, targets, report), 1);
        JFreeChart chart = new JFreeChart(
                s.name() + ": throughput and memory against " + counted, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, WIDTH, HEIGHT);
    }

    private static XYPlot panel(
            String yLabel, List<Line> lines, List<Integer> counts, List<Target> targets, Report report) {
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        for (int t = 0; t < targets.size(); t++) {
            Target target = targets.get(t);
            for (int l = 0; l < lines.size(); l++) {
                Line line = lines.get(l);
                XYSeries series = new XYSeries(target.label() + line.suffix());
                for (int n : counts) {
                    double v = report.median(line.key().apply(n), target);
                    if (!Double.isNaN(v)) {
                        series.add(n, v);
                    }
                }
                addLine(data, renderer, series, t, l);
            }
        }
        return panelOf(yLabel, data, renderer);
    }

    /** Adds line {@code line} of target {@code target} to a panel: the target's colour, its first line solid, others dashed. */
    static void addLine(
            XYSeriesCollection data, XYLineAndShapeRenderer renderer, XYSeries series, int target, int line) {
        int index = data.getSeriesCount();
        data.addSeries(series);
        renderer.setSeriesPaint(index, colour(target));
        renderer.setSeriesStroke(index, line == 0 ? SOLID : DASHED);
    }

    /** A panel of these lines against the chart's shared axis: white, grey grid lines, the y axis from zero. */
    static XYPlot panelOf(String yLabel, XYSeriesCollection data, XYLineAndShapeRenderer renderer) {
        NumberAxis y = new NumberAxis(yLabel);
        y.setAutoRangeIncludesZero(true);
        XYPlot plot = new XYPlot(data, null, y, renderer);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        return plot;
    }
}
