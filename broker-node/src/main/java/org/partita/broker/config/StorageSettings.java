package org.partita.broker.config;

/**
 * How the store reacts to I/O faults and when it gives space back. In the config file each
 * component is {@code storage.<name> = value}.
 *
 * @param retryFirstMillis    after a write fails for an I/O reason (disk full, a failed sync), how long the store
 *                            waits before it first tries to reopen itself; each failed try doubles the wait
 * @param retryMaxMillis      the longest wait between two tries
 * @param compactFillPercent  at a checkpoint, when the live data fill less than this share of the H2 file, the file
 *                            is compacted online so it gives the space back; 0 never compacts while running
 * @param compactMaxMillis    the longest one online compaction may take (the writer waits meanwhile)
 * @param journalBytes        the journal's budget: bytes of records, and heap cost of pending changes, its two
 *                            segments hold together; a segment is checkpointed into H2 at half of it
 * @param checkpointTransactionBytes payload bytes one H2 transaction of a checkpoint inserts or deletes (a larger
 *                            payload goes alone); H2 holds several times this until the transaction commits
 * @param diskReserveBytes    free space on the data folder's disk that large message bodies leave to the store
 *                            (its journal, H2's file and the room a store needs to resume after a full disk): a
 *                            body part that would leave less is refused, and its upload deleted
 */
public record StorageSettings(
        int retryFirstMillis,
        int retryMaxMillis,
        int compactFillPercent,
        int compactMaxMillis,
        long journalBytes,
        long checkpointTransactionBytes,
        long diskReserveBytes) {
    public static final String PREFIX = "storage.";
    public static final String NAMES = "storage.retryFirstMillis, storage.retryMaxMillis, storage.compactFillPercent,"
            + " storage.compactMaxMillis, storage.diskReserveBytes";

    /**
     * What large bodies leave free by default: room for the journal's segments, a checkpoint of H2 and the
     * 25 MB or so a store needs to resume after a full disk (docs/storage.md), with a wide margin.
     */
    public static final long DEFAULT_DISK_RESERVE_BYTES = 256L << 20;

    public StorageSettings {
        if (retryFirstMillis < 1 || retryMaxMillis < retryFirstMillis) {
            throw new IllegalArgumentException("storage retries need 1 <= retryFirstMillis <= retryMaxMillis, not "
                    + retryFirstMillis + " and " + retryMaxMillis);
        }
        if (compactFillPercent < 0 || compactFillPercent > 100) {
            throw new IllegalArgumentException("compactFillPercent must be from 0 to 100: " + compactFillPercent);
        }
        if (compactMaxMillis < 1) {
            throw new IllegalArgumentException("compactMaxMillis must be positive: " + compactMaxMillis);
        }
        if (journalBytes < 2 || checkpointTransactionBytes < 1) {
            throw new IllegalArgumentException(
                    "the journal's budget and a checkpoint transaction's bytes must be positive: " + journalBytes + ", "
                            + checkpointTransactionBytes);
        }
        if (diskReserveBytes < 0) {
            throw new IllegalArgumentException("diskReserveBytes must be 0 or more: " + diskReserveBytes);
        }
    }

    /** The journal's budgets as shares of this JVM's heap ({@link HeapBudgets}). */
    public static StorageSettings defaults() {
        return defaults(HeapBudgets.current());
    }

    public static StorageSettings defaults(HeapBudgets heap) {
        return new StorageSettings(
                200,
                10_000,
                50,
                2_000,
                heap.journalBytes(),
                heap.checkpointTransactionBytes(),
                DEFAULT_DISK_RESERVE_BYTES);
    }

    public StorageSettings withRetry(int firstMillis, int maxMillis) {
        return new StorageSettings(
                firstMillis,
                maxMillis,
                compactFillPercent,
                compactMaxMillis,
                journalBytes,
                checkpointTransactionBytes,
                diskReserveBytes);
    }

    public StorageSettings withCompaction(int fillPercent, int maxMillis) {
        return new StorageSettings(
                retryFirstMillis,
                retryMaxMillis,
                fillPercent,
                maxMillis,
                journalBytes,
                checkpointTransactionBytes,
                diskReserveBytes);
    }

    public StorageSettings withJournal(long budgetBytes, long transactionBytes) {
        return new StorageSettings(
                retryFirstMillis,
                retryMaxMillis,
                compactFillPercent,
                compactMaxMillis,
                budgetBytes,
                transactionBytes,
                diskReserveBytes);
    }

    public StorageSettings withDiskReserve(long bytes) {
        return new StorageSettings(
                retryFirstMillis,
                retryMaxMillis,
                compactFillPercent,
                compactMaxMillis,
                journalBytes,
                checkpointTransactionBytes,
                bytes);
    }

    /** One {@code storage.<name> = value} line of the config file; errors name {@code where}. */
    StorageSettings withField(String field, String value, String where) {
        String name = field.substring(PREFIX.length());
        return switch (name) {
            case "retryFirstMillis" ->
                withRetry(
                        NodeConfigFile.integer(value, field, where, 1, 3_600_000),
                        Math.max(retryMaxMillis, Integer.parseInt(value)));
            case "retryMaxMillis" -> {
                int max = NodeConfigFile.integer(value, field, where, 1, 3_600_000);
                if (max < retryFirstMillis) {
                    throw new ConfigException(where + ": field '" + field
                            + "' must be at least storage.retryFirstMillis (" + retryFirstMillis + ")");
                }
                yield withRetry(retryFirstMillis, max);
            }
            case "compactFillPercent" ->
                withCompaction(NodeConfigFile.integer(value, field, where, 0, 100), compactMaxMillis);
            case "compactMaxMillis" ->
                withCompaction(compactFillPercent, NodeConfigFile.integer(value, field, where, 1, 3_600_000));
            case "diskReserveBytes" -> withDiskReserve(nonNegative(value, field, where));
            default -> throw new ConfigException(where + ": unknown field '" + field + "'; known: " + NAMES);
        };
    }

    private static long nonNegative(String value, String field, String where) {
        try {
            long v = Long.parseLong(value.strip());
            if (v >= 0) {
                return v;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new ConfigException(
                where + ": field '" + field + "' must be a number of bytes, 0 or more, not '" + value + "'");
    }
}
