package org.partita.broker.store.h2;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.store.StoreBatch;
import org.partita.broker.store.StoreOp;

/**
 * docs/reliability.md, "Storage faults" point 9: the H2 file gives back the space of a drained
 * backlog while the store runs, cycle after cycle.
 */
class OnlineCompactionTest {
    private static final int MESSAGES = 400;
    private static final int PAYLOAD = 100 * 1024; // 40 MB a cycle

    @TempDir
    Path dir;

    @Test
    void theDatabaseFileShrinksAfterEachFillAndDrain() throws Exception {
        Random random = new Random(7);
        long peak = 0;
        try (H2MessageStore store = H2MessageStore.open(dir, true, H2MessageStore.Layout.JOURNALED, 4L << 20)) {
            long id = 0;
            for (int cycle = 0; cycle < 4; cycle++) {
                long first = id + 1;
                for (int i = 0; i < MESSAGES; i++) {
                    byte[] payload = new byte[PAYLOAD];
                    random.nextBytes(payload);
                    id++;
                    store.write(new StoreBatch()
                                    .add(new StoreOp.InsertMessage(id, payload))
                                    .add(new StoreOp.InsertEntry("q", id, 0)))
                            .get();
                }
                store.figures(); // a checkpoint: the backlog is in H2
                peak = Math.max(peak, Files.size(dir.resolve("partita.mv.db")));
                for (long m = first; m <= id; m++) {
                    store.write(StoreBatch.relaxed()
                                    .add(new StoreOp.DeleteEntry("q", m))
                                    .add(new StoreOp.DeleteMessage(m)))
                            .get();
                }
                store.figures(); // a checkpoint: the deletions reach H2, which then compacts
                long after = Files.size(dir.resolve("partita.mv.db"));
                System.out.printf("cycle %d: peak %d MiB, after the drain %d KiB%n", cycle, peak >> 20, after >> 10);
                assertTrue(
                        after < 16L << 20,
                        "cycle " + cycle + ": the drained file keeps " + after + " bytes (peak " + peak + ")");
            }
            assertTrue(store.counters().orElseThrow().compactions() >= 4);
        }
        assertTrue(peak > 35L << 20, "the backlog reached H2: " + peak);
        assertTrue(Files.size(dir.resolve("partita.mv.db")) < 16L << 20, "and stays small after a clean stop");
    }
}
