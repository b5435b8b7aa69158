package org.partita.samples.requestreply;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.samples.support.SampleRun;

@Tag("slow")
class PriceQuotesTest {

    @Test
    @Timeout(60)
    void everyRequestGetsItsReplyThroughATemporaryQueue() {
        SampleRun.of(new PriceQuotes())
                .assertPassed(
                        "every request got exactly one reply",
                        "the correlation id matched each reply to its request",
                        "the temporary reply queue went away");
    }
}
