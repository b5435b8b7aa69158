package org.partita.broker.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PartitionFiguresGatherTest {

    @Test
    void readsEachPartitionOfAHostsAnswerAndNamesTheNodeOfItsOwner() {
        String reply = """
                partition.0.depth=3
                partition.0.inFlight=1
                partition.0.owner=consumer 4 of /127.0.0.1:50123
                partition.0.state=ASSIGNED
                partition.1.depth=7
                partition.1.inFlight=0
                partition.1.owner=consumer 2 of node node3
                partition.2.depth=0
                partition.2.inFlight=0
                partition.2.owner=
                """;

        Map<Integer, ClusterStatus.Partition> figures = PartitionFiguresGather.fromReply(reply, "node2");

        assertEquals(new ClusterStatus.Partition(3, 1, "consumer 4 of /127.0.0.1:50123", "node2"), figures.get(0));
        assertEquals(new ClusterStatus.Partition(7, 0, "consumer 2 of node node3", "node3"), figures.get(1));
        assertNull(figures.get(2).owner());
        assertNull(figures.get(2).ownerNode());
    }
}
