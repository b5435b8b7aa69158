package org.partita.samples.support;

import jakarta.jms.JMSException;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * What every sample shares: the {@code --url} option, the node it implies, the story printed on
 * standard output and the exit status that the sample's own checks decide (0 when they all hold,
 * 1 when one fails, 2 for bad options).
 */
public abstract class Sample implements Callable<Integer> {
    @Option(
            names = "--url",
            paramLabel = "tcp://HOST:PORT",
            description =
                    "A running node to use. Default: start an embedded node (port 0, data in a temporary folder).")
    private String url;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "Show this help and exit.")
    private boolean help;

    @Spec
    private CommandSpec spec;

    private Verdict verdict;

    /** Runs the scenario against {@code node}, telling {@code story} what happens, and checks its outcome. */
    protected abstract Verdict run(SampleNode node, Story story) throws Exception;

    /**
     * False for a sample that starts or reaches its own nodes (a cluster): it is run with no node,
     * and refuses {@code --url}, which names one node, rather than ignore it.
     */
    protected boolean usesOneNode() {
        return true;
    }

    /** For a sample that does not use one node: what to give instead of {@code --url}. */
    protected String insteadOfUrl() {
        return "see --help";
    }

    /** Refuses bad option values before anything starts; samples with options override it. */
    protected void checkOptions() {}

    @Override
    public final Integer call() throws Exception {
        if (!usesOneNode() && url != null) {
            throw badOptions("--url names one node, and " + spec.name() + " uses several: " + insteadOfUrl());
        }
        checkOptions();
        Story story = new Story(spec.commandLine().getOut());
        story.part(
                spec.usageMessage().description().length > 0
                        ? spec.usageMessage().description()[0]
                        : spec.name());
        if (!usesOneNode()) {
            verdict = run(null, story);
            return verdict.report(story);
        }
        try (SampleNode node = open(story)) {
            verdict = run(node, story);
        }
        return verdict.report(story);
    }

    /** The checks of the last run (null before a run). */
    public Verdict verdict() {
        return verdict;
    }

    private SampleNode open(Story story) throws Exception {
        if (url == null) {
            return SampleNode.embedded(story);
        }
        try {
            return SampleNode.remote(url, story);
        } catch (JMSException | RuntimeException e) {
            throw new ParameterException(spec.commandLine(), "--url " + url + ": " + e.getMessage(), e);
        }
    }

    /** An error about the options given, reported with the usage and exit status 2. */
    protected ParameterException badOptions(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /** Refuses {@code value} of {@code option} if it is below {@code min}. */
    protected void requireAtLeast(String option, long value, long min) {
        if (value < min) {
            throw badOptions(option + " must be at least " + min + ", not " + value);
        }
    }

    /** The {@code main} of every sample: runs it and exits with the status its checks decided. */
    protected static void exit(Sample sample, String[] args) {
        System.exit(new CommandLine(sample).execute(args));
    }
}
