package org.partita.broker.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Every memory default is a share of the heap (and of direct memory), with its floor and ceilings (docs/reliability.md). */
class HeapBudgetsTest {
    private static final long MIB = 1L << 20;

    private static HeapBudgets heap(long heapMib) {
        return new HeapBudgets(new JvmMemory(heapMib * MIB, heapMib * MIB, MIB));
    }

    @Test
    void at128MiBEachBudgetIsItsShare() {
        HeapBudgets b = heap(128);
        assertEquals(16 * MIB, b.frameBytes(), "an eighth: the protocol's 16 MiB");
        assertEquals(4 * MIB, b.messageBytes(), "a thirty-second");
        assertEquals(8 * MIB, b.inFlightBytes());
        assertEquals(8 * MIB, b.nonPersistentBytes());
        assertEquals(4 * MIB, b.transactionBytes());
        assertEquals(8 * MIB, b.openTransactionBytes());
        assertEquals(8 * MIB, b.writeBufferBytes());
        assertEquals(8 * MIB, b.residentBytes());
        assertEquals(8 * MIB, b.journalBytes());
        assertEquals(4 * MIB, b.checkpointTransactionBytes());
        assertEquals(48 * MIB, b.nodeWideBytes(), "three eighths");
    }

    @Test
    void theSharesGrowWithTheHeapUpToTheirCeilings() {
        HeapBudgets b256 = heap(256);
        assertEquals(8 * MIB, b256.messageBytes());
        assertEquals(16 * MIB, b256.inFlightBytes());
        assertEquals(16 * MIB, b256.journalBytes());
        HeapBudgets b512 = heap(512);
        assertEquals(16 * MIB, b512.messageBytes(), "a thirty-second is the protocol's frame");
        assertEquals(32 * MIB, b512.journalBytes());
        HeapBudgets b2g = heap(2048);
        assertEquals(16 * MIB, b2g.frameBytes(), "never past the protocol's 16 MiB");
        assertEquals(16 * MIB, b2g.messageBytes(), "never past a frame");
        assertEquals(32 * MIB, b2g.journalBytes(), "the journal stays at the size the store was tuned with");
        assertEquals(128 * MIB, b2g.inFlightBytes());
        assertEquals(128 * MIB, b2g.residentBytes());
        assertEquals(64 * MIB, b2g.checkpointTransactionBytes());
    }

    @Test
    void eachStoreOfAReplicaNodeTakesASixtyFourthForItsCacheAndASetsJournalAsMuch() {
        HeapBudgets b256 = heap(256);
        assertEquals(4 * MIB, b256.storeCacheBytes(), "not H2's 16 MiB in each of four stores");
        assertEquals(4 * MIB, b256.replicaJournalBytes(), "a quarter of the node's own journal");
        HeapBudgets b1g = heap(1024);
        assertEquals(16 * MIB, b1g.storeCacheBytes(), "H2's own default from 1 GiB on");
        assertEquals(16 * MIB, b1g.replicaJournalBytes());
        HeapBudgets b4g = heap(4096);
        assertEquals(16 * MIB, b4g.storeCacheBytes(), "never past H2's default");
        assertEquals(32 * MIB, b4g.replicaJournalBytes(), "never past the node's own journal's ceiling");
    }

    @Test
    void connectionsFollowTheHeapWithinTheOpenFileLimit() {
        long manyFiles = 1 << 20;
        assertEquals(1024, heap(8).connections(manyFiles), "a small heap keeps the floor");
        assertEquals(4096, heap(256).connections(manyFiles), "one per 64 KiB");
        assertEquals(16384, heap(1024).connections(manyFiles));
        assertEquals(20_000 - 256, heap(4096).connections(20_000), "the sockets the open-file limit leaves");
        assertEquals(64, heap(1024).connections(100), "a very low open-file limit: a few connections still");
        assertEquals(16384, heap(1024).connections(0), "an unknown open-file limit: the heap alone");
    }

    @Test
    void aTinyHeapGetsTheFloors() {
        HeapBudgets b = heap(8);
        assertEquals(MIB, b.frameBytes());
        assertEquals(MIB, b.messageBytes());
        assertEquals(MIB, b.inFlightBytes());
        assertEquals(MIB, b.residentBytes());
        assertEquals(MIB, b.checkpointTransactionBytes());
    }

    @Test
    void lessDirectMemoryThanHeapShrinksWhatNettyHolds() {
        HeapBudgets b = new HeapBudgets(new JvmMemory(1024 * MIB, 64 * MIB, MIB));
        assertEquals(4 * MIB, b.inFlightBytes(), "a sixteenth of the direct memory");
        assertEquals(4 * MIB, b.writeBufferBytes());
        assertEquals(8 * MIB, b.frameBytes());
        assertEquals(2 * MIB, b.messageBytes());
        assertEquals(64 * MIB, b.residentBytes(), "held in the heap alone: a sixteenth of the heap");
    }

    @Test
    void theDefaultsLeaveRoomUnderTheNodeWideShare() {
        for (long mib : new long[] {64, 128, 256, 512, 2048, 8192}) {
            HeapBudgets b = heap(mib);
            long together = b.inFlightBytes()
                    + b.nonPersistentBytes()
                    + b.openTransactionBytes()
                    + b.residentBytes()
                    + b.journalBytes();
            assertTrue(together <= b.nodeWideBytes(), mib + " MiB: " + together + " > " + b.nodeWideBytes());
            assertTrue(
                    b.transactionBytes() >= b.messageBytes() && b.openTransactionBytes() >= b.transactionBytes(),
                    mib + " MiB: a message fits in a transaction, a transaction in the open transactions' budget");
        }
    }

    @Test
    void theLimitsAndSettingsDefaultToTheseShares() {
        HeapBudgets b = heap(256);
        FlowLimits l = FlowLimits.defaults(b);
        assertEquals(b.inFlightBytes(), l.inFlightBytes());
        assertEquals(b.nonPersistentBytes(), l.nonPersistentBytes());
        assertEquals(b.transactionBytes(), l.transactionBytes());
        assertEquals(b.openTransactionBytes(), l.openTransactionBytes());
        assertEquals(b.writeBufferBytes(), l.writeBufferBytes());
        assertEquals(b.messageBytes(), l.messageBytes());
        HeapBudgets here = HeapBudgets.current();
        assertEquals(here.residentBytes(), NodeConfig.defaults().residentBytes());
        assertEquals(here.frameBytes(), NodeConfig.defaults().maxFrameSize());
        assertEquals(here.journalBytes(), StorageSettings.defaults().journalBytes());
        assertEquals(
                here.checkpointTransactionBytes(), StorageSettings.defaults().checkpointTransactionBytes());
    }
}
