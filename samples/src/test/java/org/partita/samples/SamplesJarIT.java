package org.partita.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged {@code samples/target/partita-samples.jar}, run from the repository root with the
 * command samples/README.md gives, in a JVM of its own: the exit status is the sample's verdict.
 * Runs after {@code package} (failsafe), since the shaded jar is built there.
 */
@Tag("slow")
@Timeout(180)
class SamplesJarIT {
    /** As samples/README.md spells it, relative to the repository root. */
    private static final String JAR = "samples/target/partita-samples.jar";
    /** Maven runs the tests in the module's folder, {@code samples}. */
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @TempDir
    Path dir;

    private record Exit(int status, String output) {}

    /** {@code java -cp samples/target/partita-samples.jar <args>} from the repository root. */
    private Exit java(String... args) throws Exception {
        assertTrue(Files.isRegularFile(ROOT.resolve(JAR)), JAR + " is built at package: run mvn verify");
        List<String> cmd = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", JAR));
        cmd.addAll(List.of(args));
        Path out = dir.resolve("output.txt");
        Process p = new ProcessBuilder(cmd)
                .directory(ROOT.toFile())
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        boolean ended = p.waitFor(120, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        String output = Files.readString(out, StandardCharsets.UTF_8);
        assertTrue(ended, "the sample ended within 120 s:\n" + output);
        return new Exit(p.exitValue(), output);
    }

    @Test
    void aSampleRunFromTheJarExitsZeroWhenItsChecksHold() throws Exception {
        Exit run = java("org.partita.samples.broadcast.CacheInvalidation");
        assertEquals(0, run.status(), run.output());
        assertTrue(run.output().contains("started an embedded node at tcp://127.0.0.1:"), run.output());
        assertTrue(run.output().contains("All checks hold."), run.output());
    }

    @Test
    void aBadOptionExitsTwoBeforeAnythingStarts() throws Exception {
        Exit run = java("org.partita.samples.fanout.OrderFanout", "--orders", "0");
        assertEquals(2, run.status(), run.output());
        assertTrue(run.output().contains("--orders must be at least 1, not 0"), run.output());
        assertTrue(!run.output().contains("started an embedded node"), run.output());
    }
}
