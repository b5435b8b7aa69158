package org.partita.samples.spring;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.samples.support.SampleRun;

@Tag("slow")
class SpringOrdersTest {

    @Test
    @Timeout(120)
    void fourListenerThreadsHandleEveryOrdersEventsInOrder() {
        SampleRun.of(new SpringOrders())
                .assertPassed(
                        "every event was handled exactly once",
                        "each order's events were handled in order",
                        "all 4 listener threads handled events");
    }
}
