package org.partita.tck.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Prints, when the test plan has run, a table per chapter (test package) of passed, failed and
 * skipped tests for the provider under test, with the failures and the skip reasons, and writes
 * the same to {@code target/tck-summary-<provider>.txt}. Registered through
 * {@code META-INF/services/org.junit.platform.launcher.TestExecutionListener}.
 */
public final class TckSummaryListener implements TestExecutionListener {

    private static final String ROOT_PACKAGE = "org.partita.tck.";

    private final Map<String, int[]> counts = new TreeMap<>();
    private final List<String> failures = new ArrayList<>();
    private final List<String> skipped = new ArrayList<>();
    private TestPlan plan;

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        plan = testPlan;
    }

    @Override
    public void executionSkipped(TestIdentifier id, String reason) {
        if (!isTck(id)) {
            return;
        }
        if (id.isTest()) {
            count(id)[2]++;
            skipped.add(label(id) + " -- " + reason);
        } else if (plan != null) {
            // a skipped class: each of its tests is skipped
            for (TestIdentifier t : descendantTests(id)) {
                count(t)[2]++;
                skipped.add(label(t) + " -- " + reason);
            }
        }
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        if (!isTck(id)) {
            return;
        }
        if (id.isTest()) {
            switch (result.getStatus()) {
                case SUCCESSFUL -> count(id)[0]++;
                case ABORTED -> {
                    count(id)[2]++;
                    skipped.add(label(id) + " -- aborted: " + message(result));
                }
                case FAILED -> {
                    count(id)[1]++;
                    failures.add(label(id) + " -- " + message(result));
                }
            }
        } else if (result.getStatus() == TestExecutionResult.Status.FAILED) {
            // a class whose set-up failed: its tests never ran
            count(id)[1]++;
            failures.add(label(id) + " (container) -- " + message(result));
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan testPlan) {
        if (counts.isEmpty()) {
            return;
        }
        String provider = ProviderExtension.provider();
        StringBuilder out = new StringBuilder();
        out.append('\n')
                .append("Conformance summary for provider '")
                .append(provider)
                .append("'\n");
        String line = "+-----------------+--------+--------+---------+\n";
        out.append(line);
        out.append(String.format("| %-15s | %6s | %6s | %7s |%n", "chapter", "passed", "failed", "skipped"));
        out.append(line);
        int[] total = new int[3];
        for (Map.Entry<String, int[]> e : counts.entrySet()) {
            int[] c = e.getValue();
            out.append(String.format("| %-15s | %6d | %6d | %7d |%n", e.getKey(), c[0], c[1], c[2]));
            for (int i = 0; i < 3; i++) {
                total[i] += c[i];
            }
        }
        out.append(line);
        out.append(String.format("| %-15s | %6d | %6d | %7d |%n", "total", total[0], total[1], total[2]));
        out.append(line);
        if (!failures.isEmpty()) {
            out.append("Failed:\n");
            failures.forEach(f -> out.append("  ").append(f).append('\n'));
        }
        if (!skipped.isEmpty()) {
            out.append("Skipped:\n");
            skipped.forEach(s -> out.append("  ").append(s).append('\n'));
        }
        System.out.print(out);
        System.out.flush();
        Path dir = Path.of(System.getProperty("tck.summaryDir", "target"));
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("tck-summary-" + provider + ".txt"), out.toString());
        } catch (IOException e) {
            System.err.println("[tck] could not write the summary: " + e);
        }
    }

    private List<TestIdentifier> descendantTests(TestIdentifier id) {
        List<TestIdentifier> tests = new ArrayList<>();
        for (TestIdentifier child : plan.getChildren(id)) {
            if (child.isTest()) {
                tests.add(child);
            } else {
                tests.addAll(descendantTests(child));
            }
        }
        return tests;
    }

    private int[] count(TestIdentifier id) {
        return counts.computeIfAbsent(chapter(id), k -> new int[3]);
    }

    private static boolean isTck(TestIdentifier id) {
        return className(id).startsWith(ROOT_PACKAGE);
    }

    private static String className(TestIdentifier id) {
        TestSource source = id.getSource().orElse(null);
        if (source instanceof MethodSource m) {
            return m.getClassName();
        }
        if (source instanceof ClassSource c) {
            return c.getClassName();
        }
        return "";
    }

    private static String chapter(TestIdentifier id) {
        String rest = className(id).substring(ROOT_PACKAGE.length());
        int dot = rest.indexOf('.');
        return dot < 0 ? "(root)" : rest.substring(0, dot);
    }

    private static String label(TestIdentifier id) {
        String cls = className(id);
        String simple = cls.substring(cls.lastIndexOf('.') + 1);
        TestSource source = id.getSource().orElse(null);
        String name = source instanceof MethodSource m ? m.getMethodName() : "";
        String display = id.getDisplayName();
        return chapter(id) + ": " + simple + (name.isEmpty() ? "" : "#" + name)
                + (display.equals(name + "()") || display.isEmpty() ? "" : " [" + display + "]");
    }

    private static String message(TestExecutionResult result) {
        return result.getThrowable()
                .map(t -> {
                    String m = t.getClass().getSimpleName() + ": " + t.getMessage();
                    m = m.replace('\n', ' ');
                    return m.length() > 300 ? m.substring(0, 300) + "..." : m;
                })
                .orElse("(no message)");
    }
}
