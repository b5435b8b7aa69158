package org.partita.broker.network.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class PrefetchLedgerTest {
    private final PrefetchLedger ledger = new PrefetchLedger();

    @Test
    void creditGivenBackIsMatchedWithTheOldestDeliveriesAndTheirSources() {
        RemoteFeed.Handle there = new FakeHandle();
        ledger.add(PrefetchLedger.LOCAL, 100);
        ledger.add(there, 5_000);
        ledger.add(PrefetchLedger.LOCAL, 30);
        ledger.add(PrefetchLedger.LOCAL, 7);

        PrefetchLedger.Returned first = ledger.take(3);
        assertEquals(2, first.localMessages());
        assertEquals(130, first.localBytes());
        assertEquals(List.of(there), first.remote());
        assertEquals(0, first.beyond());
        assertEquals(1, ledger.size());

        PrefetchLedger.Returned rest = ledger.take(5);
        assertEquals(1, rest.localMessages());
        assertEquals(7, rest.localBytes());
        assertEquals(List.of(), rest.remote());
        assertEquals(4, rest.beyond(), "credit past what was sent is room granted afresh");
    }

    @Test
    void itKeepsTheOrderAcrossGrowingAndWrappingAround() {
        long expected = 0;
        for (int i = 0; i < 10; i++) {
            ledger.add(PrefetchLedger.LOCAL, i);
        }
        assertEquals(0 + 1 + 2 + 3 + 4 + 5, ledger.take(6).localBytes());
        for (int i = 10; i < 60; i++) { // past its first capacity, wrapped
            ledger.add(PrefetchLedger.LOCAL, i);
        }
        for (int i = 6; i < 60; i++) {
            expected += i;
        }
        PrefetchLedger.Returned all = ledger.take(54);
        assertEquals(54, all.localMessages());
        assertEquals(expected, all.localBytes());
        assertEquals(0, ledger.size());
    }

    @Test
    void aDrainForgetsWhatWasSentBeforeIt() {
        ledger.add(PrefetchLedger.LOCAL, 100);
        ledger.add(PrefetchLedger.LOCAL, 100);
        ledger.clear();
        PrefetchLedger.Returned r = ledger.take(500);
        assertEquals(0, r.localMessages());
        assertEquals(500, r.beyond());
    }

    private static final class FakeHandle implements RemoteFeed.Handle {
        @Override
        public CompletableFuture<Void> ack() {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void release(boolean seen) {}

        @Override
        public RemoteFeed feed() {
            return null;
        }
    }
}
