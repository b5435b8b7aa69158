package org.partita.broker.core.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** How long a message handed back waits, from the queue options that set it. */
class RedeliveryDelayTest {

    private static RedeliveryDelay of(String options) {
        return QueueOptions.parse(options, QueueOptions.DEFAULTS).redeliveryDelay();
    }

    @Test
    void byDefaultAMessageComesBackAtOnce() {
        RedeliveryDelay none = QueueOptions.DEFAULTS.redeliveryDelay();
        for (int deliveries = 1; deliveries <= 20; deliveries++) {
            assertEquals(0, none.afterDeliveries(deliveries));
        }
    }

    @Test
    void theDelayGrowsByTheMultiplierAfterEachDelivery() {
        RedeliveryDelay d = of("redeliveryDelay=500&redeliveryMultiplier=2");
        assertEquals(500, d.afterDeliveries(1));
        assertEquals(1000, d.afterDeliveries(2));
        assertEquals(2000, d.afterDeliveries(3));
        assertEquals(4000, d.afterDeliveries(4));
    }

    @Test
    void withoutAMaximumItStopsAtTenTimesTheDelayAsInArtemis() {
        RedeliveryDelay d = of("redeliveryDelay=500&redeliveryMultiplier=2");
        assertEquals(5000, d.afterDeliveries(5), "500 * 2^4 = 8000, capped at 10 * 500");
        assertEquals(5000, d.afterDeliveries(1_000), "however many deliveries: no overflow");
        assertEquals(5000, d.afterDeliveries(Integer.MAX_VALUE));
    }

    @Test
    void anExplicitMaximumCapsEveryWaitEvenTheFirst() {
        assertEquals(
                1500,
                of("redeliveryDelay=500&redeliveryMultiplier=3&maxRedeliveryDelay=1500")
                        .afterDeliveries(2));
        assertEquals(100, of("redeliveryDelay=500&maxRedeliveryDelay=100").afterDeliveries(1));
        assertEquals(0, of("redeliveryDelay=500&maxRedeliveryDelay=0").afterDeliveries(1));
        assertEquals(
                60_000,
                of("redeliveryDelay=1000&redeliveryMultiplier=10&maxRedeliveryDelay=60000")
                        .afterDeliveries(4));
    }

    @Test
    void aMultiplierOfOneKeepsTheDelayConstant() {
        RedeliveryDelay d = of("redeliveryDelay=250");
        assertEquals(250, d.afterDeliveries(1));
        assertEquals(250, d.afterDeliveries(9));
    }

    @Test
    void aFractionalMultiplierIsHonoured() {
        RedeliveryDelay d = of("redeliveryDelay=1000&redeliveryMultiplier=1.5");
        assertEquals(1000, d.afterDeliveries(1));
        assertEquals(1500, d.afterDeliveries(2));
        assertEquals(2250, d.afterDeliveries(3));
    }

    @Test
    void aMessageNeverDeliveredDoesNotWait() {
        assertEquals(0, of("redeliveryDelay=500").afterDeliveries(0));
    }

    @Test
    void badValuesAreRefusedNamingTheOption() {
        for (String bad : new String[] {
            "redeliveryDelay=-1",
            "redeliveryDelay=soon",
            "redeliveryMultiplier=0.5",
            "redeliveryMultiplier=NaN",
            "redeliveryMultiplier=Infinity",
            "redeliveryMultiplier=x",
            "maxRedeliveryDelay=-5"
        }) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class, () -> QueueOptions.parse(bad, QueueOptions.DEFAULTS), bad);
            String option = bad.substring(0, bad.indexOf('='));
            assertTrue(e.getMessage().contains("queue option " + option), e.getMessage());
        }
    }
}
