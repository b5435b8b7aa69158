package org.partita.broker.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.partita.broker.store.replica.ReplicaSetFigures;

class ReplicaLagGatherTest {
    @Test
    void aLeaderAnswersForTheSetsItLeadsOnly() {
        Map<String, Long> lag = new LinkedHashMap<>();
        lag.put("node2", 1042L);
        lag.put("node1", 0L);
        String answer = ReplicaLagGather.format(List.of(
                new ReplicaSetFigures("node2+node3+node1", true, "node3", 2, lag, 0),
                new ReplicaSetFigures("node1+node2+node3", false, "node1", 1, Map.of(), 0)));
        assertEquals("node2+node3+node1=node2:1042,node1:0\n", answer);
        assertEquals(Map.of("node2+node3+node1", Map.of("node2", 1042L, "node1", 0L)), ReplicaLagGather.parse(answer));
    }

    @Test
    void whatIsNotALagFigureIsSkipped() {
        assertEquals(Map.of("a+b+c", Map.of("b", 3L)), ReplicaLagGather.parse("nonsense\na+b+c=b:3,c:many,:4\n=x:1\n"));
        assertEquals(Map.of(), ReplicaLagGather.parse(""));
    }
}
