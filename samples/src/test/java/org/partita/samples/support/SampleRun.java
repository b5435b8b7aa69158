package org.partita.samples.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs a sample as its main would, capturing what it prints. */
public record SampleRun(Sample sample, int exitCode, String output) {

    public static SampleRun of(Sample sample, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl =
                new CommandLine(sample).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new SampleRun(sample, code, out + err.toString());
    }

    /** Asserts the sample's own checks all held, it exited 0, and it made each of {@code claims}. */
    public SampleRun assertPassed(String... claims) {
        assertEquals(0, exitCode, output);
        assertTrue(sample.verdict().passed(), output);
        for (String claim : claims) {
            assertTrue(
                    sample.verdict().checks().stream().anyMatch(c -> c.claim().contains(claim) && c.holds()),
                    "no passing check '" + claim + "' in\n" + output);
        }
        return this;
    }
}
