package org.partita.broker.core.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.partita.broker.core.partition.PartitionFigures;

/** The per-partition counters and the delivery rate over the last minute, on a clock the test drives. */
class QueueCountersTest {

    @Test
    void countsArePerPartitionAndAnEntryWithoutOneCountsInPartitionZero() {
        QueueCounters c = new QueueCounters(0);
        c.enqueued(-1);
        c.enqueued(2);
        c.delivered(2, false, 1_000);
        c.delivered(2, true, 1_000);
        c.acknowledged(2);
        c.deadLettered(2);
        c.expired(0);
        c.handedOff(2);
        assertEquals(new PartitionFigures.Counts(1, 0, 0, 0, 0, 1, 0, 0.0), c.read(0, 2_000));
        PartitionFigures.Counts two = c.read(2, 2_000);
        assertEquals(1, two.enqueued());
        assertEquals(2, two.delivered());
        assertEquals(1, two.redelivered());
        assertEquals(1, two.acknowledged());
        assertEquals(1, two.deadLettered());
        assertEquals(1, two.handoffs());
        assertEquals(
                new PartitionFigures.Counts(0, 0, 0, 0, 0, 0, 0, 0.0), c.read(7, 2_000), "a partition never touched");
    }

    @Test
    void theRateCoversTheLastMinuteOrTheQueuesLifeIfShorter() {
        QueueCounters c = new QueueCounters(0);
        for (int i = 0; i < 30; i++) {
            c.delivered(0, false, 5_000);
        }
        assertEquals(3.0, c.read(0, 10_000).ratePerSecond(), 1e-9, "30 in the queue's first 10 seconds");
        assertEquals(0.5, c.read(0, 60_000).ratePerSecond(), 1e-9, "30 in the last minute");
        assertEquals(0.0, c.read(0, 70_000).ratePerSecond(), 1e-9, "all older than a minute");
        assertEquals(30, c.read(0, 70_000).delivered(), "the count itself stays");
        c.delivered(0, false, 125_000);
        assertEquals(1 / 60.0, c.read(0, 125_500).ratePerSecond(), 1e-9);
    }

    @Test
    void aYoungQueueIsMeasuredOverAtLeastOneSecond() {
        QueueCounters c = new QueueCounters(1_000);
        c.delivered(0, false, 1_100);
        c.delivered(0, false, 1_100);
        assertEquals(2.0, c.read(0, 1_200).ratePerSecond(), 1e-9);
    }
}
