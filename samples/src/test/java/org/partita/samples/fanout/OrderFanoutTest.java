package org.partita.samples.fanout;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.samples.support.SampleRun;

@Tag("slow")
class OrderFanoutTest {

    @Test
    @Timeout(60)
    void billingAuditAndShippingEachReceiveEveryOrder() {
        SampleRun.of(new OrderFanout())
                .assertPassed(
                        "billing received every order once, in the order sent",
                        "audit received every order once, in the order sent",
                        "shipping received every order once, in the order sent",
                        "orders waited for shipping until it started",
                        "each order was stored once, with one entry per AppId",
                        "nothing is left");
    }
}
