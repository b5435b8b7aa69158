package org.partita.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * The stop-the-world collections of the tool's own JVM, as the JVM announces them: the clients'
 * pauses, and the broker's too when it is embedded. A run of S1 lasts a fraction of a second, so one
 * pause of a few milliseconds inside it holds up more than 1% of its messages and becomes its p99;
 * each run's notes say how many pauses it met and the longest.
 */
final class GcPauses {
    /** Every pause's length in milliseconds (whole: the JVM reports no finer), in order. */
    private static final List<Long> PAUSES = new ArrayList<>();

    static {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(
                        (n, handback) -> {
                            if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
                                paused(GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData()));
                            }
                        },
                        null,
                        null);
            }
        }
    }

    private GcPauses() {}

    /** Marks now (and starts listening, once per JVM): {@link Mark#describe} tells what came after. */
    static Mark mark() {
        synchronized (PAUSES) {
            return new Mark(PAUSES.size());
        }
    }

    private static void paused(GarbageCollectionNotificationInfo info) {
        // Concurrent collectors' cycles (such as "G1 Concurrent GC" on newer JDKs) run beside the
        // application: only the pauses hold messages up.
        if (info.getGcName().contains("Concurrent")) {
            return;
        }
        synchronized (PAUSES) {
            PAUSES.add(info.getGcInfo().getDuration());
        }
    }

    /** A point in the JVM's collections. */
    record Mark(int from) {
        /** Pauses since the mark. */
        List<Long> since() {
            synchronized (PAUSES) {
                return List.copyOf(PAUSES.subList(from, PAUSES.size()));
            }
        }

        /** "none", or how many pauses came since the mark and the longest. */
        String describe() {
            List<Long> pauses = since();
            return pauses.isEmpty()
                    ? "none"
                    : String.format(
                            Locale.ROOT,
                            "%d, longest %d ms",
                            pauses.size(),
                            pauses.stream().mapToLong(Long::longValue).max().orElse(0));
        }
    }
}
