package org.partita.broker.network.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.protocol.ErrorCode;
import org.partita.protocol.Frame;

/** RECOVER: every unsettled delivery of the session comes back, behind a fence the client drops up to. */
class SessionRecoveryTest {
    @TempDir
    Path dir;

    @Test
    void recoverAnswersTheFenceAndGivesBackSeenMessagesRedeliveredAndTheRestUncounted() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            int session = client.session(false);
            client.send(session, "queue:work", "seen");
            client.send(session, "queue:work", "prefetched");
            client.consumer(session, "queue:work", 10);
            Frame.Deliver seen = client.next(Frame.Deliver.class);
            Frame.Deliver prefetched = client.next(Frame.Deliver.class);

            client.write(new Frame.Recover(8, session, new long[] {seen.deliveryId()}));

            assertEquals(new Frame.Recovered(8, prefetched.deliveryId()), client.next());
            Frame.Deliver first = client.next(Frame.Deliver.class);
            Frame.Deliver second = client.next(Frame.Deliver.class);
            assertEquals("seen", TestClient.text(first.message()));
            assertEquals(2, first.deliveryCount());
            assertEquals("prefetched", TestClient.text(second.message()));
            assertEquals(1, second.deliveryCount());
            assertTrue(
                    first.deliveryId() > prefetched.deliveryId(),
                    "a delivery after the recover is numbered past the fence");
        }
    }

    @Test
    void recoverOfASessionThatIsNotOpenIsRefused() {
        try (ConnectionFixture node = new ConnectionFixture(dir)) {
            TestClient client = node.login();
            client.write(new Frame.Recover(8, 3, new long[0]));

            assertEquals("session 3 is not open", client.error(8, ErrorCode.ILLEGAL_STATE));
        }
    }
}
