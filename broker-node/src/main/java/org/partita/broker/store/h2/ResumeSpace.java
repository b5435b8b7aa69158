package org.partita.broker.store.h2;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * How much free disk space a store that stopped on a full disk needs to resume, said in the error
 * itself. Reopening replays the journal into H2 before anything else: H2 appends what it moves
 * (it frees the old pages only after its retention time), so the database grows by about what the
 * journal holds, with its page and index overhead, while the journal files keep their size until
 * the replay has ended. The estimate is twice the journal's pending bytes plus {@link #MARGIN_BYTES}
 * for H2's own chunks; a restart needs the same, since it replays the same journal.
 */
final class ResumeSpace {
    /** What H2 writes beyond the moved rows: its layout chunks, a checkpoint's metadata. */
    static final long MARGIN_BYTES = 16L << 20;

    private ResumeSpace() {}

    /** Free bytes resuming needs with {@code journalPendingBytes} to move into H2. */
    static long needed(long journalPendingBytes) {
        return 2 * Math.max(0, journalPendingBytes) + MARGIN_BYTES;
    }

    /** The advice for a fault whose cause is {@code reason}, or null when it is no lack of space. */
    static String advice(String reason, Path dataDir, long journalPendingBytes) {
        if (reason == null || !reason.toLowerCase(Locale.ROOT).contains("no space left")) {
            return null;
        }
        long need = needed(journalPendingBytes);
        String free;
        try {
            free = ", " + mib(Files.getFileStore(dataDir).getUsableSpace()) + " free now";
        } catch (IOException | RuntimeException e) {
            free = "";
        }
        return "resuming needs about " + mib(need) + " free in " + dataDir.toAbsolutePath() + " (the journal's "
                + mib(journalPendingBytes) + " move into the database first" + free + ")";
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }
}
