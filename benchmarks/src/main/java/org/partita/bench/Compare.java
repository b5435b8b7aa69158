package org.partita.bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The load comparison: the same JMS client code against an embedded Partita node and an embedded
 * ActiveMQ Artemis (built-in defaults, and tuned to the disk like {@code artemis create} does), one
 * after the other in one JVM, every broker started fresh in a temporary folder for every run. Prints
 * the medians and ratios and writes them to {@code benchmark-results.md}. See docs/performance.md.
 */
@Command(
        name = "partita-benchmarks",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Runs the scenarios against Partita and ActiveMQ Artemis and prints medians and ratios.")
public final class Compare implements Callable<Integer> {
    /**
     * Persistent messages of the warm-up's S1 run: enough round trips for the JIT's optimizing
     * compiler (C2, thousands of calls per method) to compile the synchronous send and receive paths
     * of clients and brokers before the first measured run. With 2,000 the runs of a series still got
     * faster one after the other.
     */
    static final int WARM_UP_S1_MESSAGES = 10_000;
    /**
     * Longest a warm-up run may take: a broker that syncs every send (Artemis's defaults, a few
     * hundred messages a second) sends fewer, and the tool does not spend minutes warming it up.
     */
    static final int WARM_UP_SECONDS = 10;
    /**
     * Rounds of the tool's warm-up over all targets. The targets' clients share classes in this JVM
     * (Netty's among them), so code the JIT compiled while one target warmed up can be thrown away
     * and compiled again when the next one's types reach it; a second round lets every target's first
     * measured run meet code compiled for all of them, not only for the last one warmed.
     */
    static final int WARM_UP_ROUNDS = 2;
    /**
     * With {@code --own-jvm}, the warm-up over loopback before each run goes on, round after round,
     * until the broker JVM's JIT compilers worked at most this share of a round (in percent), and
     * at most {@link #BROKER_WARM_UP_MAX_ROUNDS} rounds or {@link #BROKER_WARM_UP_MAX_SECONDS}.
     * A fixed count is not enough: after 30,000 messages a broker's JVM could still be compiling for
     * most of a measured S1 run.
     */
    static final int BROKER_WARM_JIT_PERCENT = 5;

    static final int BROKER_WARM_UP_MAX_ROUNDS = 12;
    static final int BROKER_WARM_UP_MAX_SECONDS = 45;
    /** S8's warm-up of servers in processes ends once a round of S2 gained at most this share (percent) on the one before. */
    static final int PROCESS_WARM_UP_GAIN_PERCENT = 10;
    /** Non-persistent messages of the warm-up's S3 run. */
    static final int WARM_UP_S3_MESSAGES = 5_000;
    /** A run's note: the collection pauses of the tool's JVM during it ({@link GcPauses}). */
    static final String GC_NOTE = "gcPausesInToolJvm";
    /**
     * A run's note: how long the JIT compilers worked during it, in the tool's JVM and with {@code
     * --own-jvm} in the broker's. On two cores a compiler at work takes a core from the run.
     */
    static final String JIT_NOTE = "jitDuringRun";
    /**
     * A run's note with {@code --deopts}: the deoptimizations during it ({@link Deoptimizations}), in the
     * tool's JVM and with {@code --own-jvm} in the broker's: each one is compiled code thrown away and
     * compiled again.
     */
    static final String DEOPT_NOTE = "deoptsDuringRun";
    /** Per Partita run: its store's commits, those network threads made at the end of their turns, and syncs ({@link CommitFigures}). */
    static final String COMMITS_NOTE = "storeCommits";
    /**
     * A run's note with {@code --own-jvm}: the collections in the broker's JVM during it, from its GC log
     * ({@link GcLog}), with the most heap it held after one (S9L's heap peak).
     */
    static final String BROKER_GC_NOTE = "brokerGcDuringRun";
    /**
     * Most connections S9 opens with the brokers embedded: each connection then holds a socket on both
     * sides of loopback in this one JVM (ActiveMQ Classic also a thread on each side), so 10,000 would
     * take 20,000 file descriptors; in their own JVMs each side holds one.
     */
    static final int EMBEDDED_MAX_CONNECTIONS = 4_000;
    /** File descriptors kept for everything but S9's connections: jars, journals, the brokers' other sockets. */
    static final int FD_HEADROOM = 1_000;
    /** A run's note with {@code --own-jvm} and for S8: how the broker's JVMs were warmed up over loopback before it. */
    static final String BROKER_WARM_UP_NOTE = "brokerWarmUp";

    static {
        // quiet brokers unless the user asked otherwise: the table is the output
        setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        setIfAbsent("org.slf4j.simpleLogger.log.org.apache.activemq", "error");
        // Raft replicas warn of every stream cut when a replicated cluster stops, as it does after each run
        setIfAbsent("org.slf4j.simpleLogger.log.org.apache.ratis", "error");
        // S9's and S10's charts are drawn with no display
        setIfAbsent("java.awt.headless", "true");
    }

    @Option(
            names = "--runs",
            description = "runs of each scenario per broker; medians are reported (default ${DEFAULT-VALUE})")
    int runs = 3;

    @Option(names = "--scale", description = "multiplies every scenario's message count (default ${DEFAULT-VALUE})")
    double scale = 1.0;

    @Option(
            names = "--scenarios",
            split = ",",
            description = "scenarios to run (default S1,S2,S3,S4,S4K,S4B,S4J,S5,S6,S7; also S8, the failover,"
                    + " on the replicated targets only, and S9L, large messages of 1, 16 and 256 MiB, on"
                    + " partita and the single Artemis targets only; and the scenarios of scale, on one-node targets"
                    + " only: S9, connections (--connection-counts), and S10, queues (--queue-counts), each charted)")
    List<String> scenarioIds = List.of("S1", "S2", "S3", "S4", "S4K", "S4B", "S4J", "S5", "S6", "S7");

    @Option(
            names = "--targets",
            split = ",",
            description = "brokers to run (default partita,artemis-default,artemis-tuned,activemq-classic: ActiveMQ"
                    + " Classic 6 with KahaDB at its defaults; also partita-cluster3 and"
                    + " artemis-cluster3: three nodes of one cluster in this JVM; partita-cluster3-replicated and"
                    + " artemis-ha: three nodes with replicas=3, a primary and a replicating backup, in this JVM,"
                    + " each server in a JVM of its own for S8; partita-cluster3-replicated-leader1: the same"
                    + " three nodes with leaders=1, every partition led by node1; these five run every scenario"
                    + " but S5)")
    List<String> targetIds = List.of("partita", "artemis-default", "artemis-tuned", "activemq-classic");

    @Option(
            names = "--connection-counts",
            split = ",",
            description = "S9's steps: connections opened at each (default 1,100,1000,10000; above "
                    + EMBEDDED_MAX_CONNECTIONS + " only with --own-jvm)")
    List<Integer> connectionCounts = ScaleSweeps.CONNECTIONS;

    @Option(
            names = "--queue-counts",
            split = ",",
            description = "S10's steps: queues, each with a consumer, at each (default 10,1000,10000)")
    List<Integer> queueCounts = ScaleSweeps.QUEUES;

    @Option(names = "--rate", description = "S7 send rate in messages per second (default ${DEFAULT-VALUE})")
    int s7Rate = 500;

    @Option(names = "--failover-rate", description = "S8 send rate in messages per second (default ${DEFAULT-VALUE})")
    int failoverRate = 50;

    @Option(
            names = "--time-cap",
            description = "seconds one scenario run may take before it is stopped (default ${DEFAULT-VALUE})")
    long timeCapSeconds = 120;

    @Option(
            names = "--sync-writes",
            description = "4 KiB writes per try of the disk sync test (default ${DEFAULT-VALUE})")
    int syncWrites = 1000;

    @Option(
            names = "--sync-tries",
            description = "tries of the disk sync test; the median counts (default ${DEFAULT-VALUE})")
    int syncTries = 3;

    @Option(
            names = "--own-jvm",
            description = "run each broker in a JVM of its own, as users run them (default: embedded"
                    + " in the load tool's JVM, which shares its heap, GC and cores with the clients)")
    boolean ownJvm;

    @Option(
            names = "--broker-heap",
            description =
                    "with --own-jvm, and for the servers S8 starts: the brokers' -Xmx, for example 2g (default: the JVM's)")
    String brokerHeap;

    @Option(
            names = "--broker-jvm-option",
            description =
                    "with --own-jvm, and for the servers S8 starts: an option for the brokers' JVMs, repeatable"
                            + " (for example -XX:StartFlightRecording=filename=broker.jfr,settings=profile; each run writes it anew)")
    List<String> brokerJvmOptions = new ArrayList<>();

    @Option(
            names = "--deopts",
            description =
                    "note each run's deoptimizations (deoptsDuringRun) from a flight recording"
                            + " streamed in the tool's and the brokers' JVMs; the recording writes to disk each second, which on a slow disk"
                            + " costs the runs (S1: -14%% and twice the p99 on a 220 µs disk), so use it to find them, not for the figures")
    boolean deopts;

    @Option(
            names = "--no-warmup",
            description =
                    "skip the short warm-up runs on each broker (with --own-jvm and for S8: also the one over loopback before each run)")
    boolean noWarmup;

    @Option(
            names = "--work-dir",
            description = "where brokers keep their data (default: a new folder in java.io.tmpdir)")
    Path workDir;

    @Option(
            names = "--out",
            description = "Markdown report (default: benchmark-results.md next to the jar, else target/)")
    Path out;

    private final PrintStream log;
    private Report report;

    public Compare() {
        this(System.out);
    }

    Compare(PrintStream log) {
        this.log = log;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new Compare()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        List<RunResult> results = runComparison();
        return results.stream().allMatch(RunResult::passed) ? 0 : 1;
    }

    /** The other brokers of the run, with their versions, for the report's title. */
    private static String others(List<Target> targets) {
        List<String> names = new ArrayList<>();
        if (targets.stream().anyMatch(t -> !t.isPartita() && t != Target.ACTIVEMQ_CLASSIC)) {
            names.add("ActiveMQ Artemis 2.40.0");
        }
        if (targets.contains(Target.ACTIVEMQ_CLASSIC)) {
            names.add("ActiveMQ Classic " + ClassicBroker.version());
        }
        return names.isEmpty() ? "itself" : String.join(" and ", names);
    }

    /** Runs everything the options ask for; the report is then available from {@link #report()}. */
    public List<RunResult> runComparison() throws Exception {
        List<Scenario> scenarios =
                scenarioIds.stream().map(Scenario::fromId).distinct().toList();
        List<Target> targets = targetIds.stream().map(Target::fromId).distinct().toList();
        if (targets.stream().anyMatch(Target::isCluster) && scenarios.contains(Scenario.S5)) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "the cluster and replicated targets cannot run S5: topics are not spread over a Partita cluster"
                            + " (leave S5 out)");
        }
        if (targets.stream().anyMatch(Target::isCluster) && scenarios.contains(Scenario.S9L)) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "the cluster and replicated targets cannot run S9L: a Partita cluster keeps no large body apart"
                            + " (a clustered queue takes a body whole within limits.messageBytes; leave S9L out)");
        }
        if (scenarios.contains(Scenario.S9L) && !targets.stream().allMatch(Target::streamsLargeBodies)) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "activemq-classic cannot run S9L: it sends no body from a stream (its BlobMessage goes through a"
                            + " file server); leave S9L or activemq-classic out");
        }
        if (targets.stream().anyMatch(Target::isCluster) && scenarios.stream().anyMatch(Scenario::isSweep)) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "the cluster and replicated targets cannot run S9 or S10: the scenarios of scale measure one"
                            + " server's connections, queues and heap (leave S9 and S10 out)");
        }
        if (scenarios.contains(Scenario.S9)) {
            checkConnectionCounts();
        }
        if (scenarios.contains(Scenario.S10) && queueCounts.stream().anyMatch(n -> n < 1)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--queue-counts must be at least 1 each");
        }
        if (scenarios.contains(Scenario.S8) && targets.stream().noneMatch(Target::canKillLeader)) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "S8 kills a leader: it runs on partita-cluster3-replicated(-leader1) and artemis-ha only (name"
                            + " one of them)");
        }
        if (ownJvm && targets.stream().anyMatch(Target::isCluster)) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this), "--own-jvm runs one broker per JVM: leave the cluster targets out");
        }
        if (runs < 1) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--runs must be at least 1");
        }
        boolean ownWorkDir = workDir == null;
        Path dir = ownWorkDir ? Files.createTempDirectory("partita-bench") : Files.createDirectories(workDir);
        long began = System.nanoTime();
        if (deopts) {
            Deoptimizations.watch(); // from the start, so that each run's window finds it recording
        }
        try {
            DiskSync.Result sync = DiskSync.measure(dir, syncWrites, syncTries);
            log.printf(
                    Locale.ROOT,
                    "disk sync: %.0f syncs/s (%.1f µs per 4 KiB write + force); "
                            + "tuned Artemis journal-buffer-timeout = %d ns%n",
                    sync.syncsPerSecond(),
                    sync.nanosPerSync() / 1e3,
                    sync.nanosPerSync());
            Scenarios.Settings settings =
                    new Scenarios.Settings(Scenarios.nanos(timeCapSeconds), s7Rate, failoverRate, sweeps());
            // The clients in this JVM. With --own-jvm each run's own warm-up over loopback (runOne) warms them
            // as well as the broker, right before the run: a warm-up here would only be done again. So does
            // S8's warm-up of the servers it starts in processes.
            if (!noWarmup && !ownJvm && !scenarios.stream().allMatch(Scenario::killsLeader)) {
                for (int round = 0; round < WARM_UP_ROUNDS; round++) {
                    for (Target t : targets) {
                        warmUpRun(dir, sync, Scenario.S3, t, WARM_UP_S3_MESSAGES);
                        warmUpRun(dir, sync, Scenario.S1, t, WARM_UP_S1_MESSAGES);
                    }
                }
                // then one run of every other scenario measured: S1 and S3 leave the code of several
                // producers, keyed consumers and transactions cold, and a replicated cluster (three nodes'
                // Raft servers in this JVM) was still compiling for most of its first runs; S7 runs at a
                // fixed pace and warms nothing more; S9L sends one message of each size (273 MiB); S9 and S10
                // send and receive as S1 and S3 do, and a whole sweep of thousands of connections or queues
                // more would warm up little but their setup
                for (Target t : targets) {
                    for (Scenario s : scenarios) {
                        if (s != Scenario.S1
                                && s != Scenario.S3
                                && s != Scenario.S7
                                && !s.killsLeader()
                                && !s.isSweep()) {
                            warmUpRun(dir, sync, s, t, s == Scenario.S9L ? s.count(0) : s.count(scale));
                        }
                    }
                }
                log.println("warm-up done (then " + JitQuiet.await() + " ms until the JIT was idle)");
            }
            List<RunResult> results = new ArrayList<>();
            for (int run = 1; run <= runs; run++) {
                for (Scenario s : scenarios) {
                    for (Target t : targets) {
                        if (s.killsLeader() && !t.canKillLeader()) {
                            continue; // no leader to kill: the table shows no figure for it
                        }
                        RunResult r = runOne(dir, sync, settings, s, t, run, s.count(scale));
                        results.add(r);
                        log.println(line(r));
                    }
                }
            }
            String header = String.format(
                    Locale.ROOT,
                    "## Partita vs %s, %s%n%n"
                            + "%d run(s) per scenario and broker, medians; scale %.2f (%s); %d cores, %s; Java %s; took %.0f s.",
                    others(targets),
                    LocalDate.now(),
                    runs,
                    scale,
                    counts(scenarios),
                    Runtime.getRuntime().availableProcessors(),
                    ownJvm
                            ? "each broker in its own JVM" + (brokerHeap != null ? " (-Xmx" + brokerHeap + ")" : "")
                            : "brokers embedded in the load tool's JVM",
                    System.getProperty("java.version"),
                    (System.nanoTime() - began) / 1e9);
            Path file = out != null ? out : defaultOut();
            Map<Scenario, String> charts = new java.util.LinkedHashMap<>();
            for (Scenario s : scenarios) {
                if (s.isSweep()) {
                    charts.put(s, ScaleChart.fileBeside(file, s).getFileName().toString());
                }
            }
            report = new Report(header, results, scenarios, targets, sync, settings, charts);
            String md = report.markdown();
            log.println();
            log.println(md);
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, md);
            log.println("written to " + file.toAbsolutePath());
            for (Scenario s : charts.keySet()) {
                Path png = ScaleChart.fileBeside(file, s);
                ScaleChart.write(png, s, settings.sweeps(), targets, report);
                log.println("chart written to " + png.toAbsolutePath());
            }
            return results;
        } finally {
            if (ownWorkDir) {
                Files2.deleteRecursively(dir);
            }
        }
    }

    /** The counts S9 and S10 step through, from the options. */
    private ScaleSweeps sweeps() {
        return new ScaleSweeps(connectionCounts, queueCounts, ownJvm);
    }

    /**
     * S9's connection counts: at least one each, and no more than the file descriptors allow: embedded,
     * {@value #EMBEDDED_MAX_CONNECTIONS} at most and two descriptors each; in their own JVMs one each on
     * the tool's side.
     */
    private void checkConnectionCounts() {
        if (connectionCounts.stream().anyMatch(n -> n < 1)) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this), "--connection-counts must be at least 1 each");
        }
        int most = connectionCounts.stream().mapToInt(Integer::intValue).max().orElse(0);
        if (!ownJvm && most > EMBEDDED_MAX_CONNECTIONS) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    String.format(
                            Locale.ROOT,
                            "S9 with %,d connections needs --own-jvm: embedded, each connection holds a socket on"
                                    + " both sides of loopback in this one JVM, and at most %,d are opened so"
                                    + " (lower --connection-counts or add --own-jvm)",
                            most,
                            EMBEDDED_MAX_CONNECTIONS));
        }
        long fds = maxFileDescriptors();
        long needed = (long) most * (ownJvm ? 1 : 2) + FD_HEADROOM;
        if (fds > 0 && needed > fds) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    String.format(
                            Locale.ROOT,
                            "S9 with %,d connections needs about %,d file descriptors and this process may open"
                                    + " %,d (ulimit -n): raise the limit or lower --connection-counts",
                            most,
                            needed,
                            fds));
        }
    }

    /** This process's limit on open files ({@code ulimit -n}), or -1 where the JVM does not tell. */
    private static long maxFileDescriptors() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                        instanceof com.sun.management.UnixOperatingSystemMXBean unix
                ? unix.getMaxFileDescriptorCount()
                : -1;
    }

    public Report report() {
        return report;
    }

    /** The settings of a warm-up run: each capped at {@value #WARM_UP_SECONDS} s. */
    private Scenarios.Settings warmUpSettings() {
        return new Scenarios.Settings(Scenarios.nanos(WARM_UP_SECONDS), s7Rate, failoverRate, sweeps());
    }

    /** A short run that warms up this JVM's clients of {@code t} and the embedded brokers' code. */
    private void warmUpRun(Path dir, DiskSync.Result sync, Scenario s, Target t, int count) throws Exception {
        runOne(dir, sync, warmUpSettings(), s, t, 0, count);
    }

    private RunResult runOne(
            Path dir, DiskSync.Result sync, Scenarios.Settings settings, Scenario s, Target t, int run, int count)
            throws Exception {
        Path data = Files.createTempDirectory(dir, s.name().toLowerCase(Locale.ROOT) + "-" + t.id() + "-");
        List<String> brokerJvm = new ArrayList<>(brokerJvmOptions == null ? List.of() : brokerJvmOptions);
        if (deopts) {
            brokerJvm.add("-D" + BrokerProcess.DEOPTS_PROPERTY + "=true");
        }
        try (BrokerUnderTest broker = s.killsLeader()
                ? t.startInProcesses(data, sync.nanosPerSync(), serverJvmOptions())
                : ownJvm
                        ? OwnJvmBroker.start(t, data, sync.nanosPerSync(), brokerHeap, brokerJvm)
                        : t.start(data, sync.nanosPerSync())) {
            String warmUp = null;
            if (run > 0 && !noWarmup && s.killsLeader()) {
                warmUp = warmUpInProcesses(broker, t);
            } else if (run > 0 && !noWarmup && ownJvm) {
                warmUp = warmUpOverLoopback((OwnJvmBroker) broker, s, t);
            }
            GcPauses.Mark gc = GcPauses.mark();
            long toolJit = JitQuiet.compilationMillis();
            long brokerJit = broker instanceof OwnJvmBroker own ? own.compilationMillis() : -1;
            CommitFigures commits = broker.commitFigures();
            long brokerUptime = broker instanceof OwnJvmBroker own ? own.uptimeMillis() : -1;
            Instant runFrom = Instant.now();
            RunResult r = new Scenarios(broker, settings).run(s, t, run, count).withNote(GC_NOTE, gc.describe());
            Instant runTo = Instant.now();
            if (commits != null) {
                r = r.withNote(
                        COMMITS_NOTE, broker.commitFigures().minus(commits).toString());
            }
            String jit = "tool " + (JitQuiet.compilationMillis() - toolJit) + " ms"
                    + (broker instanceof OwnJvmBroker own
                            ? ", broker " + (own.compilationMillis() - brokerJit) + " ms"
                            : "");
            r = r.withNote(JIT_NOTE, jit);
            if (broker instanceof OwnJvmBroker own) {
                GcLog.Summary brokerGc = own.gcSince(brokerUptime);
                r = r.withNote(BROKER_GC_NOTE, brokerGc.describe());
                if (s.reportsBrokerHeap() && brokerGc.collections() > 0) {
                    r = r.withValue(s.brokerHeapKey(), brokerGc.maxAfter() / (double) (1 << 20));
                }
            }
            if (deopts) {
                Deoptimizations toolDeopts = Deoptimizations.watch();
                r = r.withNote(
                        DEOPT_NOTE,
                        "tool " + (toolDeopts == null ? "not recorded" : toolDeopts.between(runFrom, runTo))
                                + (broker instanceof OwnJvmBroker own
                                        ? ", broker " + own.deoptimizations(runFrom, runTo)
                                        : ""));
            }
            return warmUp == null ? r : r.withNote(BROKER_WARM_UP_NOTE, warmUp);
        } finally {
            Files2.deleteRecursively(data);
        }
    }

    /**
     * Warms a broker up before its measured run the way users' brokers are warm: it has carried
     * traffic from clients in another JVM, over loopback, on queues of its own ({@link WarmUpBroker}),
     * round after round until its JVM's JIT compilers are nearly done ({@link #BROKER_WARM_JIT_PERCENT});
     * then the tool waits until both JVMs' compilers are idle. A scenario that measures the store's
     * growth warms up a second broker in the same JVM instead. A broker JVM warmed by clients in its
     * own JVM, or a broker that sat idle
     * while another one in its JVM warmed up, still compiled for longer than its whole measured S1 run.
     *
     * @return the run's {@value #BROKER_WARM_UP_NOTE} note
     */
    private String warmUpOverLoopback(OwnJvmBroker broker, Scenario measured, Target t) {
        int s3 = 0;
        int s1 = 0;
        int rounds = 0;
        long lastJit = 0;
        long lastMillis = 0;
        Scenarios.Settings capped = warmUpSettings();
        long began = System.nanoTime();
        boolean second = measured.measuresStoreGrowth();
        try (WarmUpBroker warm = second ? broker.startWarmUpBroker() : WarmUpBroker.itself(broker)) {
            while (rounds < BROKER_WARM_UP_MAX_ROUNDS) {
                long jitBefore = broker.compilationMillis();
                long roundBegan = System.nanoTime();
                Scenarios warmUp = new Scenarios(warm.round(rounds), capped);
                s3 += warmUp.run(Scenario.S3, t, 0, WARM_UP_S3_MESSAGES).arrived();
                s1 += warmUp.run(Scenario.S1, t, 0, WARM_UP_S1_MESSAGES).arrived();
                rounds++;
                lastJit = broker.compilationMillis() - jitBefore;
                lastMillis = (System.nanoTime() - roundBegan) / 1_000_000;
                boolean warmNow = rounds >= WARM_UP_ROUNDS && lastJit * 100 <= lastMillis * BROKER_WARM_JIT_PERCENT;
                if (warmNow || System.nanoTime() - began > TimeUnit.SECONDS.toNanos(BROKER_WARM_UP_MAX_SECONDS)) {
                    break;
                }
            }
        }
        java.util.concurrent.CompletableFuture<Long> brokerQuiet =
                java.util.concurrent.CompletableFuture.supplyAsync(broker::awaitJitQuiet);
        long toolMillis;
        try {
            toolMillis = JitQuiet.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            toolMillis = -1;
        }
        long brokerMillis = brokerQuiet.join();
        return String.format(
                Locale.ROOT,
                "%d rounds, S3 %d + S1 %d messages over loopback to %s (its JVM's JIT worked %d ms"
                        + " of the last round's %d ms), then JIT idle in %d ms (broker) and %d ms (tool)",
                rounds,
                s3,
                s1,
                second ? "a second broker in its JVM" : "the broker itself",
                lastJit,
                lastMillis,
                brokerMillis,
                toolMillis);
    }

    /** The JVM options of each server S8 starts in a process of its own: {@code --broker-heap} and {@code --broker-jvm-option}. */
    private List<String> serverJvmOptions() {
        List<String> options = new ArrayList<>();
        if (brokerHeap != null) {
            options.add("-Xmx" + brokerHeap);
        }
        if (brokerJvmOptions != null) {
            options.addAll(brokerJvmOptions);
        }
        return options;
    }

    /**
     * Warms up a broker whose servers S8 started in processes of their own, before the run kills its
     * leader: rounds of S2 on queues of their own, whose connections reach every node of a cluster, until
     * a round is at most {@value #PROCESS_WARM_UP_GAIN_PERCENT}% faster than the one before (at least
     * {@value #WARM_UP_ROUNDS}, at most {@value #BROKER_WARM_UP_MAX_ROUNDS} rounds or {@value
     * #BROKER_WARM_UP_MAX_SECONDS} s). The servers answer no questions about their JIT, so their rate
     * tells: three node JVMs compile their Raft replication each for itself, and after two rounds of
     * 10 s a replicated Partita cluster still sent a few times slower than warm.
     *
     * @return the run's {@value #BROKER_WARM_UP_NOTE} note
     */
    private String warmUpInProcesses(BrokerUnderTest broker, Target t) throws InterruptedException {
        Scenarios.Settings capped = warmUpSettings();
        WarmUpBroker warm = WarmUpBroker.itself(broker);
        List<String> rates = new ArrayList<>();
        double last = 0;
        long began = System.nanoTime();
        for (int round = 0; round < BROKER_WARM_UP_MAX_ROUNDS; round++) {
            RunResult r = new Scenarios(warm.round(round), capped).run(Scenario.S2, t, 0, Scenario.S2.defaultCount());
            double rate = r.values().getOrDefault(Scenario.S2.name(), 0.0);
            rates.add(String.format(Locale.ROOT, "%.0f", rate));
            boolean steady = round + 1 >= WARM_UP_ROUNDS && rate * 100 <= last * (100 + PROCESS_WARM_UP_GAIN_PERCENT);
            last = rate;
            if (steady || System.nanoTime() - began > TimeUnit.SECONDS.toNanos(BROKER_WARM_UP_MAX_SECONDS)) {
                break;
            }
        }
        return String.format(
                Locale.ROOT,
                "%d rounds of S2 over loopback to its servers (msg/s: %s), then JIT idle in %d ms (tool)",
                rates.size(),
                String.join(", ", rates),
                JitQuiet.await());
    }

    private String line(RunResult r) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(
                Locale.ROOT,
                "run %d %-4s %-16s",
                r.run(),
                r.scenario(),
                r.target().id()));
        for (Map.Entry<String, Double> e : r.values().entrySet()) {
            sb.append(' ').append(e.getKey()).append('=').append(Report.format(e.getValue()));
        }
        sb.append("  [").append(r.checkSummary());
        r.notes().forEach((k, v) -> {
            if (k.equals("orderViolations")
                    || k.equals("consumersUsed")
                    || k.equals("joinersUsed")
                    || k.equals(GC_NOTE)
                    || k.equals(JIT_NOTE)
                    || k.equals(BROKER_GC_NOTE)
                    || k.equals(DEOPT_NOTE)
                    || k.equals(COMMITS_NOTE)
                    || k.equals("steps")
                    || k.equals(FailoverScenario.KILLED_NOTE)
                    || k.equals(FailoverScenario.ANY_KEY_NOTE)
                    || k.equals(FailoverScenario.FAILED_SENDS_NOTE)
                    || k.equals(FailoverScenario.LAG_NOTE)
                    || k.equals(FailoverScenario.REPEATS_NOTE)) {
                sb.append(", ").append(k).append(' ').append(v);
            }
        });
        return sb.append(']').toString();
    }

    private String counts(List<Scenario> scenarios) {
        StringBuilder sb = new StringBuilder();
        for (Scenario s : scenarios) {
            sb.append(sb.length() == 0 ? "" : ", ").append(s).append(' ');
            if (s.isSweep()) {
                sb.append(String.format(Locale.ROOT, "%,d", s.count(scale)))
                        .append(
                                s == Scenario.S9
                                        ? " messages per step and variant (at least one per connection) over "
                                        : " messages per step over ")
                        .append(sweeps().counts(s).stream()
                                .map(n -> String.format(Locale.ROOT, "%,d", n))
                                .collect(java.util.stream.Collectors.joining(" / ")))
                        .append(s == Scenario.S9 ? " connections" : " queues");
            } else if (s == Scenario.S9L) {
                int[] large = Scenario.largeCounts(s.count(scale));
                for (int z = 0; z < large.length; z++) {
                    sb.append(z == 0 ? "" : " + ")
                            .append(large[z])
                            .append(" x ")
                            .append(Scenario.LARGE_SIZES_MIB[z])
                            .append(" MiB");
                }
            } else {
                sb.append(String.format(Locale.ROOT, "%,d", s.count(scale)));
            }
        }
        // a sweep's own words end with what it steps through
        boolean sweepLast =
                !scenarios.isEmpty() && scenarios.get(scenarios.size() - 1).isSweep();
        return sweepLast ? sb.toString() : sb.append(" messages").toString();
    }

    /** Next to the jar when run from one (benchmarks/target), else ./target. */
    private static Path defaultOut() {
        try {
            Path code = Path.of(Compare.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            if (Files.isRegularFile(code)) {
                return code.getParent().resolve("benchmark-results.md");
            }
        } catch (Exception ignored) {
            // fall through
        }
        return Path.of("target", "benchmark-results.md");
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
