package org.partita.samples.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class VerdictTest {
    private final StringWriter out = new StringWriter();
    private final Story story = new Story(new PrintWriter(out));

    @Test
    void oneFailedCheckMakesTheExitStatusOne() {
        Verdict v = new Verdict()
                .check("all good", true, "seen")
                .check("in order", false, "m-001 change 3 applied after change 1");
        assertEquals(1, v.report(story));
        assertFalse(v.passed());
        assertTrue(out.toString().contains("FAILED  in order (m-001 change 3 applied after change 1)"), out.toString());
    }

    @Test
    void allChecksHoldingMakesTheExitStatusZero() {
        assertEquals(0, new Verdict().check("all good", true, "seen").report(story));
        assertTrue(out.toString().contains("All checks hold."));
    }

    @Test
    void aSampleThatCheckedNothingFails() {
        assertEquals(1, new Verdict().report(story));
    }
}
