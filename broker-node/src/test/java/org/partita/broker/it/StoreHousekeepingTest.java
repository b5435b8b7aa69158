package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.jms.api.PartitaAdmin;

/** Stored payloads go away once nothing can deliver them any more: no row, no memory is left behind. */
@Tag("slow")
class StoreHousekeepingTest {
    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    @Test
    void aPayloadHeldOnlyByANonDurableSubscriberIsGoneAfterACleanRestart() throws Exception {
        try (Connection durable = node.factory().createConnection();
                Connection transientOne = node.factory().createConnection()) {
            durable.setClientID("keeper");
            Session ds = durable.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic topic = ds.createTopic("news");
            MessageConsumer keeper = ds.createDurableConsumer(topic, "keeper");
            Session ts = transientOne.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            ts.createConsumer(topic); // never reads: holds the payload while it lives
            MessageProducer p = ds.createProducer(topic);
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            p.send(ds.createTextMessage("headline"));
            durable.start();
            assertNotNull(keeper.receive(5000));
            assertEquals(1, node.node().store().figures().messageRows(), "the non-durable subscriber still holds it");
        }
        node.restart();
        assertEquals(0, node.node().store().figures().messageRows(), "a non-durable subscription ends with the node");
    }

    @Test
    void aMessageHandedBackAfterItsQueueWasDeletedIsDeletedToo() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("doomed"));
            p.send(s.createTextMessage("in flight"));
            MessageConsumer consumer = s.createConsumer(s.createQueue("doomed"));
            c.start();
            Message m = consumer.receive(5000);
            assertNotNull(m);
            try (PartitaAdmin admin = PartitaAdmin.connect(node.factory())) {
                admin.deleteQueue("doomed");
            }
            s.recover(); // hands the unacknowledged message back to a queue that no longer exists
        }
        await().atMost(Duration.ofSeconds(10))
                .until(() -> node.node().store().figures().messageRows() == 0);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> node.node().broker().payloadMemory().residentBytes() == 0);
    }
}
