package org.partita.broker.security;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LoginDelaysTest {
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final LoginDelays delays = new LoginDelays(100, 1_000, 60_000, now::get);

    private void advance(long millis) {
        now.addAndGet(millis * 1_000_000L);
    }

    @Test
    void eachFailureDoublesTheDelayUpToTheCap() {
        assertEquals(0, delays.waitMillis("10.0.0.9", "alice"));
        assertEquals(100, delays.failed("10.0.0.9", "alice"));
        assertEquals(200, delays.failed("10.0.0.9", "alice"));
        assertEquals(400, delays.failed("10.0.0.9", "alice"));
        assertEquals(800, delays.failed("10.0.0.9", "alice"));
        assertEquals(1_000, delays.failed("10.0.0.9", "alice"));
        assertEquals(1_000, delays.failed("10.0.0.9", "alice"));
    }

    @Test
    void theNextAttemptOfTheSameAddressAndUserWaits() {
        delays.failed("10.0.0.9", "alice");
        delays.failed("10.0.0.9", "alice");
        assertEquals(200, delays.waitMillis("10.0.0.9", "alice"));
        advance(150);
        assertEquals(50, delays.waitMillis("10.0.0.9", "alice"));
        advance(50);
        assertEquals(0, delays.waitMillis("10.0.0.9", "alice"));
        assertEquals(0, delays.waitMillis("10.0.0.10", "alice"), "another address is not slowed");
        assertEquals(0, delays.waitMillis("10.0.0.9", "bob"), "another user is not slowed");
    }

    @Test
    void successAndTimeForgetFailures() {
        delays.failed("a", "alice");
        delays.failed("a", "alice");
        delays.succeeded("a", "alice");
        assertEquals(100, delays.failed("a", "alice"), "a success starts over");
        delays.failed("b", null);
        advance(60_001);
        assertEquals(0, delays.waitMillis("b", null));
        assertEquals(100, delays.failed("b", null), "failures older than forgetAfter are forgotten");
    }
}
