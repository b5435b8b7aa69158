package org.partita.broker.store.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.store.FaultyDisk;

/** The journal file on a real disk: what it replays after a reopen, a torn write, a rewind. */
class JournalFileTest {
    @TempDir
    Path tmp;

    @Test
    void aNewFileReplaysNothing() throws IOException {
        try (JournalFile f = JournalFile.open(tmp.resolve("j"))) {
            assertEquals(List.of(), replay(f));
        }
    }

    @Test
    void recordsAppendedAndForcedAreReplayedAfterReopen() throws IOException {
        Path path = tmp.resolve("j");
        try (JournalFile f = started(path)) {
            for (int i = 0; i < 100; i++) {
                f.append(record("record-" + i));
            }
            f.force();
        }
        try (JournalFile f = JournalFile.open(path)) {
            List<String> got = replay(f);
            assertEquals(100, got.size());
            assertEquals("record-0", got.get(0));
            assertEquals("record-99", got.get(99));
        }
    }

    @Test
    void aTornLastRecordEndsTheReplayAndIsOverwrittenByTheNextAppend() throws IOException {
        Path path = tmp.resolve("j");
        long tornAt;
        try (JournalFile f = started(path)) {
            f.append(record("one"));
            f.append(record("two"));
            tornAt = JournalFile.HEADER_SIZE + f.used();
            f.append(record("three-which-is-torn"));
            f.force();
        }
        // A crash in the middle of the third write: its last bytes never reached the disk.
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {0x55, 0x55, 0x55}), tornAt + JournalFile.RECORD_OVERHEAD + 4);
        }
        try (JournalFile f = JournalFile.open(path)) {
            assertEquals(List.of("one", "two"), replay(f));
            f.append(record("four"));
            f.force();
        }
        try (JournalFile f = JournalFile.open(path)) {
            assertEquals(List.of("one", "two", "four"), replay(f));
        }
    }

    @Test
    void recordsOfAnEarlierEpochLeftInTheFileAreNeverReplayed() throws IOException {
        Path path = tmp.resolve("j");
        try (JournalFile f = started(path)) {
            for (int i = 0; i < 10; i++) {
                f.append(record("old-" + i));
            }
            f.rewind();
            f.append(record("new"));
            f.force();
        }
        try (JournalFile f = JournalFile.open(path)) {
            assertEquals(List.of("new"), replay(f));
        }
    }

    @Test
    void spaceIsAllocatedAheadInLargeStepsNotPerRecord() throws IOException {
        Path path = tmp.resolve("j");
        try (JournalFile f = started(path)) {
            long sizeAfterFirst;
            f.append(record("x"));
            sizeAfterFirst = Files.size(path);
            for (int i = 0; i < 1000; i++) {
                f.append(record("payload-" + i));
            }
            assertEquals(sizeAfterFirst, Files.size(path), "1000 small records fit in the first allocation");
            assertTrue(sizeAfterFirst >= 1 << 20, "allocated ahead: " + sizeAfterFirst);
        }
    }

    @Test
    void spacePreparedAheadIsUsedByTheAppendsWithoutAllocatingAgain() throws IOException {
        Path path = tmp.resolve("j");
        try (JournalFile f = started(path)) {
            f.prepare(3L * JournalFile.ALLOCATION_STEP); // as the allocator thread does
            long allocatedByAppends = 0;
            ByteBuffer big = ByteBuffer.allocate(JournalFile.RECORD_OVERHEAD + (1 << 20))
                    .position(JournalFile.RECORD_OVERHEAD + (1 << 20));
            for (int i = 0; i < 11; i++) {
                allocatedByAppends += f.append(big.duplicate());
            }
            assertEquals(0, allocatedByAppends, "11 MiB of records went into the prepared 12 MiB");
            assertEquals(3L * JournalFile.ALLOCATION_STEP, Files.size(path));
            allocatedByAppends += f.append(big.duplicate()); // past it: the writer allocates for itself, a step
            assertEquals(JournalFile.ALLOCATION_STEP, allocatedByAppends);
        }
    }

    @Test
    void aSyncThatFailedWhilePreparingSpaceFailsTheWritersNextSyncToo() throws IOException {
        Path dir = tmp.resolve("d");
        Files.createDirectories(dir);
        FaultyDisk disk = new FaultyDisk(dir);
        try (JournalFile f = JournalFile.open(dir.resolve("j"), disk)) {
            f.replay(b -> {});
            f.rewind();
            f.append(record("confirmed only if synced"));
            disk.fail(FaultyDisk.Fault.SYNC);
            // the allocator's sync of the same file fails: Linux may report the lost write-back to it alone
            assertThrows(IOException.class, () -> f.prepare(2L * JournalFile.ALLOCATION_STEP));
            disk.heal();
            assertThrows(IOException.class, f::force, "the writer must not confirm records whose write-back failed");
        }
    }

    private static JournalFile started(Path path) throws IOException {
        JournalFile f = JournalFile.open(path);
        f.replay(b -> {});
        f.rewind();
        return f;
    }

    private static ByteBuffer record(String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(JournalFile.RECORD_OVERHEAD + bytes.length)
                .position(JournalFile.RECORD_OVERHEAD)
                .put(bytes);
    }

    private static List<String> replay(JournalFile f) throws IOException {
        List<String> out = new ArrayList<>();
        f.replay(b -> {
            byte[] bytes = new byte[b.remaining()];
            b.get(bytes);
            out.add(new String(bytes, StandardCharsets.UTF_8));
        });
        return out;
    }
}
