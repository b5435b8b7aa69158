package org.partita.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** S9's and S10's rows per step and their charts, drawn from a report's medians without a broker. */
class ScaleChartTest {

    @Test
    void eachStepHasItsRowsAndTheResidentSetOnlyWithBrokersInTheirOwnJvms() {
        ScaleSweeps embedded = new ScaleSweeps(List.of(100, 1), List.of(10, 10, 2), false);
        assertEquals(List.of(1, 100), embedded.connectionCounts(), "smallest first");
        assertEquals(List.of(2, 10), embedded.queueCounts(), "without repeats");
        Scenarios.Settings settings = new Scenarios.Settings(Scenarios.nanos(10), 500, 50, embedded);
        assertEquals(
                List.of("S10.q2", "S10.q2.heap", "S10.q10", "S10.q10.heap"),
                Scenario.S10.rows(settings).stream().map(Scenario.Row::key).toList());
        assertEquals(
                List.of("S9.c1.np", "S9.c1.p", "S9.c1.heap", "S9.c100.np", "S9.c100.p", "S9.c100.heap"),
                Scenario.S9.rows(settings).stream().map(Scenario.Row::key).toList());
        Scenarios.Settings own =
                new Scenarios.Settings(Scenarios.nanos(10), 500, 50, new ScaleSweeps(List.of(1), List.of(2), true));
        assertEquals(
                List.of("S10.q2", "S10.q2.heap", "S10.q2.rss"),
                Scenario.S10.rows(own).stream().map(Scenario.Row::key).toList());
        assertTrue(Scenario.S10.rows(own).get(1).label().contains("broker heap"));
        assertTrue(Scenario.S10.rows(settings).get(1).label().contains("tool JVM heap"));
        assertTrue(Scenario.S9.isSweep() && Scenario.S10.isSweep() && !Scenario.S9L.isSweep());
        assertTrue(!new Compare().scenarioIds.contains("S9") && !new Compare().scenarioIds.contains("S10"));
    }

    @Test
    void theChartIsAPngBesideTheReport(@TempDir Path tmp) throws Exception {
        assertEquals(tmp.resolve("results-s10.png"), ScaleChart.fileBeside(tmp.resolve("results.md"), Scenario.S10));
        ScaleSweeps sweeps = new ScaleSweeps(List.of(1, 100, 1_000), List.of(10, 1_000, 10_000), true);
        List<Target> targets = List.of(Target.PARTITA, Target.ARTEMIS_TUNED, Target.ACTIVEMQ_CLASSIC);
        List<RunResult> results = new java.util.ArrayList<>();
        for (int t = 0; t < targets.size(); t++) {
            Map<String, Double> s10 = new LinkedHashMap<>();
            Map<String, Double> s9 = new LinkedHashMap<>();
            for (int n : sweeps.queueCounts()) {
                s10.put(QueueScaleScenario.throughputKey(n), 3_000.0 / (t + 1) - n / 10.0);
                s10.put(QueueScaleScenario.heapKey(n), 20 + n / 100.0 * (t + 1));
                s10.put(QueueScaleScenario.rssKey(n), 120 + n / 50.0 * (t + 1));
            }
            for (int n : sweeps.connectionCounts()) {
                s9.put(ConnectionScaleScenario.throughputKey(n, false), 10_000.0 / (t + 1) + n);
                s9.put(ConnectionScaleScenario.throughputKey(n, true), 2_000.0 / (t + 1) + n);
                s9.put(ConnectionScaleScenario.heapKey(n), 20 + n / 10.0);
            }
            results.add(new RunResult(Scenario.S10, targets.get(t), 1, s10, 1, 1, 0, false, Map.of(), null));
            results.add(new RunResult(Scenario.S9, targets.get(t), 1, s9, 1, 1, 0, false, Map.of(), null));
        }
        Scenarios.Settings settings = new Scenarios.Settings(Scenarios.nanos(10), 500, 50, sweeps);
        Report report = new Report("", results, List.of(Scenario.S9, Scenario.S10), targets, null, settings, Map.of());

        for (Scenario s : List.of(Scenario.S9, Scenario.S10)) {
            Path png = ScaleChart.fileBeside(tmp.resolve("results.md"), s);
            ScaleChart.write(png, s, sweeps, targets, report);
            BufferedImage image = ImageIO.read(png.toFile());
            assertEquals(ScaleChart.WIDTH, image.getWidth(), png::toString);
            assertEquals(ScaleChart.HEIGHT, image.getHeight(), png::toString);
            if (System.getProperty("partita.bench.keepCharts") != null) {
                java.nio.file.Files.copy(
                        png,
                        Path.of(System.getProperty("partita.bench.keepCharts")).resolve(png.getFileName()),
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }
}
