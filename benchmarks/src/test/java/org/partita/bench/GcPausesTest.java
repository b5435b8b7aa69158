package org.partita.bench;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The tool's own collection pauses, which a run's notes report next to its latencies. */
class GcPausesTest {

    @Test
    void aCollectionAfterAMarkIsCountedAndOneBeforeItIsNot() {
        GcPauses.Mark before = GcPauses.mark();
        System.gc(); // a stop-the-world collection with the JVMs this tool runs on (G1, Parallel, Serial)
        await().atMost(Duration.ofSeconds(10)).until(() -> !before.since().isEmpty());
        assertTrue(before.describe().matches("\\d+, longest \\d+ ms"), before.describe());

        GcPauses.Mark after = GcPauses.mark();
        assertTrue(
                after.since().size() < before.since().size(),
                "the collection before the second mark is not counted after it: " + after.since() + " "
                        + before.since());
    }
}
