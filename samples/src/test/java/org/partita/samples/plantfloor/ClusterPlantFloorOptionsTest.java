package org.partita.samples.plantfloor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.samples.support.SampleRun;

/** The cluster sample's options, refused before any node starts. */
class ClusterPlantFloorOptionsTest {

    /** --url, which every sample has, names one node: the cluster sample says so instead of ignoring it. */
    @Test
    @Timeout(30)
    void urlIsRefusedWithWhatToGiveInstead() {
        SampleRun run = SampleRun.of(new ClusterPlantFloor(), "--url", "tcp://127.0.0.1:61700");
        assertEquals(2, run.exitCode(), run.output());
        assertTrue(
                run.output()
                        .contains("--url names one node, and cluster-plant-floor uses several: give a running"
                                + " cluster's nodes with --urls"),
                run.output());
        assertNull(run.sample().verdict(), "nothing ran");
    }

    @Test
    @Timeout(30)
    void aSingleUrlInUrlsIsRefused() {
        SampleRun run = SampleRun.of(new ClusterPlantFloor(), "--urls", "tcp://127.0.0.1:61700");
        assertEquals(2, run.exitCode(), run.output());
        assertTrue(run.output().contains("at least two --urls"), run.output());
    }
}
