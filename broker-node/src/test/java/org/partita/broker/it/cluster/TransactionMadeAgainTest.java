package org.partita.broker.it.cluster;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.core.queue.BrokerQueue;
import org.partita.jms.transport.BrokerError;
import org.partita.jms.transport.NettyBrokerConnection;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.ProviderProperties;

/**
 * A client whose commit's node was lost before it answered makes the transaction again on the next
 * node, its sends marked {@link ProviderProperties#SENT_AGAIN}: the lost node may have committed it. A
 * queue with replicas keeps one copy of each message the lost commit stored and stores the rest; a
 * queue of one node cannot tell, and the commit fails in doubt with nothing stored.
 */
@Tag("slow")
@Timeout(240)
class TransactionMadeAgainTest {
    private static final String QUEUE = "ledger";
    private static final String SOLO = "solo";

    @TempDir
    Path tmp;

    @Test
    void aCommitMadeAgainThroughEveryOtherNodeKeepsOneCopyOfEachMessage() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3).startAll()) {
            SentAgainFixture.replicatedAndLed(c, QUEUE, 3, 3);
            byte[] keyed = SentAgainFixture.message(QUEUE, "ID:tx-keyed", "k1");
            byte[] unkeyed = SentAgainFixture.message(QUEUE, "ID:tx-unkeyed", null);
            byte[] later = SentAgainFixture.message(QUEUE, "ID:tx-never-committed", "k2");
            // the first commit, through node1, once every set takes sends
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .ignoreExceptions()
                    .untilAsserted(() -> commitThrough(c, 0, List.of(keyed, unkeyed)));
            // the same transaction made again, marked, through each other node, with a message the
            // first commit did not have (its node "lost" before the client's last send reached it)
            List<byte[]> again = List.of(
                    SentAgainFixture.marked(keyed), SentAgainFixture.marked(unkeyed), SentAgainFixture.marked(later));
            for (int node = 1; node < 3; node++) {
                commitThrough(c, node, again);
            }

            List<String> received = SentAgainFixture.receivedOnEveryNode(c, 3, QUEUE, 3);
            assertEquals(
                    List.of("ID:tx-keyed", "ID:tx-never-committed", "ID:tx-unkeyed"),
                    received.stream().sorted().toList(),
                    "each message once: " + received);
        }
    }

    @Test
    void aCommitMadeAgainToAQueueOfOneNodeFailsInDoubtAndStoresNothing() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 3).startAll()) {
            byte[] m = SentAgainFixture.marked(SentAgainFixture.message(SOLO, "ID:tx-solo", null));
            ExecutionException failed = assertThrows(ExecutionException.class, () -> commitThrough(c, 1, List.of(m)));
            BrokerError e = assertInstanceOf(BrokerError.class, failed.getCause());
            assertEquals(ErrorCode.IN_DOUBT, e.code(), e.getMessage());
            assertTrue(e.getMessage().contains("keeps one copy on one node"), e.getMessage());
            BrokerQueue solo = c.node(1).broker().existingQueue(SOLO);
            assertEquals(0, solo == null ? 0 : solo.depth(), "nothing of the transaction stored");
            // the session goes on: its next transaction commits
            commitThrough(c, 1, List.of(SentAgainFixture.message(SOLO, "ID:tx-solo-next", null)));
            assertEquals(1, c.node(1).broker().existingQueue(SOLO).depth());
        }
    }

    /** Sends {@code messages} in a transaction of a raw connection to node {@code node} and commits it. */
    private static void commitThrough(EmbeddedCluster c, int node, List<byte[]> messages) throws Exception {
        NettyBrokerConnection link = NettyBrokerConnection.connect(
                "127.0.0.1",
                c.config().members().get(node).port(),
                c.config(node).maxFrameSize(),
                5_000);
        try {
            link.open(null, null, null).get(5, TimeUnit.SECONDS);
            link.openSession(1, true).get(5, TimeUnit.SECONDS);
            for (byte[] m : messages) {
                link.send(1, m, true).get(30, TimeUnit.SECONDS);
            }
            link.commit(1).get(30, TimeUnit.SECONDS);
        } finally {
            link.abort();
        }
    }
}
