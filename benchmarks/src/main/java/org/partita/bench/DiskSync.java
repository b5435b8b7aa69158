package org.partita.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * The disk's sync rate, measured like {@code artemis create} does before it sets
 * {@code journal-buffer-timeout}: a preallocated file, then {@code writes} sequential 4 KiB writes,
 * each followed by {@code FileChannel.force(false)}; the time per write is the time of one sync.
 * Several tries; the median try counts.
 */
public final class DiskSync {
    static final int BLOCK = 4096;

    /** @param nanosPerSync median time of one 4 KiB write + force */
    public record Result(int writes, int tries, long nanosPerSync) {
        public double syncsPerSecond() {
            return 1e9 / nanosPerSync;
        }
    }

    private DiskSync() {}

    public static Result measure(Path dir, int writes, int tries) throws IOException {
        Files.createDirectories(dir);
        Path file = Files.createTempFile(dir, "sync-test", ".tmp");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.READ)) {
            ByteBuffer zeros = ByteBuffer.allocateDirect(BLOCK);
            for (int i = 0; i < writes; i++) {
                zeros.clear();
                ch.write(zeros);
            }
            ch.force(true);
            ByteBuffer block = ByteBuffer.allocateDirect(BLOCK);
            while (block.hasRemaining()) {
                block.put((byte) 't');
            }
            long[] perTry = new long[tries];
            for (int t = 0; t < tries; t++) {
                ch.position(0);
                long start = System.nanoTime();
                for (int i = 0; i < writes; i++) {
                    block.clear();
                    while (block.hasRemaining()) {
                        ch.write(block);
                    }
                    ch.force(false);
                }
                perTry[t] = (System.nanoTime() - start) / writes;
            }
            Arrays.sort(perTry);
            return new Result(writes, tries, Math.max(1, perTry[tries / 2]));
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
