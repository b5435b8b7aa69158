package org.partita.broker.network.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;

/** ADMIN and DESTINATION_OP: client ids, temporary destinations, declared queues, durable subscriptions removed. */
class AdminFramesTest {
    /** An address of the documentation range (RFC 5737): another machine than the node's. */
    private static final InetSocketAddress ELSEWHERE = new InetSocketAddress("192.0.2.7", 40_001);

    @TempDir
    Path dir;

    @Test
    void aTemporaryQueueIsCreatedForItsConnectionAndDeletedOnRequest() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            client.write(new Frame.DestinationOp(5, Frame.OP_CREATE_TEMP_QUEUE, null));
            Frame.Created created = client.next(Frame.Created.class);
            assertEquals(5, created.requestId());
            String queue = "temp-queue:" + created.name();
            int session = client.session(false);
            client.send(session, queue, "reply");
            assertNotNull(node.broker().existingQueue(created.name()));

            client.write(new Frame.DestinationOp(6, Frame.OP_DELETE_TEMP, queue));
            client.ok(6);

            assertNull(node.broker().existingQueue(created.name()));
            client.write(new Frame.Send(7, session, client.message(queue, "late", true)));
            client.error(7, ErrorCode.UNKNOWN_DESTINATION);
            client.write(new Frame.DestinationOp(8, Frame.OP_DELETE_TEMP, queue));
            assertEquals(
                    queue + " is not a temporary destination of this connection",
                    client.error(8, ErrorCode.ILLEGAL_STATE));
        }
    }

    @Test
    void onlyTheConnectionThatCreatedATemporaryQueueConsumesFromIt() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient owner = node.login();
            owner.write(new Frame.DestinationOp(5, Frame.OP_CREATE_TEMP_QUEUE, null));
            String queue = "temp-queue:" + owner.next(Frame.Created.class).name();

            TestClient other = node.login();
            other.write(new Frame.ConsumerOpen(6, other.session(false), 1, queue, null, null, 0, 1));

            assertEquals(
                    "only the connection that created " + queue + " may consume from it",
                    other.error(6, ErrorCode.ILLEGAL_STATE));
        }
    }

    @Test
    void unsubscribingASubscriptionThatDoesNotExistIsAnUnknownDestination() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.connect();
            client.hello(null, null, "app");
            client.write(new Frame.DestinationOp(5, Frame.OP_UNSUBSCRIBE, "nightly"));

            assertEquals(
                    "there is no durable subscription 'nightly' for client id 'app'",
                    client.error(5, ErrorCode.UNKNOWN_DESTINATION));
        }
    }

    @Test
    void aDurableSubscriptionIsRemovedOnceItsConsumerClosed() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.connect();
            client.hello(null, null, "app");
            client.write(new Frame.ConsumerOpen(
                    5, client.session(false), 1, "topic:news", null, "nightly", Frame.FLAG_DURABLE, 1));
            client.ok(5);

            client.write(new Frame.DestinationOp(6, Frame.OP_UNSUBSCRIBE, "nightly"));
            client.error(6, ErrorCode.ILLEGAL_STATE);
            client.write(new Frame.ConsumerClose(7, 1), new Frame.DestinationOp(8, Frame.OP_UNSUBSCRIBE, "nightly"));
            client.ok(7);
            client.ok(8);
        }
    }

    @Test
    void aClientIdIsClaimedOnceAndNotWhileAnotherConnectionHoldsIt() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient first = node.login();
            first.write(new Frame.DestinationOp(5, Frame.OP_SET_CLIENT_ID, "app"));
            first.ok(5);
            first.write(new Frame.DestinationOp(6, Frame.OP_SET_CLIENT_ID, "other"));
            assertEquals("this connection already has client id 'app'", first.error(6, ErrorCode.ILLEGAL_STATE));

            TestClient second = node.login();
            second.write(new Frame.DestinationOp(7, Frame.OP_SET_CLIENT_ID, "app"));
            assertEquals(
                    "client id 'app' is already in use on this node", second.error(7, ErrorCode.INVALID_CLIENT_ID));
            second.ping();
        }
    }

    @Test
    void aDeclaredQueueKeepsItsOptionsAndAConflictingDeclarationIsRefused() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            client.write(new Frame.DestinationOp(5, Frame.OP_DECLARE_QUEUE, "queue:orders?partitions=2"));
            client.ok(5);
            assertEquals(2, node.broker().existingQueue("orders").options().partitions());

            client.write(new Frame.DestinationOp(6, Frame.OP_DECLARE_QUEUE, "queue:orders?partitions=3"));
            client.error(6, ErrorCode.INVALID_DESTINATION);
            client.write(new Frame.DestinationOp(7, Frame.OP_DECLARE_QUEUE, "topic:news"));
            assertEquals("only queues are declared, not topic:news", client.error(7, ErrorCode.INVALID_REQUEST));
            client.write(new Frame.DestinationOp(8, 99, "queue:orders"));
            assertEquals("destination operation 99 is not supported", client.error(8, ErrorCode.INVALID_REQUEST));
        }
    }

    @Test
    void aNodeWithoutUsersTakesAdminCommandsFromItsOwnMachineOnly() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient remote = node.connect(ELSEWHERE);
            remote.hello();
            remote.write(new Frame.Admin(5, "queue.list", null));
            assertEquals(
                    "not authorized: admin command queue.list from 192.0.2.7:40001 refused; a node without a users file"
                            + " takes admin commands from its own machine only",
                    remote.error(5, ErrorCode.NOT_AUTHORIZED));

            TestClient local = node.login();
            local.send(local.session(false), "queue:orders", "one");
            local.write(new Frame.Admin(6, "queue.list", null));
            Frame.AdminReply reply = local.next(Frame.AdminReply.class);
            assertEquals(6, reply.requestId());
            assertTrue(reply.body().contains("orders"), reply.body());
        }
    }
}
