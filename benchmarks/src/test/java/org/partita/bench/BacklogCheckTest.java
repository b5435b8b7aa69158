package org.partita.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** S11's pure logic: the exactly-once bitmap of a drain and the free-disk check before a step. */
class BacklogCheckTest {

    @Test
    void theBitmapSeesEveryMessageOnceAndNamesAMissingOrRepeatedOne() {
        ArrivalBitmap arrivals = new ArrivalBitmap(5);
        for (int i : new int[] {4, 0, 2, 1}) {
            assertTrue(arrivals.record(i));
        }
        assertFalse(arrivals.exactlyOnce(), "#3 has not arrived");
        assertEquals(3, arrivals.firstMissing());
        assertTrue(arrivals.record(3));
        assertTrue(arrivals.exactlyOnce());
        assertEquals(-1, arrivals.firstMissing());

        assertFalse(arrivals.record(2), "a second #2 is a duplicate");
        assertFalse(arrivals.record(5), "past the backlog");
        assertFalse(arrivals.record(-1));
        assertEquals(5, arrivals.distinct());
        assertEquals(1, arrivals.duplicates());
        assertEquals(2, arrivals.unexpected());
        assertFalse(arrivals.exactlyOnce());
    }

    @Test
    void twentyMillionArrivalsFitInABitEach() {
        ArrivalBitmap arrivals = new ArrivalBitmap(20_000_000);
        for (int i = 20_000_000 - 1; i >= 0; i--) {
            arrivals.record(i);
        }
        assertTrue(arrivals.exactlyOnce());
    }

    @Test
    void aStepIsRefusedWhenThreeKibPerMessageDoNotFit() {
        Path dir = Path.of("/data/work");
        assertEquals(3L * 1024 * 1_000_000, DiskRoom.estimate(1_000_000));
        assertNull(DiskRoom.refusal(1_000_000, 3L * 1024 * 1_000_000, dir), "exactly enough fits");
        String refusal = DiskRoom.refusal(20_000_000, 50L << 30, dir);
        assertTrue(
                refusal != null
                        && refusal.startsWith("refused: 20,000,000 messages may take 57.2 GiB")
                        && refusal.contains("/data/work has 50.0 GiB free"),
                refusal);
        assertNull(DiskRoom.refusal(1_000, 3L << 20, dir));
    }

    @Test
    void aRefusedStepFailsWithItsReason() {
        BacklogFigures f = new BacklogFigures(Target.PARTITA, 10);
        f.error = "refused: no room";
        assertFalse(f.passed());
        assertEquals("NO: refused: no room", f.check());
        assertTrue(Double.isNaN(f.diskBytesPerMessage()));
    }
}
