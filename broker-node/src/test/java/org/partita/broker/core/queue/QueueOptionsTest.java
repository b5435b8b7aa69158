package org.partita.broker.core.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class QueueOptionsTest {

    @Test
    void parsedOptionsOverrideTheBaseAndKeepTheRest() {
        QueueOptions o = QueueOptions.parse("partitions=8&maxDeliveryAttempts=5", QueueOptions.DEFAULTS);
        assertEquals(8, o.partitions());
        assertEquals(5, o.maxDeliveryAttempts());
        assertEquals("DLQ", o.deadLetterQueue());
        assertEquals(QueueOptions.PRIORITY, o.mode());
    }

    @Test
    void badValuesAreRefusedNamingTheOption() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> QueueOptions.parse("partitions=0", QueueOptions.DEFAULTS));
        assertTrue(e.getMessage().contains("partitions") && e.getMessage().contains("'0'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> QueueOptions.parse("mode=round", QueueOptions.DEFAULTS));
        assertTrue(e.getMessage().contains("mode"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> QueueOptions.parse("colour=red", QueueOptions.DEFAULTS));
        assertTrue(e.getMessage().contains("colour"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> QueueOptions.parse("partitions", QueueOptions.DEFAULTS));
    }

    @Test
    void formatRoundTrips() {
        QueueOptions o = QueueOptions.parse("partitions=4&mode=fanout&appIds=a,b", QueueOptions.DEFAULTS);
        assertEquals(o, QueueOptions.parse(o.format(), QueueOptions.DEFAULTS));
        assertEquals(List.of("a", "b"), o.appIds());
    }

    @Test
    void conflictsNameEachDifferingOptionWithBothValues() {
        QueueOptions existing = QueueOptions.parse("partitions=1&maxDepthMessages=10", QueueOptions.DEFAULTS);
        assertEquals(List.of("partitions (queue: '1', name: '8')"), existing.conflicts("partitions=8"));
        assertEquals(
                List.of("partitions (queue: '1', name: '8')", "maxDepthMessages (queue: '10', name: '20')"),
                existing.conflicts("partitions=8&maxDepthMessages=20&maxDeliveryAttempts=10"));
    }

    @Test
    void optionsThatAgreeAreNoConflictEvenWrittenDifferently() {
        QueueOptions existing = QueueOptions.parse("partitions=8&mode=fanout&appIds=a,b", QueueOptions.DEFAULTS);
        assertEquals(List.of(), existing.conflicts("partitions=08&appIds=b, a&mode=fanout"));
        assertEquals(List.of(), existing.conflicts(""));
        assertEquals(List.of(), QueueOptions.DEFAULTS.conflicts("lastValue=&expiryQueue="));
        assertEquals(
                List.of("lastValue (queue: '', name: 'machine')"),
                QueueOptions.DEFAULTS.conflicts("lastValue=machine"));
    }

    @Test
    void redeliveryOptionsHaveDefaultsAndAreKeptNormalized() {
        assertEquals("0", QueueOptions.DEFAULTS.asMap().get("redeliveryDelay"));
        assertEquals("1.0", QueueOptions.DEFAULTS.asMap().get("redeliveryMultiplier"));
        QueueOptions o = QueueOptions.parse(
                "redeliveryDelay=0500&redeliveryMultiplier=2&maxRedeliveryDelay=60000", QueueOptions.DEFAULTS);
        assertEquals("500", o.asMap().get("redeliveryDelay"));
        assertEquals("2.0", o.asMap().get("redeliveryMultiplier"));
        assertEquals(new RedeliveryDelay(500, 2.0, 60_000), o.redeliveryDelay());
        assertEquals(o, QueueOptions.parse(o.format(), QueueOptions.DEFAULTS));
        assertEquals(List.of(), o.conflicts("redeliveryMultiplier=2.0&redeliveryDelay=500"));
        assertEquals(
                new RedeliveryDelay(500, 2.0, 5_000),
                o.with("maxRedeliveryDelay", "").redeliveryDelay(),
                "an empty maximum is the default again: ten times the delay");
        assertTrue(QueueOptions.names().contains("redeliveryDelay, redeliveryMultiplier, maxRedeliveryDelay"));
    }

    @Test
    void aConflictCheckStillRefusesBadValues() {
        assertThrows(IllegalArgumentException.class, () -> QueueOptions.DEFAULTS.conflicts("partitions=many"));
    }
}
