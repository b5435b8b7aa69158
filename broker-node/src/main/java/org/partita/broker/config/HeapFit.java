package org.partita.broker.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * Refuses, at start, a memory budget set in the config file that does not fit the heap the node
 * runs in: a node that starts with one would run out of memory under a load the budget allows. The
 * node-wide budgets take at most {@link HeapBudgets#NODE_WIDE_EIGHTHS} eighths of the heap together;
 * what one connection, transaction, frame or message may hold, at most a fixed part of it (a message
 * no more than its default share: each stage of the store may hold one past its budget).
 * Budgets left to their defaults always fit ({@link HeapBudgets}). One line names the file and line,
 * the field, its value and the heap.
 */
final class HeapFit {
    /** A budget of the file, what it reads from the config, and the most it may be given: a part of the heap. */
    private record Budget(
            String field, ToLongFunction<NodeConfig> value, boolean nodeWide, int heapDivisor, boolean direct) {}

    private static final Budget[] BUDGETS = {
        new Budget("limits.inFlightBytes", c -> c.limits().inFlightBytes(), true, 4, true),
        new Budget("limits.nonPersistentBytes", c -> c.limits().nonPersistentBytes(), true, 4, false),
        new Budget("limits.openTransactionBytes", c -> c.limits().openTransactionBytes(), true, 4, false),
        new Budget("residentBytes", NodeConfig::residentBytes, true, 4, false),
        new Budget("limits.transactionBytes", c -> c.limits().transactionBytes(), false, 8, false),
        new Budget("limits.writeBufferBytes", c -> c.limits().writeBufferBytes(), false, 8, true),
        new Budget("maxFrameSize", c -> c.maxFrameSize(), false, 4, true),
        new Budget("limits.messageBytes", c -> c.limits().messageBytes(), false, 32, true),
        // Ratis holds two files of each replica set the node is in (ReplicaServer)
        new Budget(
                "cluster.replicaLog.segmentBytes",
                c -> c.cluster() == null ? 0 : c.cluster().replicaLog().segmentBytes(),
                false,
                16,
                false),
    };

    private HeapFit() {}

    /**
     * @param set where each field was set in the file ({@code file:line}), for the fields it set
     * @throws ConfigException naming the first budget set in the file that does not fit
     */
    static void check(NodeConfig c, Map<String, String> set, HeapBudgets heap) {
        JvmMemory jvm = heap.jvm();
        for (Budget b : BUDGETS) {
            String where = set.get(b.field());
            long value = b.value().applyAsLong(c);
            long most = (b.direct() ? Math.min(jvm.heapBytes(), jvm.directBytes()) : jvm.heapBytes()) / b.heapDivisor();
            if (where != null && value > most) {
                throw new ConfigException(where + ": field '" + b.field() + "' = " + value + " does not fit the "
                        + jvm.heapText() + " heap"
                        + (b.direct() && jvm.directBytes() < jvm.heapBytes()
                                ? " and " + HeapBudgets.mib(jvm.directBytes()) + " of direct memory"
                                : "")
                        + ": at most 1/" + b.heapDivisor() + " of it (" + most
                        + " bytes); lower it or give the node more memory (-Xmx)");
            }
        }
        checkNodeWide(c, set, heap);
    }

    /** The node-wide budgets together, with the journal's, against {@link HeapBudgets#nodeWideBytes}. */
    private static void checkNodeWide(NodeConfig c, Map<String, String> set, HeapBudgets heap) {
        Map<String, Long> values = new LinkedHashMap<>();
        String largestSet = null;
        long total = 0;
        for (Budget b : BUDGETS) {
            if (b.nodeWide()) {
                long v = b.value().applyAsLong(c);
                values.put(b.field(), v);
                total += v;
                if (set.containsKey(b.field()) && (largestSet == null || v > values.get(largestSet))) {
                    largestSet = b.field();
                }
            }
        }
        long journal = c.storage().journalBytes();
        total += journal;
        if (largestSet == null || total <= heap.nodeWideBytes()) {
            return;
        }
        StringBuilder parts = new StringBuilder();
        values.forEach((field, v) -> parts.append(field).append(' ').append(v).append(" + "));
        parts.append("the journal ").append(journal);
        throw new ConfigException(set.get(largestSet) + ": field '" + largestSet + "' = " + values.get(largestSet)
                + " does not fit the " + heap.jvm().heapText() + " heap: the node-wide budgets would take " + total
                + " bytes (" + parts + "), more than " + HeapBudgets.NODE_WIDE_EIGHTHS + "/8 of it ("
                + heap.nodeWideBytes()
                + " bytes); lower them or give the node more memory (-Xmx)");
    }
}
