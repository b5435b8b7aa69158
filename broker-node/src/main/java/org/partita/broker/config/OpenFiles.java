package org.partita.broker.config;

import java.lang.management.ManagementFactory;

/** The process's open-file limit, which bounds the sockets a node can hold ({@link HeapBudgets#connections}). */
final class OpenFiles {
    private OpenFiles() {}

    /**
     * The most files this process may have open (on Linux the JVM raises its soft limit to the hard
     * one at start), or 0 where the platform does not say.
     */
    static long limit() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            return unix.getMaxFileDescriptorCount();
        }
        return 0;
    }
}
