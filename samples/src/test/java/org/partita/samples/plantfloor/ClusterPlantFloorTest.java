package org.partita.samples.plantfloor;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.samples.support.SampleRun;

@Tag("slow")
class ClusterPlantFloorTest {

    /** The default run: three nodes in this process, 120 machines, 2 then 8 instances across the nodes. */
    @Test
    @Timeout(240)
    void theDowntimeServiceScalesAcrossThreeNodesAndEveryMachineStaysInOrder() {
        SampleRun run = SampleRun.of(new ClusterPlantFloor())
                .assertPassed(
                        "the night instances shared every partition of the cluster",
                        "after the shift change the partitions were spread evenly over every instance",
                        "every instance, on every node, applied changes",
                        "every change was applied exactly once",
                        "no machine's changes were applied out of order");
        assertTrue(run.output().contains("instance-8@node2"), run.output());
    }
}
