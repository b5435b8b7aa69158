package org.partita.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Whether a backlog step of S11 fits on the work folder's disk, checked before the step, so that a
 * sweep to 20 million messages refuses a step up front instead of filling the disk under a broker (and
 * the other engineers' work on that disk) halfway through.
 */
final class DiskRoom {
    /**
     * The estimate per persistent 1 KiB message: about twice what a broker was seen to store (S5: 1,214
     * bytes for Partita, 1,462 for tuned Artemis, the body with its headers and record framing). Twice,
     * because a broker may hold a message in two places for a while (Partita in its journal until a
     * checkpoint has moved it into H2), journals are preallocated in whole files, and KahaDB keeps an index
     * beside its journal. Only one step's data is on disk at a time: each step's folder is deleted after it.
     */
    static final long BYTES_PER_MESSAGE = 3 * 1024;

    private DiskRoom() {}

    /** The bytes a backlog of {@code messages} is allowed to take on disk. */
    static long estimate(long messages) {
        return messages * BYTES_PER_MESSAGE;
    }

    /** Why a backlog of {@code messages} does not fit in {@code usableBytes}, or null if it fits. */
    static String refusal(long messages, long usableBytes, Path dir) {
        long needed = estimate(messages);
        if (needed <= usableBytes) {
            return null;
        }
        return String.format(
                Locale.ROOT,
                "refused: %,d messages may take %.1f GiB (%,d bytes each, an estimate) and %s has %.1f GiB free;"
                        + " free some space, choose another --work-dir or leave that size out of --backlog-sizes",
                messages,
                needed / (double) (1L << 30),
                BYTES_PER_MESSAGE,
                dir,
                usableBytes / (double) (1L << 30));
    }

    /** As {@link #refusal(long, long, Path)} with the space free now on {@code dir}'s file system. */
    static String check(Path dir, long messages) throws IOException {
        return refusal(messages, Files.getFileStore(dir).getUsableSpace(), dir);
    }
}
