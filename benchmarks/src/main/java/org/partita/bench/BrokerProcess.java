package org.partita.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A broker alone in its own JVM, so that its heap can be limited and measured and its restart
 * timed without the load clients in the way. Arguments: target id, data folder, tuned buffer
 * timeout in ns. Prints {@code READY <millis to start> <url>}; then reads commands from stdin:
 * {@code heap} prints {@code HEAP <bytes used after a full GC>}, {@code stop} stops the broker
 * cleanly and exits.
 */
public final class BrokerProcess {
    private BrokerProcess() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.activemq", "error");
        Target target = Target.fromId(args[0]);
        long started = System.nanoTime();
        BrokerUnderTest broker = target.start(Path.of(args[1]), Long.parseLong(args[2]));
        System.out.println("READY " + (System.nanoTime() - started) / 1_000_000 + " " + broker.url());
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            if (line.equals("heap")) {
                System.out.println("HEAP " + heapAfterGc());
                System.out.flush();
            } else if (line.equals("stop")) {
                break;
            }
        }
        broker.close();
        System.out.println("STOPPED");
        System.out.flush();
        System.exit(0);
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
