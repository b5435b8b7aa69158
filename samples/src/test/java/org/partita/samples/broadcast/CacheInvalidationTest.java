package org.partita.samples.broadcast;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.samples.support.SampleRun;

@Tag("slow")
class CacheInvalidationTest {

    @Test
    @Timeout(60)
    void everyLiveInstanceGetsEachInvalidationAndNothingIsStored() {
        SampleRun.of(new CacheInvalidation())
                .assertPassed(
                        "every running instance dropped each entry",
                        "cache-2 received exactly what was sent while it ran",
                        "cache-4 received exactly what was sent while it ran",
                        "nothing is stored",
                        "nothing waits in the queue");
    }
}
