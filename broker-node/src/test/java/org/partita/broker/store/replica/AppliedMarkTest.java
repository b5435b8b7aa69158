package org.partita.broker.store.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.ratis.server.protocol.TermIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AppliedMarkTest {
    @TempDir
    Path tmp;

    @Test
    void noFileMeansNothingApplied() throws IOException {
        assertNull(new AppliedMark(tmp.resolve("applied")).read());
    }

    @Test
    void theLastMarkWrittenIsReadBackAndNoTemporaryFileStays() throws IOException {
        AppliedMark mark = new AppliedMark(tmp.resolve("applied"));
        mark.write(TermIndex.valueOf(1, 10));
        mark.write(TermIndex.valueOf(3, 12_345_678_901L));
        assertEquals(TermIndex.valueOf(3, 12_345_678_901L), new AppliedMark(tmp.resolve("applied")).read());
        try (var files = Files.list(tmp)) {
            assertEquals(1, files.count(), "only the mark itself");
        }
    }

    @Test
    void aDamagedMarkIsAnErrorNamingTheFileNotAReplayFromTheStart() throws IOException {
        Files.writeString(tmp.resolve("applied"), "garbage");
        IOException e = assertThrows(IOException.class, () -> new AppliedMark(tmp.resolve("applied")).read());
        assertTrue(e.getMessage().contains("applied"), e.getMessage());
    }
}
