package org.partita.broker.it.cluster;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.jms.transport.NettyBrokerConnection;

/**
 * With more nodes than replicas, each node serves one of a queue's replica sets and keeps a replica of
 * only some of the others. An unkeyed message a producer sent through one node, then sent again
 * through another after the first was lost before it answered, may reach a node that keeps no replica
 * of the set the first node placed it in: that node asks the serving leaders of the sets it does not
 * serve whether the message is there, and keeps one copy; a message none of them holds is stored.
 */
@Tag("slow")
@Timeout(240)
class SentAgainElsewhereTest {
    private static final String QUEUE = "loose";
    private static final String FAN = "spread";
    private static final String STORED_FIRST = "ID:sent-again-stored-first";
    private static final String NEVER_STORED = "ID:sent-again-never-stored";

    @TempDir
    Path tmp;

    @Test
    void anUnkeyedMessageSentAgainThroughAnyOtherNodeIsKeptOnce() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 4).startAll()) {
            SentAgainFixture.replicatedAndLed(c, QUEUE, 4, 3);
            sentAgainThroughEveryOtherNode(c, QUEUE);

            List<String> received = SentAgainFixture.receivedOnEveryNode(c, 4, QUEUE, 2);
            assertEquals(
                    List.of(NEVER_STORED, STORED_FIRST),
                    received.stream().sorted().toList(),
                    "each message once");
        }
    }

    /**
     * The same for a fan-out queue: an unkeyed message's AppId copies are kept in its partition's set,
     * each remembered by its AppId queue, and the node the message is sent again through asks for each
     * AppId queue: every AppId gets each message once.
     */
    @Test
    void anUnkeyedFanOutMessageSentAgainThroughAnyOtherNodeIsKeptOncePerAppId() throws Exception {
        try (EmbeddedCluster c = new EmbeddedCluster(tmp, 4).startAll()) {
            SentAgainFixture.replicatedAndLed(c, FAN, 4, 3, Map.of("mode", "fanout", "appIds", "billing,audit"));
            sentAgainThroughEveryOtherNode(c, FAN);

            for (String appId : List.of("billing", "audit")) {
                List<String> received = SentAgainFixture.receivedOnEveryNode(c, 4, FAN + "?appId=" + appId, 2);
                assertEquals(
                        List.of(NEVER_STORED, STORED_FIRST),
                        received.stream().sorted().toList(),
                        "each message once for AppId " + appId);
            }
        }
    }

    /**
     * {@link #STORED_FIRST} sent through node1, then again, marked, through each other node: one of them
     * keeps no replica of the set node1 placed it in (each set is three of the four nodes); and
     * {@link #NEVER_STORED}, whose first send never reached a node, sent again through node4.
     */
    private static void sentAgainThroughEveryOtherNode(EmbeddedCluster c, String queue) throws Exception {
        byte[] first = SentAgainFixture.message(queue, STORED_FIRST, null);
        // the first send, once every set has a leader (refused until then)
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptions()
                .untilAsserted(() -> sendThrough(c, 0, first));
        byte[] again = SentAgainFixture.marked(first);
        for (int node = 1; node < 4; node++) {
            sendThrough(c, node, again);
        }
        sendThrough(c, 3, SentAgainFixture.marked(SentAgainFixture.message(queue, NEVER_STORED, null)));
    }

    /** Sends {@code message} on a session of a raw connection to node {@code node}, and waits until it is stored. */
    private static void sendThrough(EmbeddedCluster c, int node, byte[] message) throws Exception {
        NettyBrokerConnection link = NettyBrokerConnection.connect(
                "127.0.0.1",
                c.config().members().get(node).port(),
                c.config(node).maxFrameSize(),
                5_000);
        try {
            link.open(null, null, null).get(5, TimeUnit.SECONDS);
            link.openSession(1, false).get(5, TimeUnit.SECONDS);
            link.send(1, message, true).get(30, TimeUnit.SECONDS);
        } finally {
            link.abort();
        }
    }
}
