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
 * <details>}, {@code method} with {@code METHOD <how stored bytes are measured>}; {@code stop}
 * answers {@code STOPPING <JVM uptime in ms>} (the time base of {@code -Xlog}'s {@code uptimemillis}),
 * stops the broker cleanly, prints {@code STOPPED} and exits. With {@code -D}{@value #WARM_UP} the JVM first warms up on a
 * broker of its own in a folder beside the data folder (the load of the tool's own warm-up), so
 * that a run meets a warm JVM, as users' brokers are, and not its JIT's first minutes.
 */
public final class BrokerProcess {
    /** System property: warm this JVM up before starting the broker under test. */
    static final String WARM_UP = "partita.bench.warmUp";

    private BrokerProcess() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.activemq", "error");
        Target target = Target.fromId(args[0]);
        if (Boolean.getBoolean(WARM_UP)) {
            warmUp(target, Path.of(args[1]).toAbsolutePath().getParent(), Long.parseLong(args[2]));
        }
        long started = System.nanoTime();
        BrokerUnderTest broker = target.start(Path.of(args[1]), Long.parseLong(args[2]));
        System.out.println("READY " + (System.nanoTime() - started) / 1_000_000 + " " + broker.url());
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            String[] words = line.split(" ");
            switch (words[0]) {
                case "heap" -> System.out.println("HEAP " + heapAfterGc());
                case "queue" -> System.out.println("QUEUE " + broker.queueName(words[1], words[2].equals("-") ? "" : words[2]));
                case "stored" -> System.out.println("STORED " + broker.storedBytes() + " " + broker.storeDetails());
                case "method" -> System.out.println("METHOD " + broker.storedBytesMethod());
                case "stop" -> System.out.println("STOPPING " + ManagementFactory.getRuntimeMXBean().getUptime());
                default -> {
                }
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

    /** The tool's warm-up load, run in this JVM on a broker started and deleted for the purpose. */
    private static void warmUp(Target target, Path parent, long tunedBufferTimeoutNanos) throws Exception {
        Path dir = java.nio.file.Files.createTempDirectory(parent, "warm-up-");
        try {
            Scenarios.Settings settings = new Scenarios.Settings(Scenarios.nanos(Compare.WARM_UP_SECONDS), 500);
            for (Scenario s : new Scenario[] {Scenario.S3, Scenario.S1}) {
                try (BrokerUnderTest warm = target.start(java.nio.file.Files.createTempDirectory(dir, s.name()), tunedBufferTimeoutNanos)) {
                    new Scenarios(warm, settings).run(s, target, 0,
                            s == Scenario.S3 ? Compare.WARM_UP_S3_MESSAGES : Compare.WARM_UP_S1_MESSAGES);
                }
            }
        } finally {
            Files2.deleteRecursively(dir);
        }
        JitQuiet.await();
    }

    /** Heap in use once garbage is collected: what the broker really holds. */
    private static long heapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
