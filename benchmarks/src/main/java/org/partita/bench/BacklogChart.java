package org.partita.bench;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTick;
import org.jfree.chart.axis.ValueTick;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * S11's chart, a PNG beside its Markdown report: four panels over the backlog size on a logarithmic axis
 * (1 to 20 million is the point), a tick at each size, a colour per target as in {@link ScaleChart}: the fill rate (solid) and
 * the drain rate (dashed); the restart until the first message (solid) and the broker's own start until it
 * listened (dashed); the heap after the fill (solid) and after the restart (dashed); the bytes on disk per
 * message. Only steps that passed are drawn: a failed step's figures may stop halfway.
 */
final class BacklogChart {
    static final int WIDTH = 900;
    static final int HEIGHT = 1100;
    private static final double MIB = 1 << 20;

    /** A figure drawn as a line per target: its series' name after the target's, and its value in a step. */
    private record Line(String suffix, ToDoubleFunction<BacklogFigures> value) {}

    private BacklogChart() {}

    /**
     * The backlog size on a logarithmic axis with a tick at each size swept, not at each power of ten as in
     * {@link ScaleChart}: 10 and 20 million are in one decade, and a small run's sizes may have no power of
     * ten between them at all.
     */
    private static final class SizeAxis extends LogAxis {
        private static final long serialVersionUID = 1L;
        private final List<Integer> sizes;

        SizeAxis(List<Integer> sizes) {
            super("persistent 1 KiB messages waiting (log scale)");
            this.sizes = sizes;
            setBase(10);
        }

        @Override
        protected List<ValueTick> refreshTicksHorizontal(Graphics2D g2, Rectangle2D dataArea, RectangleEdge edge) {
            List<ValueTick> ticks = new ArrayList<>();
            for (int n : sizes) {
                ticks.add(new NumberTick(
                        n, String.format(Locale.ROOT, "%,d", n), TextAnchor.TOP_CENTER, TextAnchor.CENTER, 0.0));
            }
            return ticks;
        }
    }

    static void write(Path png, List<Target> targets, List<BacklogFigures> steps) throws IOException {
        List<Integer> sizes =
                steps.stream().map(f -> f.messages).distinct().sorted().toList();
        CombinedDomainXYPlot plot = new CombinedDomainXYPlot(new SizeAxis(sizes));
        plot.setGap(12);
        plot.add(
                panel(
                        "msg/s",
                        List.of(new Line(" fill", f -> f.fillRate), new Line(" drain", f -> f.drainRate)),
                        targets,
                        steps),
                1);
        plot.add(
                panel(
                        "restart, s",
                        List.of(
                                new Line(" to first message", f -> f.firstDeliveryMillis / 1e3),
                                new Line(" start until listening", f -> f.startMillis / 1e3)),
                        targets,
                        steps),
                1);
        plot.add(
                panel(
                        "broker heap after GC, MiB",
                        List.of(
                                new Line(" after fill", f -> f.heapAfterFill / MIB),
                                new Line(" after restart", f -> f.heapAfterRestart / MIB)),
                        targets,
                        steps),
                1);
        plot.add(
                panel(
                        "disk bytes per message",
                        List.of(new Line(" on disk", BacklogFigures::diskBytesPerMessage)),
                        targets,
                        steps),
                1);
        JFreeChart chart = new JFreeChart(
                "S11: a backlog filled, restarted and drained", JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, WIDTH, HEIGHT);
    }

    private static XYPlot panel(String yLabel, List<Line> lines, List<Target> targets, List<BacklogFigures> steps) {
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        for (int t = 0; t < targets.size(); t++) {
            Target target = targets.get(t);
            for (int l = 0; l < lines.size(); l++) {
                Line line = lines.get(l);
                XYSeries series = new XYSeries(target.label() + line.suffix());
                for (BacklogFigures f : steps) {
                    double v = line.value().applyAsDouble(f);
                    if (f.target == target && f.passed() && !Double.isNaN(v) && v >= 0) {
                        series.add(f.messages, v);
                    }
                }
                ScaleChart.addLine(data, renderer, series, t, l);
            }
        }
        return ScaleChart.panelOf(yLabel, data, renderer);
    }
}
