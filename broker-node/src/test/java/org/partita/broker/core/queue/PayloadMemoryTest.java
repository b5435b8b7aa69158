package org.partita.broker.core.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.core.BrokerFixture;
import org.partita.broker.core.BrokerSettings;
import org.partita.broker.core.ClusterHooks;

/**
 * A node with a small payload budget over a real store: stored messages beyond the budget are
 * paged out at once, the oldest stay resident, and every message still reaches its consumer and
 * browsers whole, read back from the store.
 */
class PayloadMemoryTest {
    private static final int MESSAGES = 8;
    private static final String FILLER = "x".repeat(400);

    @TempDir
    Path tmp;

    private BrokerFixture node;

    @BeforeEach
    void start() {
        // room for about two of the messages below
        node = new BrokerFixture(
                tmp.resolve("node"), ClusterHooks.STANDALONE, new BrokerSettings(true, QueueOptions.DEFAULTS, 1_000));
    }

    @AfterEach
    void stop() {
        node.close();
    }

    private PayloadMemory memory() {
        return node.broker().payloadMemory();
    }

    private List<String> sendAll(BrokerQueue q) {
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < MESSAGES; i++) {
            String body = "m" + i + FILLER;
            node.send(q, body, Map.of());
            bodies.add(body);
        }
        return bodies;
    }

    @Test
    void messagesBeyondTheBudgetArePagedOutAndStillDeliveredWhole() {
        BrokerQueue q = node.broker().queue("deep");
        List<String> bodies = sendAll(q);
        assertTrue(memory().residentBytes() <= 1_000, "resident " + memory().residentBytes() + " bytes");
        assertTrue(memory().pagedOutCount() >= MESSAGES - 2, "paged out " + memory().pagedOutCount());
        assertEquals(bodies, BrokerFixture.browse(q), "browsing reads the paged-out ones back");

        BrokerFixture.Receiver r = node.attach(q, "r", MESSAGES);
        List<String> received = new ArrayList<>();
        for (QueueEntry e : r.next(MESSAGES)) {
            received.add(BrokerFixture.text(e.message()));
            r.ack(e);
        }
        assertEquals(bodies, received);
        assertEquals(0, memory().residentBytes(), "consumed payloads leave the budget");
    }

    @Test
    void theOldestMessagesAreTheResidentOnes() {
        BrokerQueue q = node.broker().queue("deep");
        sendAll(q);
        long resident = memory().residentBytes();
        BrokerFixture.Receiver r = node.attach(q, "r", 1);
        QueueEntry first = r.next();
        assertEquals("m0" + FILLER, BrokerFixture.text(first.message()));
        r.ack(first);
        assertEquals(resident - first.size(), memory().residentBytes(), "the first, delivered first, was resident");
    }

    @Test
    void aRestartReadsPagedOutMessagesBackFromTheStore() {
        BrokerQueue q = node.broker().queue("deep");
        List<String> bodies = sendAll(q);
        node.restart(q);
        BrokerQueue back = node.broker().existingQueue("deep");
        BrokerFixture.Receiver r = node.attach(back, "r", MESSAGES);
        assertEquals(
                bodies,
                r.next(MESSAGES).stream()
                        .map(e -> BrokerFixture.text(e.message()))
                        .toList());
        assertTrue(memory().residentBytes() <= 1_000, "a restart respects the budget too: " + memory().residentBytes());
    }
}
