package org.partita.broker.store.h2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResumeSpaceTest {
    @TempDir
    Path tmp;

    @Test
    void resumingNeedsTwiceTheJournalsPendingBytesAndAMargin() {
        assertEquals(ResumeSpace.MARGIN_BYTES, ResumeSpace.needed(0));
        assertEquals(2 * (25L << 20) + ResumeSpace.MARGIN_BYTES, ResumeSpace.needed(25L << 20));
    }

    @Test
    void aFullDiskIsToldHowMuchToFreeAndWhere() {
        String advice = ResumeSpace.advice("No space left on device", tmp, 25L << 20);
        assertTrue(advice.startsWith("resuming needs about 66.0 MiB free in " + tmp.toAbsolutePath()), advice);
        assertTrue(advice.contains("the journal's 25.0 MiB move into the database first"), advice);
        assertTrue(advice.matches(".*, [0-9.]+ MiB free now\\)"), advice);
    }

    @Test
    void otherFaultsGetNoSpaceAdvice() {
        assertNull(ResumeSpace.advice("Input/output error", tmp, 1 << 20));
        assertNull(ResumeSpace.advice(null, tmp, 1 << 20));
    }
}
