package org.partita.broker.main;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 point 5: a SIGTERM always ends the process within a bound. A child JVM installs the stop
 * hook {@code NodeMain} installs ({@link StopDeadline#onShutdown}) with a stop action that hangs (as
 * a store that stopped answering would) or that returns, then receives SIGTERM.
 */
@Tag("slow")
class StopDeadlineTest {
    private static final Duration BOUND = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void aStopThatHangsIsCutShortAtTheDeadlineWithItsOwnExitStatus() throws Exception {
        Child child = Child.start(dir, true);
        long start = System.nanoTime();
        child.process.destroy();
        assertTrue(
                child.process.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS),
                "still running " + BOUND + " after SIGTERM");
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertEquals(StopDeadline.EXIT_STATUS, child.process.exitValue(), child.output());
        assertTrue(tookMs >= 900, "halted only once the 1 s deadline passed, took " + tookMs + " ms");
        assertTrue(child.output().contains("the clean stop took longer than 1 s; halting"), child.output());
    }

    @Test
    void aStopThatFinishesEndsTheProcessNormally() throws Exception {
        Child child = Child.start(dir, false);
        child.process.destroy();
        assertTrue(
                child.process.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS),
                "still running " + BOUND + " after SIGTERM");
        assertNotEquals(StopDeadline.EXIT_STATUS, child.process.exitValue(), child.output());
        assertTrue(child.output().contains("stopped"), child.output());
    }

    /**
     * A JVM running {@link Hook}, its output (stdout and stderr together) in a file: SIGTERM through
     * {@link Process#destroy()} also closes the parent's ends of the child's pipes.
     */
    private record Child(Process process, Path log) {
        static Child start(Path dir, boolean hang) throws IOException, InterruptedException {
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            Path log = dir.resolve("child-" + hang + ".log");
            Process p = new ProcessBuilder(List.of(
                            java.toString(),
                            "-cp",
                            System.getProperty("java.class.path"),
                            Hook.class.getName(),
                            Boolean.toString(hang)))
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            Child child = new Child(p, log);
            boolean ready;
            try { // the child's output is a file: polled, as no event tells when it grows
                org.awaitility.Awaitility.await("the child's ready line")
                        .atMost(BOUND)
                        .pollInterval(Duration.ofMillis(20))
                        .until(() -> child.out().contains("ready") || !p.isAlive());
                ready = child.out().contains("ready");
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                ready = false;
            }
            if (!ready) {
                p.destroyForcibly();
                throw new AssertionError("the child did not start: " + child.out());
            }
            return child;
        }

        private String out() throws IOException {
            return Files.exists(log) ? Files.readString(log) : "";
        }

        String output() throws IOException {
            return "child output:\n" + out();
        }
    }

    /** The child: NodeMain's stop hook with a 1 s deadline around a stop that hangs or returns. */
    public static final class Hook {
        public static void main(String[] args) throws InterruptedException {
            boolean hang = Boolean.parseBoolean(args[0]);
            StopDeadline.onShutdown(Duration.ofSeconds(1), () -> {
                if (hang) {
                    try {
                        new CountDownLatch(1).await(); // never returns on its own
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                System.out.println("stopped");
                System.out.flush();
            });
            System.out.println("ready");
            System.out.flush();
            new CountDownLatch(1).await();
        }
    }
}
