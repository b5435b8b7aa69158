package org.partita.samples.support;

import java.util.ArrayList;
import java.util.List;

/**
 * The checks a sample makes of its own outcome. Each is a claim a user would care about ("no
 * machine's changes were applied out of order") with the evidence seen; the sample exits with 1
 * if any claim does not hold.
 */
public final class Verdict {
    /** One claim and whether it held. */
    public record Check(String claim, boolean holds, String evidence) {}

    private final List<Check> checks = new ArrayList<>();

    /** Records a claim; {@code evidence} says what was seen, whether or not it holds. */
    public Verdict check(String claim, boolean holds, String evidence) {
        checks.add(new Check(claim, holds, evidence));
        return this;
    }

    public boolean passed() {
        return !checks.isEmpty() && checks.stream().allMatch(Check::holds);
    }

    public List<Check> checks() {
        return List.copyOf(checks);
    }

    /** Prints every check and returns the exit status: 0 if all hold, 1 otherwise. */
    public int report(Story story) {
        story.part("Checks");
        for (Check c : checks) {
            story.plain("%s  %s (%s)", c.holds() ? "ok    " : "FAILED", c.claim(), c.evidence());
        }
        if (checks.isEmpty()) {
            story.plain("FAILED  the sample made no check");
        }
        story.plain(passed() ? "All checks hold." : "Some checks FAILED.");
        return passed() ? 0 : 1;
    }
}
