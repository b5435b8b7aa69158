package org.partita.broker.network.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;
import org.partita.protocol.FrameType;

/** Consumers: CONSUMER_OPEN, CONSUMER_CLOSE, CONSUMER_UPDATE, and the credit that paces them (CREDIT, DRAIN). */
class ConsumerFramesTest {
    @TempDir
    Path dir;

    @Test
    void aConsumerIdAlreadyOpenIsRefused() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            int session = client.session(false);
            int consumer = client.consumer(session, "queue:work", 1);
            client.write(new Frame.ConsumerOpen(7, session, consumer, "queue:other", null, null, 0, 1));

            assertEquals("consumer " + consumer + " is already open", client.error(7, ErrorCode.ILLEGAL_STATE));
        }
    }

    @Test
    void aSelectorThatDoesNotParseIsRefused() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            client.write(new Frame.ConsumerOpen(7, client.session(false), 1, "queue:work", "colour = ", null, 0, 1));

            client.error(7, ErrorCode.INVALID_SELECTOR);
        }
    }

    @Test
    void negativeCreditIsRefused() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            int session = client.session(false);
            client.write(new Frame.ConsumerOpen(7, session, 1, "queue:work", null, null, 0, -1));
            assertEquals("credit must not be negative: -1", client.error(7, ErrorCode.INVALID_REQUEST));

            int consumer = client.consumer(session, "queue:work", 0);
            client.write(new Frame.Credit(consumer, -5));
            assertEquals(
                    new Frame.RequestFailed(
                            FrameType.CREDIT.code(), ErrorCode.INVALID_REQUEST, "credit must not be negative: -5"),
                    client.next());
        }
    }

    @Test
    void aMessageIsDeliveredOnlyOnceTheConsumerHasCredit() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            int session = client.session(false);
            int consumer = client.consumer(session, "queue:work", 0);
            client.send(session, "queue:work", "job");

            // DRAIN is answered after every delivery the consumer's credit allowed: none
            client.write(new Frame.Drain(8, consumer));
            assertEquals(new Frame.Ok(8), client.next());

            client.write(new Frame.Credit(consumer, 1));
            Frame.Deliver d = client.next(Frame.Deliver.class);
            assertEquals(consumer, d.consumerId());
            assertEquals(1, d.deliveryCount());
            assertEquals("job", TestClient.text(d.message()));
        }
    }

    @Test
    void aByteWindowBoundsWhatTheConsumerIsSentAndEachDeliveryLetGoOfMakesRoomAgain() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            int session = client.session(false);
            String body = "x".repeat(1000);
            for (int i = 0; i < 6; i++) {
                client.send(session, "queue:work", i + body);
            }
            int size = client.message("queue:work", 0 + body, true).length;
            // room for 100 messages, but two and a half of them in bytes: the third starts inside the window
            int consumer = client.consumer(session, "queue:work", 100, size * 5L / 2);
            for (int i = 0; i < 3; i++) {
                assertEquals(
                        i + body,
                        TestClient.text(client.next(Frame.Deliver.class).message()));
            }

            client.write(new Frame.Credit(consumer, 1)); // the client let go of the first: its bytes come back
            assertEquals(
                    3 + body, TestClient.text(client.next(Frame.Deliver.class).message()));
            // DRAIN is answered after every delivery the consumer's room allowed: nothing more
            client.write(new Frame.Drain(8, consumer));
            assertEquals(new Frame.Ok(8), client.next());

            // after a drain the client grants its window afresh: the bytes count from nothing again
            client.write(new Frame.Credit(consumer, 100));
            assertEquals(
                    4 + body, TestClient.text(client.next(Frame.Deliver.class).message()));
            assertEquals(
                    5 + body, TestClient.text(client.next(Frame.Deliver.class).message()));
        }
    }

    @Test
    void aNegativeByteWindowIsRefused() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            client.write(new Frame.ConsumerOpen(7, client.session(false), 1, "queue:work", null, null, 0, 10, -1));
            assertEquals("a byte window must not be negative: -1", client.error(7, ErrorCode.INVALID_REQUEST));
        }
    }

    @Test
    void drainIsAnsweredAfterTheDeliveriesItsCreditAllowed() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            int session = client.session(false);
            client.send(session, "queue:work", "one");
            client.send(session, "queue:work", "two");
            int consumer = client.consumer(session, "queue:work", 2);
            client.write(new Frame.Drain(8, consumer));

            assertEquals("one", TestClient.text(client.next(Frame.Deliver.class).message()));
            assertEquals("two", TestClient.text(client.next(Frame.Deliver.class).message()));
            assertEquals(new Frame.Ok(8), client.next());
        }
    }

    @Test
    void aClosedConsumerIsGivenNothingMore() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            int session = client.session(false);
            int consumer = client.consumer(session, "queue:work", 5);
            client.write(new Frame.ConsumerClose(8, consumer));
            client.ok(8);

            client.send(session, "queue:work", "job");
            client.write(new Frame.ConsumerUpdate(9, consumer, 1, -1, -1));
            assertEquals("consumer " + consumer + " is not open", client.error(9, ErrorCode.ILLEGAL_STATE));
            assertEquals(List.of("job"), client.browse("queue:work"));
        }
    }

    @Test
    void anUnsharedDurableSubscriptionNeedsAClientId() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            client.write(new Frame.ConsumerOpen(
                    7, client.session(false), 1, "topic:news", null, "daily", Frame.FLAG_DURABLE, 1));

            assertEquals(
                    "an unshared durable subscription needs a client id", client.error(7, ErrorCode.ILLEGAL_STATE));
        }
    }

    @Test
    void aTopicConsumerReceivesWhatIsPublishedAfterItOpened() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            int session = client.session(false);
            int consumer = client.consumer(session, "topic:news", 1);
            client.send(session, "topic:news", "headline");

            Frame.Deliver d = client.next(Frame.Deliver.class);
            assertEquals(consumer, d.consumerId());
            assertEquals("headline", TestClient.text(d.message()));
        }
    }
}
