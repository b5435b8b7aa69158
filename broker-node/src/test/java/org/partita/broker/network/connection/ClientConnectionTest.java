package org.partita.broker.network.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.FlowLimits;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;
import org.partita.protocol.ProtocolException;

/**
 * The connection as Netty drives it: what it refuses before the handshake, how the errors of its
 * pipeline end it, which frames a client may send, and what its end frees.
 */
class ClientConnectionTest {
    @TempDir
    Path dir;

    @Test
    void theFirstFrameMustBeHello() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.connect();
            client.write(new Frame.Ping(1));

            assertEquals(
                    new Frame.Error(0, ErrorCode.ILLEGAL_STATE, "the first frame must be HELLO, not PING"),
                    client.next());
            assertFalse(client.isOpen());
        }
    }

    @Test
    void aConnectionWithoutHandshakeInTimeIsClosed() {
        FlowLimits limits = FlowLimits.defaults().withHandshake(FlowLimits.DEFAULT_HANDSHAKE_FRAME_BYTES, 2_000);
        try (ConnectionFixture node = new ConnectionFixture(dir, limits)) {
            TestClient client = node.connect();
            client.channel().advanceTimeBy(2_000, TimeUnit.MILLISECONDS);

            assertEquals(
                    new Frame.Error(0, ErrorCode.AUTHENTICATION_FAILED, "no handshake within 2000 ms"), client.next());
            assertFalse(client.isOpen());
        }
    }

    @Test
    void aConnectionPastTheNodesLimitIsRefused() {
        try (ConnectionFixture node =
                new ConnectionFixture(dir, FlowLimits.defaults().withConnections(1))) {
            node.login();
            TestClient second = node.connect();

            assertEquals(
                    new Frame.Error(0, ErrorCode.RESOURCE_EXHAUSTED, "the node has its maximum of 1 connections"),
                    second.next());
            assertFalse(second.isOpen());
        }
    }

    @Test
    void anOversizedFrameBeforeTheHandshakeClosesTheConnectionNamingTheHandshakeBound() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.connect();
            client.channel().pipeline().fireExceptionCaught(new TooLongFrameException("too long"));

            assertEquals(
                    new Frame.Error(
                            0,
                            ErrorCode.FRAME_TOO_LARGE,
                            "frame exceeds the " + FlowLimits.DEFAULT_HANDSHAKE_FRAME_BYTES
                                    + " bytes allowed before the handshake"),
                    client.next());
            assertFalse(client.isOpen());
        }
    }

    @Test
    void aMalformedFrameClosesTheConnection() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            client.channel()
                    .pipeline()
                    .fireExceptionCaught(new DecoderException(
                            new ProtocolException(ErrorCode.MALFORMED_FRAME, "unexpected trailing bytes")));

            assertEquals(new Frame.Error(0, ErrorCode.MALFORMED_FRAME, "unexpected trailing bytes"), client.next());
            assertFalse(client.isOpen());
        }
    }

    @Test
    void aFrameOnlyTheNodeSendsIsRefusedAndTheConnectionStaysOpen() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            client.write(new Frame.Ok(4));

            assertEquals("a client may not send OK", client.error(4, ErrorCode.INVALID_REQUEST));
            client.ping();
        }
    }

    @Test
    void pingIsAnsweredUnlessItsRequestIdIsZero() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            client.write(new Frame.Ping(0), new Frame.Ping(6));

            client.ok(6);
        }
    }

    @Test
    void closeIsAnsweredThenTheConnectionClosesAndItsTemporaryQueueIsGone() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            client.write(new Frame.DestinationOp(1, Frame.OP_CREATE_TEMP_QUEUE, null));
            String temporary = client.next(Frame.Created.class).name();
            assertTrue(node.broker().existingQueue(temporary) != null);

            client.write(new Frame.Close(2));

            client.ok(2);
            assertFalse(client.isOpen());
            assertNull(node.broker().existingQueue(temporary));
        }
    }

    @Test
    void theEndOfAConnectionGivesBackWhatItsSessionsHeldAsRedelivered() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient first = node.login();
            int session = first.session(false);
            first.send(session, "queue:work", "job");
            first.consumer(session, "queue:work", 1);
            assertEquals(1, first.next(Frame.Deliver.class).deliveryCount());

            first.disconnect();

            TestClient second = node.login();
            second.consumer(second.session(false), "queue:work", 1);
            Frame.Deliver again = second.next(Frame.Deliver.class);
            assertEquals("job", TestClient.text(again.message()));
            assertEquals(2, again.deliveryCount());
        }
    }

    @Test
    void theAdminListingShowsTheConnection() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.connect();
            client.hello(null, null, "listed");
            client.session(false);
            client.write(new Frame.Admin(3, "connection.list", null));

            String body = client.next(Frame.AdminReply.class).body();
            assertTrue(
                    body.contains("connection="
                            + ConnectionFixture.LOOPBACK.getAddress().getHostAddress() + ":"
                            + ConnectionFixture.LOOPBACK.getPort()),
                    body);
            assertTrue(body.contains("clientId=listed"), body);
            assertTrue(body.contains("sessions=1"), body);
        }
    }
}
