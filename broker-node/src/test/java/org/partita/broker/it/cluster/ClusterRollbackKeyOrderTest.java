package org.partita.broker.it.cluster;

import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.partita.broker.it.keys.ConsumerChurnKeyOrderTest;
import org.partita.broker.it.keys.ListenerFailureKeyOrderTest;
import org.partita.broker.it.keys.RollbackKeyOrderTest;

/**
 * Rollbacks and recovers on a queue spread over two nodes, where a consumer on one node owns the
 * other's partitions through its feed: every key still in order.
 */
@Tag("slow")
@Timeout(120)
class ClusterRollbackKeyOrderTest {
    @TempDir
    Path tmp;

    /** One consumer, on node1; every message handed back once. */
    @ParameterizedTest(name = "transacted: {0}")
    @ValueSource(booleans = {true, false})
    void messagesHandedBackOnBothNodesKeepTheirKeysOrder(boolean transacted) throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 2).startAll()) {
            RollbackKeyOrderTest.handBackEachOnce(
                    c.factory(1), c.factory(0), "spread?partitions=4&hosts=*", transacted);
        }
    }

    /** Three consumers on the two nodes closing and reopening, every third batch handed back. */
    @ParameterizedTest(name = "transacted: {0}")
    @ValueSource(booleans = {true, false})
    void consumersComingAndGoingOnBothNodesKeepTheKeysOrder(boolean transacted) throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 2).startAll()) {
            ConsumerChurnKeyOrderTest.churn(
                    i -> c.factory(i % 2), c.factory(1), "churn?partitions=6&hosts=*", transacted);
        }
    }

    /** A listener on node1 that throws now and then: its message comes back ahead of its key's later ones, from either node. */
    @org.junit.jupiter.api.Test
    void aThrowingListenerKeepsTheKeysOrderOnBothNodes() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 2).startAll()) {
            ListenerFailureKeyOrderTest.listenerFailsOnceInFive(
                    c.factory(1), c.factory(0), "failing?partitions=4&hosts=*");
        }
    }
}
