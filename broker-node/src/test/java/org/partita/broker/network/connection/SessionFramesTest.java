package org.partita.broker.network.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.FlowLimits;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;

/** Sessions and their local transactions: SESSION_OPEN, SESSION_CLOSE, COMMIT, ROLLBACK. */
class SessionFramesTest {
    @TempDir
    Path dir;

    @Test
    void aSessionIdAlreadyOpenIsRefused() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            int session = client.session(false);
            client.write(new Frame.SessionOpen(7, session, true));

            assertEquals("session " + session + " is already open", client.error(7, ErrorCode.ILLEGAL_STATE));
        }
    }

    @Test
    void aSessionPastTheConnectionsLimitIsRefused() {
        try (ConnectionFixture node =
                new ConnectionFixture(dir, FlowLimits.defaults().withSessionsPerConnection(1))) {
            TestClient client = node.login();
            client.session(false);
            client.write(new Frame.SessionOpen(7, 2, false));

            assertEquals(
                    "a connection may have at most 1 sessions open", client.error(7, ErrorCode.RESOURCE_EXHAUSTED));
        }
    }

    @Test
    void aRequestNamingASessionThatIsNotOpenIsRefused() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            client.write(new Frame.Send(7, 42, client.message("queue:q", "x", true)));

            assertEquals("session 42 is not open", client.error(7, ErrorCode.ILLEGAL_STATE));
        }
    }

    @Test
    void commitOnASessionThatIsNotTransactedIsRefused() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            int session = client.session(false);
            client.write(new Frame.Commit(7, session));

            assertEquals(
                    "session " + session + " is not transacted: nothing to commit",
                    client.error(7, ErrorCode.ILLEGAL_STATE));
        }
    }

    @Test
    void aTransactedSendIsConsumableOnceCommitted() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            int session = client.session(true);
            client.send(session, "queue:orders", "one");
            assertEquals(List.of(), client.browse("queue:orders"));

            client.write(new Frame.Commit(9, session));
            client.ok(9);

            assertEquals(List.of("one"), client.browse("queue:orders"));
        }
    }

    @Test
    void rollbackDiscardsTheTransactionsSends() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            int session = client.session(true);
            client.send(session, "queue:orders", "one");

            client.write(new Frame.Rollback(9, session));
            client.ok(9);
            client.write(new Frame.Commit(10, session));
            client.ok(10);

            assertEquals(List.of(), client.browse("queue:orders"));
        }
    }

    @Test
    void rollbackGivesBackWhatTheTransactionAcknowledgedAsRedelivered() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            int session = client.session(true);
            client.send(client.session(false), "queue:work", "job");
            client.consumer(session, "queue:work", 2);
            Frame.Deliver first = client.next(Frame.Deliver.class);
            client.write(new Frame.Ack(8, session, new long[] {first.deliveryId()}));
            client.ok(8);

            client.write(new Frame.Rollback(9, session));
            client.ok(9);

            Frame.Deliver again = client.next(Frame.Deliver.class);
            assertEquals("job", TestClient.text(again.message()));
            assertEquals(2, again.deliveryCount());
        }
    }

    @Test
    void closingASessionGivesBackItsDeliveriesAsRedeliveredAndClosesItsConsumers() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            int session = client.session(false);
            client.send(session, "queue:work", "job");
            client.consumer(session, "queue:work", 1);
            client.next(Frame.Deliver.class);

            client.write(new Frame.SessionClose(9, session));
            client.ok(9);
            client.write(new Frame.Ack(10, session, new long[] {1}));
            assertEquals("session " + session + " is not open", client.error(10, ErrorCode.ILLEGAL_STATE));

            client.consumer(client.session(false), "queue:work", 1);
            assertEquals(2, client.next(Frame.Deliver.class).deliveryCount());
        }
    }
}
