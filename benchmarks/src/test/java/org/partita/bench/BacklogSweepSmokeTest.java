package org.partita.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * S11's own code path, tiny: backlogs of 2,000 and 5,000 messages on Partita and ActiveMQ Classic, each
 * broker in a JVM of its own, filled, stopped, restarted and drained; every message exactly once, every
 * figure of every step, a row per step in the report and its chart a PNG. The real sweep is never run by
 * the build (docs/performance.md).
 */
@Tag("slow")
class BacklogSweepSmokeTest {

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void aTinySweepRestartsEachBrokerAndDeliversEveryMessageOnce(@TempDir Path tmp) throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        BacklogRestart tool = new BacklogRestart(new PrintStream(log, true, StandardCharsets.UTF_8));
        Path out = tmp.resolve("backlog.md");
        new CommandLine(tool)
                .parseArgs(
                        "--backlog-sizes",
                        "5000,2000",
                        "--targets",
                        "partita,activemq-classic",
                        "--heap",
                        "256m",
                        "--time-cap",
                        "60",
                        "--work-dir",
                        tmp.resolve("work").toString(),
                        "--out",
                        out.toString());

        List<BacklogFigures> steps = tool.sweep();

        assertEquals(4, steps.size(), log::toString);
        int s = 0;
        for (Target t : List.of(Target.PARTITA, Target.ACTIVEMQ_CLASSIC)) {
            for (int n : List.of(2_000, 5_000)) {
                BacklogFigures f = steps.get(s++);
                assertEquals(t, f.target);
                assertEquals(n, f.messages, "smallest first");
                assertTrue(f.passed(), () -> t + " " + n + ": " + f.check() + "\n" + log);
                assertEquals(n, f.arrivals.distinct());
                assertEquals(0, f.arrivals.duplicates());
                assertTrue(f.fillRate > 0 && f.drainRate > 0, "rates");
                assertTrue(f.heapAfterFill > 0 && f.heapAfterRestart > 0, "heaps");
                assertTrue(f.diskBytesPerMessage() >= BacklogStep.BODY_BYTES, () -> "disk: " + f.diskBytes);
                assertTrue(f.stopMillis >= 0, "stop timed");
                assertTrue(
                        f.firstDeliveryMillis >= f.startMillis && f.startMillis >= 0,
                        () -> "the first message comes after the start: " + f.firstDeliveryMillis + " / "
                                + f.startMillis);
            }
        }
        String md = Files.readString(out);
        for (String row : List.of(
                "| Partita | 2,000 |",
                "| Partita | 5,000 |",
                "| ActiveMQ Classic | 2,000 |",
                "| ActiveMQ Classic | 5,000 |")) {
            assertTrue(md.contains(row), () -> row + " in\n" + md);
        }
        assertTrue(md.contains("| 5,000 | ActiveMQ Classic |"), () -> "a ratio row\n" + md);
        assertTrue(md.contains("(backlog-s11.png)"), md);
        BufferedImage image = ImageIO.read(tmp.resolve("backlog-s11.png").toFile());
        assertEquals(BacklogChart.WIDTH, image.getWidth());
        assertEquals(BacklogChart.HEIGHT, image.getHeight());
        if (System.getProperty("partita.bench.keepCharts") != null) {
            Files.copy(
                    tmp.resolve("backlog-s11.png"),
                    Path.of(System.getProperty("partita.bench.keepCharts")).resolve("backlog-s11.png"),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
