package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.jms.api.PartitaErrorCodes;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * The client's heartbeat (README, connection options: {@code heartbeat}): a node that stops
 * answering without closing the connection (hung, or cut off by the network) is given up after
 * twice the heartbeat, and a URL with other nodes fails over to them; a node that is merely quiet
 * answers the pings and keeps its connections.
 */
@Tag("slow")
class HeartbeatTest {
    private static final int HEARTBEAT = 300;

    @RegisterExtension
    final NodeExtension a = new NodeExtension();

    @RegisterExtension
    final NodeExtension b = new NodeExtension();

    private final List<JMSException> told = new CopyOnWriteArrayList<>();

    @Test
    void aQuietNodeKeepsItsConnectionAndASilentOneIsGivenUp() throws Exception {
        try (FreezableProxy proxy = new FreezableProxy(a.node().port());
                Connection conn =
                        new PartitaConnectionFactory(proxy.url() + "?heartbeat=" + HEARTBEAT).createConnection()) {
            conn.setExceptionListener(told::add);
            Session session = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
            conn.start();
            // Nothing to say for ten heartbeats: the pings are answered, the connection stays.
            await("a quiet but live node")
                    .during(Duration.ofMillis(10 * HEARTBEAT))
                    .atMost(Duration.ofSeconds(10))
                    .until(told::isEmpty);
            session.createProducer(session.createQueue("jobs")).send(session.createTextMessage("still here"));

            proxy.freeze();
            await("the silent node given up").atMost(Duration.ofSeconds(10)).until(() -> !told.isEmpty());
            assertTrue(
                    told.get(0).getMessage().contains("sent nothing for " + 2 * HEARTBEAT + " ms"),
                    told.get(0).getMessage());
        }
    }

    @Test
    void aSilentNodeIsFailedOverToTheNextNodeOfTheUrl() throws Exception {
        try (FreezableProxy proxy = new FreezableProxy(a.node().port());
                Connection conn = new PartitaConnectionFactory(
                                proxy.url() + "," + b.node().url() + "?heartbeat=" + HEARTBEAT)
                        .createConnection()) {
            conn.setExceptionListener(told::add);
            Session session = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue jobs = session.createQueue("jobs");
            MessageConsumer consumer = session.createConsumer(jobs);
            conn.start();

            proxy.freeze();
            await("failover from the silent node")
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> told.stream().anyMatch(e -> PartitaErrorCodes.FAILOVER.equals(e.getErrorCode())));
            session.createProducer(jobs).send(session.createTextMessage("on b"));
            TextMessage received = (TextMessage) consumer.receive(10_000);
            assertNotNull(received, "the consumer, opened again on b, receives what is sent there");
            assertEquals("on b", received.getText());
        }
    }
}
