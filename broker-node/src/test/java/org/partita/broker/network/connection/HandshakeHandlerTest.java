package org.partita.broker.network.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.partita.broker.config.FlowLimits;
import org.partita.broker.security.UsersFileAuthenticator;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;
import org.partita.protocol.Protocol;
import org.partita.protocol.auth.PasswordHash;

/** HELLO: versions, logins, client ids, and what the node tells a connection it opens. */
class HandshakeHandlerTest {
    /** Hashing iterations that take the login pool tens of milliseconds: the HELLO surely waits for it. */
    private static final int SLOW_ENOUGH_TO_WAIT_FOR = 100_000;

    @TempDir
    Path dir;

    @Test
    void helloOkCarriesTheNodesNameAndFrameSizeThenTheSendWindow() {
        FlowLimits limits = FlowLimits.defaults().withProducerWindowBytes(64 * 1024);
        try (ConnectionFixture node = new ConnectionFixture(dir, limits)) {
            TestClient client = node.connect();
            client.write(new Frame.Hello(5, Protocol.VERSION, null, null, null));

            assertEquals(new Frame.Greeting(5), client.nextFrame());
            assertEquals(
                    new Frame.HelloOk(5, Protocol.VERSION, "test-node", ConnectionFixture.MAX_FRAME_SIZE),
                    client.nextFrame());
            assertEquals(new Frame.SendCredit(64 * 1024), client.nextFrame());
        }
    }

    @Test
    void aClientOfTheOldestVersionIsAnsweredInItsVersionWithoutSendCredit() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.connect();
            client.write(new Frame.Hello(1, Protocol.OLDEST_VERSION, null, null, null));
            assertEquals(
                    Protocol.OLDEST_VERSION, client.next(Frame.HelloOk.class).version());

            client.write(new Frame.Ping(2));
            assertEquals(new Frame.Ok(2), client.nextFrame());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {Protocol.OLDEST_VERSION, 3, Protocol.GREETING_VERSION - 1})
    void aClientBeforeTheGreetingGetsHelloOkFirstAsItAlwaysDid(int version) {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.connect();
            client.write(new Frame.Hello(4, version, null, null, null));
            assertEquals(
                    new Frame.HelloOk(4, version, "test-node", ConnectionFixture.MAX_FRAME_SIZE), client.nextFrame());
        }
    }

    @Test
    void theGreetingIsWrittenAtOnceBeforeTheLoginIsChecked() throws Exception {
        try (ConnectionFixture node = new ConnectionFixture(dir, FlowLimits.defaults(), users())) {
            TestClient client = node.connect();
            client.write(new Frame.Hello(6, Protocol.VERSION, "alice", "secret", null));

            // the login pool's answer runs on the connection's loop, which has not run yet: only the greeting is out
            assertEquals(1, client.channel().outboundMessages().size());
            assertEquals(new Frame.Greeting(6), client.channel().readOutbound());
            assertEquals(6, client.next(Frame.HelloOk.class).requestId());
        }
    }

    @Test
    void aVersionTheNodeDoesNotSpeakIsRefusedAndTheConnectionClosed() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.connect();
            client.write(new Frame.Hello(3, Protocol.VERSION + 1, null, null, null));

            assertEquals(
                    new Frame.Error(
                            3,
                            ErrorCode.UNSUPPORTED_VERSION,
                            "protocol version " + (Protocol.VERSION + 1) + " is not supported; this node speaks "
                                    + Protocol.OLDEST_VERSION + " to " + Protocol.VERSION),
                    client.next());
            assertFalse(client.isOpen());
        }
    }

    @Test
    void aClientIdInUseIsRefusedAndTheConnectionClosedUntilItsHolderLeaves() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient holder = node.connect();
            holder.hello(null, null, "billing");

            TestClient second = node.connect();
            second.write(new Frame.Hello(1, Protocol.VERSION, null, null, "billing"));
            assertEquals(new Frame.Greeting(1), second.next());
            assertEquals(
                    new Frame.Error(
                            1, ErrorCode.INVALID_CLIENT_ID, "client id 'billing' is already in use on this node"),
                    second.next());
            assertFalse(second.isOpen());

            holder.disconnect();
            node.connect().hello(null, null, "billing");
        }
    }

    @Test
    void aSecondHelloIsRefusedAndTheConnectionStaysOpen() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            client.write(new Frame.Hello(9, Protocol.VERSION, null, null, null));

            assertEquals("HELLO was already received", client.error(9, ErrorCode.ILLEGAL_STATE));
            client.ping();
        }
    }

    @Test
    void framesSentRightAfterHelloWaitForTheLoginAndAreAnsweredInOrder() throws Exception {
        try (ConnectionFixture node = new ConnectionFixture(dir, FlowLimits.defaults(), users())) {
            TestClient client = node.connect();
            client.write(
                    new Frame.Hello(1, Protocol.VERSION, "alice", "secret", null),
                    new Frame.SessionOpen(2, 1, false),
                    new Frame.Ping(3));

            assertEquals(new Frame.Greeting(1), client.next());
            assertEquals(1, client.next(Frame.HelloOk.class).requestId());
            client.ok(2);
            client.ok(3);
        }
    }

    @Test
    void aRefusedLoginIsAnsweredAndTheFramesAfterItAreDropped() throws Exception {
        try (ConnectionFixture node = new ConnectionFixture(dir, FlowLimits.defaults(), users())) {
            TestClient client = node.connect();
            client.write(new Frame.Hello(1, Protocol.VERSION, "alice", "wrong", null), new Frame.Ping(2));

            assertEquals(new Frame.Greeting(1), client.next());
            client.error(1, ErrorCode.AUTHENTICATION_FAILED);
            assertFalse(client.isOpen());
            assertTrue(client.channel().outboundMessages().isEmpty(), "the ping after a refused HELLO is answered");
        }
    }

    private UsersFileAuthenticator users() throws Exception {
        Path file = dir.resolve("users.properties");
        Files.writeString(
                file, "alice = " + PasswordHash.create("secret".toCharArray(), SLOW_ENOUGH_TO_WAIT_FOR) + "\n");
        return UsersFileAuthenticator.load(file, false);
    }
}
