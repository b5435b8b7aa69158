package org.partita.samples.priority;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Who did which job. A job can come twice when an instance leaves before its acknowledgement
 * reached the node; the second delivery is then flagged {@code JMSRedelivered}, and a real service
 * would skip it by job id as this log does.
 */
final class JobLog {
    private final Map<Integer, String> doneBy = new ConcurrentHashMap<>();
    private final AtomicInteger redeliveredRepeats = new AtomicInteger();
    private final AtomicInteger unflaggedRepeats = new AtomicInteger();

    void done(int job, String worker, boolean redelivered) {
        if (doneBy.putIfAbsent(job, worker) != null) {
            (redelivered ? redeliveredRepeats : unflaggedRepeats).incrementAndGet();
        }
    }

    /** The worker that did {@code job}, or null. */
    String doneBy(int job) {
        return doneBy.get(job);
    }

    int jobsDone() {
        return doneBy.size();
    }

    int redeliveredRepeats() {
        return redeliveredRepeats.get();
    }

    /** Jobs delivered again without the redelivered flag: a fault. */
    int unflaggedRepeats() {
        return unflaggedRepeats.get();
    }
}
