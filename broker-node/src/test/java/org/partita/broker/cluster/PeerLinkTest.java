package org.partita.broker.cluster;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.partita.broker.config.ClusterConfig;

/**
 * A node link before any node answers it: what comes back over it goes to the consumer it is for,
 * and a link that cannot reach its node stays down, carries nothing and says why.
 */
class PeerLinkTest {
    private final List<String> events = new CopyOnWriteArrayList<>();
    private PeerLink link;

    @AfterEach
    void close() {
        if (link != null) {
            link.close();
        }
    }

    /**
     * A link from n1 to n2, which is expected at {@code port}; the ports below it are the cluster's
     * others, valid for the config but never dialled here.
     */
    private PeerLink linkTo(int port) {
        ClusterConfig.Member n2 = new ClusterConfig.Member("n2", "127.0.0.1", port);
        ClusterConfig cluster = new ClusterConfig(
                "test", List.of(new ClusterConfig.Member("n1", "127.0.0.1", port - 1), n2), -1000, 50, 500, "");
        link = new PeerLink(cluster, n2, "n1", 1 << 20, null, new PeerLink.Events() {
            @Override
            public void linkUp(PeerLink l) {
                events.add("up " + l.peer());
            }

            @Override
            public void linkDown(PeerLink l) {
                events.add("down " + l.peer());
            }
        });
        return link;
    }

    @Test
    void deliveriesAndPartitionChangesGoToTheReceiverOfTheirConsumer() {
        PeerLink l = linkTo(20_000);
        Heard c2 = new Heard();
        Heard c4 = new Heard();
        l.register(2, c2);
        l.register(4, c4);

        l.onDelivery(2, 7, 1, 3, new byte[] {42});
        l.onPartitions(4, new int[] {0, 3});

        assertEquals(List.of("delivered 7 count=1 partition=3"), c2.heard);
        assertEquals(List.of("partitions [0, 3]"), c4.heard);
    }

    @Test
    void aReceiverUnregisteredHearsNothingMore() {
        PeerLink l = linkTo(20_000);
        Heard c2 = new Heard();
        l.register(2, c2);

        l.unregister(2);
        l.onDelivery(2, 7, 0, 0, new byte[0]);
        l.onPartitions(2, new int[] {1});

        assertEquals(List.of(), c2.heard);
    }

    /** Ids name both sessions and consumers a link's parts open there: one id twice would mix their deliveries. */
    @Test
    void eachIdALinkGivesIsNew() {
        PeerLink l = linkTo(20_000);

        assertNotEquals(l.nextId(), l.nextId());
    }

    @Test
    void aLinkToANodeNobodyAnswersForStaysDownCarriesNothingAndSaysWhy() throws IOException {
        PeerLink l = linkTo(portNobodyListensOn());

        l.start();

        await().atMost(Duration.ofSeconds(10)).until(() -> l.lastFailure() != null);
        assertTrue(l.lastFailure().contains("cannot connect to tcp://127.0.0.1:"), l.lastFailure());
        assertFalse(l.isUp());
        assertNull(l.connection());
        assertNull(l.feedConnection(), "feed parts open nothing over it");
        assertNull(l.forward("orders", 0, new byte[] {1}), "a forward waits in its log");
        assertEquals(List.of(), events, "neither up nor down: it never was up");
    }

    private static int portNobodyListensOn() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** What a receiver heard, one line each. */
    private static final class Heard implements PeerLink.Receiver {
        final List<String> heard = new CopyOnWriteArrayList<>();

        @Override
        public void delivered(long deliveryId, int deliveryCount, int partition, byte[] message) {
            heard.add("delivered " + deliveryId + " count=" + deliveryCount + " partition=" + partition);
        }

        @Override
        public void partitions(int[] owned) {
            heard.add("partitions " + Arrays.toString(owned));
        }
    }
}
