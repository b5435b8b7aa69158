package org.partita.samples.priority;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.samples.support.SampleRun;

@Tag("slow")
class PrimaryBackupTest {

    @Test
    @Timeout(60)
    void theBackupTakesOverWhenThePrimaryLeavesAndGivesBackWhenItReturns() {
        SampleRun.of(new PrimaryBackup())
                .assertPassed(
                        "every job was done",
                        "only the primary received",
                        "the backup took over",
                        "the primary received again");
    }
}
