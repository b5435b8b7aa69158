package org.partita.broker.network.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;

/** BROWSE: a queue's messages in delivery order, in chunks of about a mebibyte, the last one flagged. */
class BrowseFramesTest {
    private static final int MESSAGE_CHARS = 400 * 1024;

    @TempDir
    Path dir;

    @Test
    void aBacklogComesInChunksOfAboutAMebibyteAndOnlyTheLastIsFlagged() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            int session = client.session(false);
            for (int i = 1; i <= 5; i++) {
                client.send(session, "queue:backlog", i + "x".repeat(MESSAGE_CHARS));
            }
            client.write(new Frame.Browse(9, "queue:backlog", null));

            List<Integer> sizes = new ArrayList<>();
            List<Boolean> last = new ArrayList<>();
            List<Character> order = new ArrayList<>();
            Frame.BrowseChunk chunk;
            do {
                chunk = client.next(Frame.BrowseChunk.class);
                assertEquals(9, chunk.requestId());
                sizes.add(chunk.messages().size());
                last.add(chunk.last());
                chunk.messages().forEach(m -> order.add(TestClient.text(m).charAt(0)));
            } while (!chunk.last());

            assertEquals(List.of(2, 2, 1), sizes, "two 400 KiB messages fit in a mebibyte, three do not");
            assertEquals(List.of(false, false, true), last);
            assertEquals(List.of('1', '2', '3', '4', '5'), order);
        }
    }

    @Test
    void anEmptyQueueIsOneEmptyLastChunk() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            client.write(new Frame.Browse(9, "queue:empty", null));

            Frame.BrowseChunk chunk = client.next(Frame.BrowseChunk.class);
            assertTrue(chunk.messages().isEmpty());
            assertTrue(chunk.last());
        }
    }

    @Test
    void browsingTakesNothing() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            client.send(client.session(false), "queue:orders", "one");

            assertEquals(List.of("one"), client.browse("queue:orders"));
            assertEquals(List.of("one"), client.browse("queue:orders"));
        }
    }

    @Test
    void onlyQueuesAreBrowsedWithASelectorThatParses() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            client.write(new Frame.Browse(9, "topic:news", null));
            assertEquals("only queues can be browsed: topic:news", client.error(9, ErrorCode.INVALID_REQUEST));

            client.write(new Frame.Browse(10, "queue:orders", "colour = "));
            client.error(10, ErrorCode.INVALID_SELECTOR);
        }
    }
}
