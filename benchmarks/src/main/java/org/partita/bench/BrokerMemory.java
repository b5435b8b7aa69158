package org.partita.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * What a broker holds in memory at one moment of a scenario of scale (S9, S10), the clients still
 * connected: its heap after a full collection and, in a JVM of its own, that process's resident set.
 * Embedded, the broker shares the tool's heap with the clients: the figure is then the tool's whole JVM,
 * and the rows say so; a resident set of the tool's process would count the clients too, so none is read.
 */
final class BrokerMemory {
    private static final double MIB = 1 << 20;

    private BrokerMemory() {}

    /** Puts the heap after a full GC (MiB) at {@code heapKey} and, in a JVM of its own, the resident set at {@code rssKey}. */
    static void record(BrokerUnderTest broker, String heapKey, String rssKey, Map<String, Double> values)
            throws InterruptedException {
        if (broker instanceof OwnJvmBroker own) {
            values.put(heapKey, own.heapAfterGc() / MIB);
            long rss = residentBytes(own.pid());
            if (rss >= 0) {
                values.put(rssKey, rss / MIB);
            }
        } else {
            values.put(heapKey, BrokerProcess.heapAfterGc() / MIB);
        }
    }

    /** The process's resident set ({@code VmRSS} of {@code /proc/<pid>/status}), or -1 where there is no such file. */
    static long residentBytes(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    // "VmRSS:    123456 kB"
                    String[] words = line.trim().split("\\s+");
                    return Long.parseLong(words[1]) * 1024;
                }
            }
            return -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
