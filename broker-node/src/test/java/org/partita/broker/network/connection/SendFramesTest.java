package org.partita.broker.network.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.FlowLimits;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;
import org.partita.protocol.FrameType;

/** SEND within the node's limits, and FORWARD, which only other nodes may use. */
class SendFramesTest {
    private static final String FULL = "queue:small?maxDepthMessages=1";

    @TempDir
    Path dir;

    @Test
    void aPersistentSendIsAnsweredOnceStoredAndSurvivesARestart() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            int session = client.session(false);
            client.write(new Frame.Send(5, session, client.message("queue:orders", "one", true)));
            client.ok(5);

            node.restart();

            assertEquals(List.of("one"), node.login().browse("queue:orders"));
        }
    }

    @Test
    void aSendToAFullQueueIsRefusedWithResourceExhausted() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            int session = client.session(false);
            client.send(session, FULL, "first");
            client.write(new Frame.Send(6, session, client.message(FULL, "second", true)));

            client.error(6, ErrorCode.RESOURCE_EXHAUSTED);
            assertEquals(List.of("first"), client.browse("queue:small"));
        }
    }

    @Test
    void aRefusedSendThatAskedForNoAnswerIsToldWithRequestFailed() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            int session = client.session(false);
            client.send(session, FULL, "first");
            client.write(new Frame.Send(0, session, client.message(FULL, "second", false)));

            Frame.RequestFailed failed = client.next(Frame.RequestFailed.class);
            assertEquals(FrameType.SEND.code(), failed.requestType());
            assertEquals(ErrorCode.RESOURCE_EXHAUSTED, failed.code());
            client.ping();
        }
    }

    @Test
    void aMessageOverTheNodesMessageLimitIsRefusedBeforeItsCreditComesBackAndTheConnectionStaysOpen() {
        try (ConnectionFixture node =
                new ConnectionFixture(dir, FlowLimits.defaults().withMessageBytes(1_000))) {
            TestClient client = node.login();
            int session = client.session(false);
            byte[] large = client.message("queue:orders", "x".repeat(2_000), true);
            client.write(new Frame.Send(6, session, large));

            Frame answer = client.nextFrame();
            while (answer instanceof Frame.SendCredit) {
                answer = client.nextFrame(); // the window granted at the handshake
            }
            assertEquals(
                    new Frame.Error(
                            6,
                            ErrorCode.RESOURCE_EXHAUSTED,
                            "message of " + large.length
                                    + " bytes is larger than the 1000 bytes this node takes (limits.messageBytes, a share of its heap);"
                                    + " the message was not taken"),
                    answer);
            assertEquals(new Frame.SendCredit(large.length), client.nextFrame());
            client.ping();
            assertEquals(List.of(), client.browse("queue:orders"));
        }
    }

    @Test
    void aDestinationNameThatDoesNotParseIsAnInvalidRequest() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            int session = client.session(false);
            client.write(new Frame.Send(6, session, client.message("nowhere:orders", "x", true)));

            client.error(6, ErrorCode.INVALID_REQUEST);
        }
    }

    @Test
    void aMessageThatDoesNotDecodeClosesTheConnection() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            int session = client.session(false);
            client.write(new Frame.Send(6, session, new byte[] {9, 9, 9}));

            client.error(0, ErrorCode.MALFORMED_FRAME);
            assertFalse(client.isOpen());
        }
    }

    @Test
    void onlyTheNodesOfTheClusterForward() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            client.write(new Frame.Forward(6, "orders", 0, client.message("queue:orders", "x", true)));

            assertEquals("only the nodes of the cluster forward messages", client.error(6, ErrorCode.INVALID_REQUEST));
            assertTrue(client.isOpen());
        }
    }
}
