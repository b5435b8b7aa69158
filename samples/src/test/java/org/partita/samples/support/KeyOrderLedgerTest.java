package org.partita.samples.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class KeyOrderLedgerTest {
    private final KeyOrderLedger ledger = new KeyOrderLedger();

    @Test
    void changesInOrderPerKeyHold() {
        ledger.apply("m-001", 1, false);
        ledger.apply("m-002", 1, false);
        ledger.apply("m-001", 2, false);
        assertEquals(0, ledger.faults());
        assertTrue(ledger.holdsExactly(Map.of("m-001", 2, "m-002", 1)));
    }

    @Test
    void aLaterChangeBeforeAnEarlierOneIsAFault() {
        ledger.apply("m-001", 1, false);
        assertEquals(KeyOrderLedger.Applied.OUT_OF_ORDER, ledger.apply("m-001", 3, false));
        ledger.apply("m-001", 2, false);
        assertEquals(2, ledger.faults());
        assertTrue(ledger.faultSummary().contains("m-001 change 3 applied after change 1"), ledger.faultSummary());
    }

    @Test
    void aRedeliveredDuplicateIsIgnoredAndAnUnflaggedOneIsAFault() {
        ledger.apply("m-001", 1, false);
        assertEquals(KeyOrderLedger.Applied.DUPLICATE_IGNORED, ledger.apply("m-001", 1, true));
        assertEquals(0, ledger.faults());
        assertEquals(KeyOrderLedger.Applied.UNFLAGGED_DUPLICATE, ledger.apply("m-001", 1, false));
        assertEquals(1, ledger.faults());
        assertEquals(1, ledger.applied());
    }

    @Test
    void aMissingChangeOrAnUnexpectedKeyIsNotExactlyWhatWasSent() {
        ledger.apply("m-001", 1, false);
        assertFalse(ledger.holdsExactly(Map.of("m-001", 2)));
        assertFalse(ledger.holdsExactly(Map.of("m-002", 1)));
    }
}
