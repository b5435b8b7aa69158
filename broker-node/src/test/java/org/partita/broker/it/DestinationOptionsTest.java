package org.partita.broker.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** docs/destinations.md: queue options in a name create the queue, and never silently disagree with it. */
@Tag("slow")
class DestinationOptionsTest {
    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    private static void assertConflict(InvalidDestinationException e, String... words) {
        for (String w : words) {
            assertTrue(e.getMessage().contains(w), "mentions " + w + ": " + e.getMessage());
        }
        assertTrue(e.getMessage().contains("queue.update"), "says how to change the queue: " + e.getMessage());
    }

    @Test
    void optionsThatConflictWithTheExistingQueueAreRefusedEverywhereTheNameIsUsed() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession();
            s.createConsumer(s.createQueue("orders")).close(); // creates orders with 1 partition
            var conflicting = s.createQueue("orders?partitions=8");

            assertConflict(
                    assertThrows(InvalidDestinationException.class, () -> s.createConsumer(conflicting)),
                    "partitions",
                    "'1'",
                    "'8'");
            assertConflict(
                    assertThrows(InvalidDestinationException.class, () -> s.createProducer(conflicting)),
                    "partitions",
                    "'1'",
                    "'8'");
            assertConflict(
                    assertThrows(
                            InvalidDestinationException.class,
                            () -> s.createBrowser(conflicting).getEnumeration()),
                    "partitions");
            MessageProducer anonymous = s.createProducer(null);
            assertConflict(
                    assertThrows(
                            InvalidDestinationException.class,
                            () -> anonymous.send(conflicting, s.createTextMessage("x"))),
                    "partitions");

            // the connection stays usable, and options that agree with the queue are fine
            MessageProducer p = s.createProducer(s.createQueue("orders?partitions=1&maxDeliveryAttempts=10"));
            p.send(s.createTextMessage("agrees"));
            c.start();
            TextMessage m =
                    (TextMessage) s.createConsumer(s.createQueue("orders")).receive(5000);
            assertEquals("agrees", m.getText());
        }
    }

    @Test
    void aProducerOnANameWithQueueOptionsCreatesTheQueue() throws Exception {
        try (Connection c = node.factory().createConnection()) {
            Session s = c.createSession();
            MessageProducer p = s.createProducer(s.createQueue("fan?mode=fanout&appIds=a,b"));
            assertEquals(
                    "fanout",
                    node.node().broker().existingQueue("fan").options().mode(),
                    "the producer created the fan-out queue");
            MessageConsumer a = s.createConsumer(s.createQueue("fan?appId=a"));
            MessageConsumer b = s.createConsumer(s.createQueue("fan?appId=b&mode=fanout"));
            p.send(s.createTextMessage("to both"));
            c.start();
            assertNotNull(a.receive(5000), "AppId a got it");
            assertNotNull(b.receive(5000), "AppId b got it");
        }
    }
}
