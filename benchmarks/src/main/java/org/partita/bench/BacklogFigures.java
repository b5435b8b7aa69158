package org.partita.bench;

/**
 * What one step of S11 measured on one broker: a backlog of {@code messages} filled, stopped, restarted
 * and drained. Filled in phase by phase, so that a step failing halfway still reports what it reached;
 * a figure not reached stays at -1 (NaN for the rates).
 */
final class BacklogFigures {
    final Target target;
    final int messages;

    /** Messages per second from the first send to the last commit. */
    double fillRate = Double.NaN;
    /** The broker JVM's heap after full collections, the backlog in place. */
    long heapAfterFill = -1;
    /** The data folder's size after the fill ({@link Files2#sizeOf}), the broker still running. */
    long diskBytes = -1;
    /** From the stop request to the broker JVM's end. */
    long stopMillis = -1;

    GcLog.Summary stopGc = GcLog.Summary.NONE;
    /** From launching the broker's JVM on the backlog to the first message in a consumer's hands. */
    long firstDeliveryMillis = -1;
    /** The broker's own start until it listened, as it timed it inside its JVM. */
    long startMillis = -1;
    /** The broker JVM's heap after full collections, once it delivered its first message. */
    long heapAfterRestart = -1;
    /** Messages per second over the drain after the heap was read. */
    double drainRate = Double.NaN;

    ArrivalBitmap arrivals;
    /** Why the step failed or was refused; null if it ran to its end. */
    String error;

    BacklogFigures(Target target, int messages) {
        this.target = target;
        this.messages = messages;
    }

    /** Ran to its end and every message arrived exactly once. */
    boolean passed() {
        return error == null && arrivals != null && arrivals.exactlyOnce();
    }

    /** Bytes on disk per message of the backlog, or NaN. */
    double diskBytesPerMessage() {
        return diskBytes < 0 ? Double.NaN : diskBytes / (double) messages;
    }

    /** The report's words on the exactly-once check. */
    String check() {
        if (passed()) {
            return "yes";
        }
        StringBuilder sb = new StringBuilder("NO");
        if (arrivals != null) {
            sb.append(": ")
                    .append(arrivals.distinct())
                    .append(" arrived, ")
                    .append(arrivals.duplicates())
                    .append(" duplicates");
            if (arrivals.unexpected() > 0) {
                sb.append(", ").append(arrivals.unexpected()).append(" unexpected");
            }
            if (arrivals.firstMissing() >= 0) {
                sb.append(", first missing #").append(arrivals.firstMissing());
            }
        }
        if (error != null) {
            sb.append(arrivals == null ? ": " : "; ").append(error);
        }
        return sb.toString();
    }
}
