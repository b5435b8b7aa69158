package org.partita.broker.config;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;

/**
 * The memory the JVM the node runs in may use: the heap's maximum ({@code -Xmx}), the direct memory
 * limit ({@code -XX:MaxDirectMemorySize}, which defaults to the heap's maximum) and, under G1, the
 * size of a heap region, which decides what a large byte array really costs ({@link HeapCost}).
 *
 * @param heapBytes   {@link Runtime#maxMemory()}
 * @param directBytes what {@code ByteBuffer.allocateDirect} and Netty's direct buffers may take together
 * @param regionBytes G1's region size, or 0 under a collector that does not round large arrays up
 */
public record JvmMemory(long heapBytes, long directBytes, long regionBytes) {
    private static final JvmMemory CURRENT = read();

    public JvmMemory {
        if (heapBytes <= 0 || directBytes <= 0 || regionBytes < 0) {
            throw new IllegalArgumentException(
                    "heap and direct memory must be positive: " + heapBytes + ", " + directBytes);
        }
    }

    /** The JVM this code runs in (read once: none of it changes while the JVM runs). */
    public static JvmMemory current() {
        return CURRENT;
    }

    /** How the heap was given, as an operator wrote it: {@code 128 MiB} for {@code -Xmx128m}. */
    public String heapText() {
        return HeapBudgets.mib(heapBytes);
    }

    private static JvmMemory read() {
        long heap = Runtime.getRuntime().maxMemory();
        long direct = heap;
        long region = 0;
        try {
            HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            long set = Long.parseLong(hotspot.getVMOption("MaxDirectMemorySize").getValue());
            if (set > 0) {
                direct = set;
            }
            if (Boolean.parseBoolean(hotspot.getVMOption("UseG1GC").getValue())) {
                region = Long.parseLong(hotspot.getVMOption("G1HeapRegionSize").getValue());
            }
        } catch (RuntimeException notHotSpot) {
            // another JVM: the heap stands for direct memory too, and arrays are taken at their length
        }
        return new JvmMemory(heap, direct, region);
    }
}
