package org.partita.samples.startup;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.samples.support.SampleRun;

@Tag("slow")
class StartupStateTest {

    @Test
    @Timeout(60)
    void aNewInstanceKnowsEveryMachinesStateFromTheLastValueQueueBeforeItConsumes() {
        SampleRun.of(new StartupState())
                .assertPassed(
                        "one browse gave the newest state of every machine",
                        "held nothing newer than the browse",
                        "ends on each machine's latest state",
                        "browsing left the newest state");
    }
}
