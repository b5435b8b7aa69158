package org.partita.broker.it.cluster;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.partita.broker.it.keys.RollbackKeyOrderTest;

import java.nio.file.Path;

/**
 * Rollbacks and recovers on a queue spread over two nodes: the consumer, on node1, owns node2's
 * partitions too, through its feed. Every message handed back once, every key still in order.
 */
@Tag("slow")
@Timeout(120)
class ClusterRollbackKeyOrderTest {
    @TempDir
    Path tmp;

    @ParameterizedTest(name = "transacted: {0}")
    @ValueSource(booleans = {true, false})
    void messagesHandedBackOnBothNodesKeepTheirKeysOrder(boolean transacted) throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 2).startAll()) {
            RollbackKeyOrderTest.handBackEachOnce(c.factory(1), c.factory(0), "spread?partitions=4&hosts=*", transacted);
        }
    }
}
