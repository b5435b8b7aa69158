package org.partita.bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * S11, a deep backlog and a restart, swept over backlog sizes ({@code --backlog-sizes}): for each broker in
 * turn, each size smallest first, one {@link BacklogStep} in a fresh data folder, the broker alone in a
 * JVM limited to {@code --heap}. Before each step the work folder's free disk is checked ({@link DiskRoom});
 * a step refused, failed or out of time ends that broker's sweep (a deeper backlog would not do better).
 * Writes a Markdown report ({@link BacklogReport}) and a chart beside it ({@link BacklogChart}).
 *
 * <p>Not a scenario of {@link Compare}: there a broker serves one run and is thrown away, runs are repeated
 * for medians and warmed up; here the broker is stopped and started again on its data, and a 20 million
 * message step runs for many minutes, once.
 */
@Command(
        name = "backlog",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "S11: fill, heap, disk, restart and drain of a deep backlog at several sizes, Partita against"
                + " Artemis and ActiveMQ Classic, each broker alone in a JVM; a Markdown report and a chart")
public final class BacklogRestart implements Callable<Integer> {
    static {
        setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        setIfAbsent("org.slf4j.simpleLogger.log.org.apache.activemq", "error");
        setIfAbsent("java.awt.headless", "true"); // the chart is drawn with no display
    }

    static final List<Integer> SIZES = List.of(1_000_000, 10_000_000, 20_000_000);

    @Option(
            names = {"--backlog-sizes", "--messages"},
            split = ",",
            description =
                    "messages in the backlog at each step, taken smallest first (default 1000000,10000000,20000000)")
    List<Integer> sizes = SIZES;

    @Option(
            names = {"--heap", "--broker-heap"},
            description = "the broker JVM's -Xmx (default ${DEFAULT-VALUE})")
    String heap = "512m";

    @Option(
            names = "--targets",
            split = ",",
            description = "brokers, one after the other (default partita,artemis-tuned,activemq-classic)")
    List<String> targetIds = List.of("partita", "artemis-tuned", "activemq-classic");

    @Option(names = "--producers", description = "producer connections filling the queue (default ${DEFAULT-VALUE})")
    int producers = 4;

    @Option(names = "--batch", description = "messages per transaction when filling (default ${DEFAULT-VALUE})")
    int batch = 500;

    /**
     * ActiveMQ Classic pages a queue's messages in from its store 200 at a time (its {@code maxPageSize}) and
     * pages no more in while those are held by a consumer's open transaction: a drain committing less
     * often stalls there (with 500, a backlog of 20,000 stopped after 201 messages).
     */
    @Option(
            names = "--drain-batch",
            description = "messages per transaction when draining, at most 200 for ActiveMQ Classic at its defaults"
                    + " (default ${DEFAULT-VALUE})")
    int drainBatch = 200;

    @Option(
            names = "--time-cap",
            description = "seconds each phase of a step may take: the fill, the restart until the first message,"
                    + " the drain (default ${DEFAULT-VALUE})")
    long timeCapSeconds = 3_600;

    @Option(
            names = "--work-dir",
            description = "where the brokers keep their data; its free disk is checked before each step"
                    + " (default: a new folder in java.io.tmpdir)")
    Path workDir;

    @Option(names = "--out", description = "Markdown report (default: benchmarks/target/backlog-results.md)")
    Path out;

    private final PrintStream log;

    public BacklogRestart() {
        this(System.out);
    }

    BacklogRestart(PrintStream log) {
        this.log = log;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new BacklogRestart()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        return sweep().stream().allMatch(BacklogFigures::passed) ? 0 : 1;
    }

    /** Runs the sweep the options ask for, writes the report and its chart, and returns every step. */
    List<BacklogFigures> sweep() throws Exception {
        List<Integer> steps = sizes.stream().distinct().sorted().toList();
        if (steps.isEmpty() || steps.get(0) < 1) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this), "--backlog-sizes must name at least one size, each at least 1");
        }
        if (producers < 1 || batch < 1 || drainBatch < 1) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this), "--producers, --batch and --drain-batch must be at least 1");
        }
        List<Target> targets = targetIds.stream().map(Target::fromId).distinct().toList();
        if (targets.stream().anyMatch(Target::isCluster)) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this), "S11 runs one server per JVM: leave the cluster and replicated targets out");
        }
        boolean ownWorkDir = workDir == null;
        Path root = ownWorkDir ? Files.createTempDirectory("partita-backlog") : Files.createDirectories(workDir);
        long began = System.nanoTime();
        try {
            DiskSync.Result sync = DiskSync.measure(root, 1000, 3);
            log.printf(
                    Locale.ROOT,
                    "disk sync: %.0f syncs/s; tuned Artemis journal-buffer-timeout = %d ns%n",
                    sync.syncsPerSecond(),
                    sync.nanosPerSync());
            BacklogStep step = new BacklogStep(
                    new BacklogStep.Settings(heap, producers, batch, drainBatch, timeCapSeconds, sync.nanosPerSync()),
                    root,
                    log);
            List<BacklogFigures> results = new ArrayList<>();
            for (Target target : targets) {
                for (int messages : steps) {
                    String refusal = DiskRoom.check(root, messages);
                    BacklogFigures f;
                    if (refusal != null) {
                        f = new BacklogFigures(target, messages);
                        f.error = refusal;
                    } else {
                        f = step.run(target, messages);
                    }
                    results.add(f);
                    log.printf(Locale.ROOT, "%s, %,d: %s%n", target.label(), messages, f.check());
                    if (!f.passed()) {
                        break; // a deeper backlog would not do better
                    }
                }
            }
            String header = String.format(
                    Locale.ROOT,
                    "## S11, backlogs of %s persistent 1 KiB messages, %s%n%n"
                            + "Each broker alone in a JVM with -Xmx%s, a fresh data folder per step; %d producers in"
                            + " transactions of %d, drained in transactions of %d; disk %.0f syncs/s; %d cores;"
                            + " Java %s; took %.0f s. Disk bytes per message: the data folder's files after the fill,"
                            + " the broker running, divided by the count.",
                    steps.stream()
                            .map(n -> String.format(Locale.ROOT, "%,d", n))
                            .collect(Collectors.joining(" / ")),
                    LocalDate.now(),
                    heap,
                    producers,
                    batch,
                    drainBatch,
                    sync.syncsPerSecond(),
                    Runtime.getRuntime().availableProcessors(),
                    System.getProperty("java.version"),
                    (System.nanoTime() - began) / 1e9);
            Path file = out != null ? out : Path.of("benchmarks", "target", "backlog-results.md");
            Files.createDirectories(file.toAbsolutePath().getParent());
            Path png = ScaleChart.fileBeside(file, "S11");
            String md = BacklogReport.markdown(
                    header, targets, results, png.getFileName().toString());
            log.println();
            log.println(md);
            Files.writeString(file, md);
            BacklogChart.write(png, targets, results);
            log.println("written to " + file.toAbsolutePath() + " and " + png.toAbsolutePath());
            return results;
        } finally {
            if (ownWorkDir) {
                Files2.deleteRecursively(root);
            }
        }
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
