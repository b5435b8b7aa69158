package org.partita.samples.plantfloor;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.samples.support.SampleRun;

@Tag("slow")
class PlantFloorTest {

    /** The default run, as the README's command starts it: 120 machines, 2 then 8 instances, default rebalance timings. */
    @Test
    @Timeout(180)
    void theDowntimeServiceScalesFromTwoToEightInstancesAndEveryMachineStaysInOrder() {
        SampleRun run = SampleRun.of(new PlantFloor())
                .assertPassed(
                        "after the shift change the partitions were spread evenly over every instance",
                        "the night instances shared the partitions evenly",
                        "every instance applied changes",
                        "every change was applied exactly once",
                        "no machine's changes were applied out of order");
        assertTrue(run.output().contains("hands off partitions"), run.output());
    }

    @Test
    @Timeout(30)
    void moreInstancesThanPartitionsIsRefusedWithExitStatusTwo() {
        SampleRun run = SampleRun.of(new PlantFloor(), "--partitions", "4", "--peak", "6");
        assertTrue(run.exitCode() == 2 && run.output().contains("--peak <= --partitions"), run.output());
    }
}
