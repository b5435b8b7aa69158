package org.partita.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A broker alone in its own JVM, so that its heap can be limited and measured and its restart
 * timed without the load clients in the way, and so that a comparison can run each broker as users
 * do, in a JVM of its own. Arguments: target id, data folder, tuned buffer timeout in ns. Prints
 * {@code READY <millis to start> <url>}; then reads commands from stdin, one per line, each answered
 * by one line: {@code heap} with {@code HEAP <bytes used after a full GC>}, {@code queue <base>
 * <options or ->} with {@code QUEUE <name to use>}, {@code stored} with {@code STORED <bytes>
 * <details>}, {@code method} with {@code METHOD <how stored bytes are measured>}, {@code jit} with {@code JIT
 * <ms waited>} once this JVM's JIT compilers are idle ({@link JitQuiet}), {@code jit-ms} with {@code JITMS <ms
 * the JIT compilers spent so far>}, {@code warm-up-start} with {@code
 * WARMUP <url>} of a second broker started for a warm-up load beside the data folder, {@code warm-up-stop}
 * with {@code WARMUPSTOPPED} once that one is stopped and deleted; {@code uptime} with {@code UPTIME <JVM
 * uptime in ms>} (where a run begins in the GC log, {@link GcLog}); {@code stop}
 * answers {@code STOPPING <JVM uptime in ms>} (the time base of {@code -Xlog}'s {@code uptimemillis}),
 * stops the broker cleanly, prints {@code STOPPED} and exits. The load tool warms the JVM up over
 * loopback on the second broker before a measured run ({@code Compare}), as users' clients warm up theirs.
 */
public final class BrokerProcess {
    /** Set (true) by the tool's {@code --deopts}: the process records its deoptimizations ({@link Deoptimizations}). */
    static final String DEOPTS_PROPERTY = "partita.bench.deopts";

    private BrokerProcess() {}

    public static void main(String[] args) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.activemq", "error");
        Target target = Target.fromId(args[0]);
        Deoptimizations deopts = Boolean.getBoolean(DEOPTS_PROPERTY) ? Deoptimizations.watch() : null;
        long started = System.nanoTime();
        BrokerUnderTest broker = target.start(Path.of(args[1]), Long.parseLong(args[2]));
        System.out.println("READY " + (System.nanoTime() - started) / 1_000_000 + " " + broker.url());
        System.out.flush();
        Path warmUpData = Path.of(args[1] + "-warm-up");
        BrokerUnderTest warmUp = null;
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            String[] words = line.split(" ");
            switch (words[0]) {
                case "heap" -> System.out.println("HEAP " + heapAfterGc());
                case "queue" ->
                    System.out.println("QUEUE " + broker.queueName(words[1], words[2].equals("-") ? "" : words[2]));
                case "stored" -> System.out.println("STORED " + broker.storedBytes() + " " + broker.storeDetails());
                case "method" -> System.out.println("METHOD " + broker.storedBytesMethod());
                case "jit" -> System.out.println("JIT " + JitQuiet.await());
                case "commits" -> {
                    CommitFigures c = broker.commitFigures();
                    System.out.println("COMMITS " + (c == null ? "-" : c.format()));
                }
                case "deopts" ->
                    System.out.println("DEOPTS "
                            + (deopts == null
                                    ? "not recorded"
                                    : deopts.between(
                                            java.time.Instant.parse(words[1]), java.time.Instant.parse(words[2]))));
                case "jit-ms" -> System.out.println("JITMS " + JitQuiet.compilationMillis());
                case "uptime" ->
                    System.out.println(
                            "UPTIME " + ManagementFactory.getRuntimeMXBean().getUptime());
                case "warm-up-start" -> {
                    if (warmUp == null) {
                        warmUp = target.start(
                                java.nio.file.Files.createDirectories(warmUpData), Long.parseLong(args[2]));
                    }
                    System.out.println("WARMUP " + warmUp.url());
                }
                case "warm-up-stop" -> {
                    if (warmUp != null) {
                        warmUp.close();
                        warmUp = null;
                        Files2.deleteRecursively(warmUpData);
                    }
                    System.out.println("WARMUPSTOPPED");
                }
                case "stop" ->
                    System.out.println(
                            "STOPPING " + ManagementFactory.getRuntimeMXBean().getUptime());
                default -> {}
            }
            System.out.flush();
            if (words[0].equals("stop")) {
                break;
            }
        }
        broker.close();
        System.out.println("STOPPED");
        System.out.flush();
        System.exit(0);
    }

    /** Heap in use once garbage is collected: what the broker (and whatever else is in this JVM) really holds. */
    static long heapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
