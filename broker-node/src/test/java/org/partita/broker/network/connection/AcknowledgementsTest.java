package org.partita.broker.network.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.protocol.Frame;

/** ACK consumes a delivery; RELEASE hands it back, counted as redelivered if the application saw it. */
class AcknowledgementsTest {
    @TempDir
    Path dir;

    @Test
    void anAcknowledgedMessageIsGone() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            int session = client.session(false);
            client.send(session, "queue:work", "job");
            client.consumer(session, "queue:work", 1);
            Frame.Deliver d = client.next(Frame.Deliver.class);

            client.write(new Frame.Ack(8, session, new long[] {d.deliveryId()}));
            client.ok(8);

            assertEquals(List.of(), client.browse("queue:work"));
            node.restart();
            assertEquals(List.of(), node.login().browse("queue:work"));
        }
    }

    @Test
    void aReleasedMessageTheApplicationSawComesBackFlaggedRedelivered() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            int session = client.session(false);
            client.send(session, "queue:work", "job");
            client.consumer(session, "queue:work", 2);
            Frame.Deliver first = client.next(Frame.Deliver.class);

            client.write(new Frame.Release(8, session, new long[] {first.deliveryId()}, new long[0]));
            client.ok(8);

            Frame.Deliver again = client.next(Frame.Deliver.class);
            assertEquals("job", TestClient.text(again.message()));
            assertEquals(2, again.deliveryCount());
        }
    }

    @Test
    void aReleasedMessageTheApplicationNeverSawComesBackUncounted() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            int session = client.session(false);
            client.send(session, "queue:work", "job");
            client.consumer(session, "queue:work", 2);
            Frame.Deliver first = client.next(Frame.Deliver.class);

            client.write(new Frame.Release(8, session, new long[0], new long[] {first.deliveryId()}));
            client.ok(8);

            assertEquals(1, client.next(Frame.Deliver.class).deliveryCount());
        }
    }

    @Test
    void anAcknowledgementOfADeliveryAlreadySettledChangesNothing() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            int session = client.session(false);
            client.send(session, "queue:work", "job");
            client.consumer(session, "queue:work", 1);
            Frame.Deliver d = client.next(Frame.Deliver.class);
            client.write(new Frame.Release(8, session, new long[0], new long[] {d.deliveryId()}));
            client.ok(8);

            client.write(new Frame.Ack(9, session, new long[] {d.deliveryId()}));
            client.ok(9);

            assertEquals(List.of("job"), client.browse("queue:work"));
        }
    }
}
