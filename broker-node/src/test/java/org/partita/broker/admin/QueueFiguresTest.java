package org.partita.broker.admin;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.partita.broker.it.NodeExtension;
import org.partita.jms.api.PartitaAdmin;
import org.partita.jms.api.QueueStats;

/**
 * The figures of PartitaAdmin and JMX are measured for every queue kind (issue 11, point 15):
 * delivered, acknowledged, rates, oldest message age and consumer counts; a figure that is not
 * measured is absent, never zero.
 */
@Tag("slow")
@Timeout(60)
class QueueFiguresTest {
    @RegisterExtension
    final NodeExtension node = new NodeExtension();

    /** Sends {@code sent} messages to {@code sendTo}, receives {@code received} from {@code readFrom}; returns the consumer, still open. */
    private static MessageConsumer sendAndReceive(Session s, String sendTo, String readFrom, int sent, int received)
            throws Exception {
        MessageConsumer consumer = s.createConsumer(s.createQueue(readFrom));
        MessageProducer p = s.createProducer(s.createQueue(sendTo));
        for (int i = 0; i < sent; i++) {
            Message m = s.createTextMessage("m" + i);
            m.setStringProperty("JMSXGroupID", "key" + i);
            m.setStringProperty("machine", "m" + i);
            p.send(m);
        }
        for (int i = 0; i < received; i++) {
            assertNotNull(consumer.receive(5000), "message " + i);
        }
        return consumer;
    }

    private static void assertMeasured(PartitaAdmin admin, String queue, int sent, int received) throws Exception {
        await(queue + " figures").atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            QueueStats q = admin.queueStats(queue);
            assertEquals(sent, q.enqueued(), queue + " enqueued: " + q);
            assertEquals(received, q.acknowledged(), queue + " acknowledged: " + q);
            assertTrue(q.delivered() >= received, queue + " delivered: " + q);
            assertTrue(q.ratePerSecond() > 0, queue + " rate: " + q);
            assertEquals(1, q.consumers(), queue + " consumers: " + q);
        });
    }

    @Test
    void aPlainQueueAfterFiveSendsAndThreeReceivesReportsWhatHappened() throws Exception {
        try (Connection c = node.factory().createConnection();
                PartitaAdmin admin = PartitaAdmin.on(c)) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            c.start();
            MessageConsumer consumer = sendAndReceive(s, "plain", "plain", 5, 3);
            assertMeasured(admin, "plain", 5, 3);
            PartitaAdmin.Partition only = admin.partitions("plain").get(0);
            assertTrue(only.delivered() >= 3 && only.ratePerSecond() > 0, only.toString());
            consumer.close();
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                QueueStats q = admin.queueStats("plain");
                assertEquals(2, q.depth(), q.toString());
                assertEquals(0, q.consumers(), q.toString());
                assertTrue(q.oldestAgeMillis().isPresent(), "two messages wait, so their age is known: " + q);
            });
        }
    }

    @Test
    void everyQueueKindIsMeasured() throws Exception {
        try (Connection c = node.factory().createConnection();
                PartitaAdmin admin = PartitaAdmin.on(c)) {
            admin.updateQueue("fan", Map.of("mode", "fanout", "appIds", "billing,audit"));
            admin.updateQueue("lvq", Map.of("lastValue", "machine"));
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            c.start();
            sendAndReceive(s, "parts", "parts?partitions=4", 8, 8);
            assertMeasured(admin, "parts", 8, 8);
            sendAndReceive(s, "fan", "fan?appId=billing", 4, 4);
            assertMeasured(admin, "fan#billing", 4, 4);
            sendAndReceive(s, "lvq", "lvq", 3, 3);
            assertMeasured(admin, "lvq", 3, 3);
            sendAndReceive(s, "wide", "wide?mode=broadcast", 3, 3);
            assertMeasured(admin, "wide", 3, 3);
        }
        try (Connection c = node.factory().createConnection();
                PartitaAdmin admin = PartitaAdmin.on(c)) {
            c.setClientID("figures");
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            c.start();
            Topic topic = s.createTopic("mfg/line/1");
            MessageConsumer durable = s.createDurableSubscriber(topic, "sub");
            MessageProducer p = s.createProducer(topic);
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            p.send(s.createTextMessage("t1"));
            p.send(s.createTextMessage("t2"));
            assertNotNull(durable.receive(5000));
            assertNotNull(durable.receive(5000));
            assertMeasured(admin, "durable:figures:sub", 2, 2);
        }
    }

    @Test
    void anEmptyQueueHasNoOldestAgeRatherThanZero() throws Exception {
        try (Connection c = node.factory().createConnection();
                PartitaAdmin admin = PartitaAdmin.on(c)) {
            admin.updateQueue("empty", Map.of("partitions", "2"));
            QueueStats q = admin.queueStats("empty");
            assertFalse(q.oldestAgeMillis().isPresent(), q.toString());
            for (PartitaAdmin.Partition p : admin.partitions("empty")) {
                assertFalse(p.oldestAgeMillis().isPresent(), p.toString());
            }
        }
    }

    @Test
    void consumersArePerConsumerAndJmxHasTheSameFigures() throws Exception {
        try (Connection c = node.factory().createConnection();
                PartitaAdmin admin = PartitaAdmin.on(c)) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            c.start();
            sendAndReceive(s, "jobs", "jobs", 4, 4);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                List<Map<String, String>> consumers = admin.consumers("jobs");
                assertEquals(1, consumers.size(), consumers.toString());
                assertEquals("4", consumers.get(0).get("acknowledged"), consumers.toString());
                assertEquals("4", consumers.get(0).get("delivered"), consumers.toString());
            });
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName("org.partita:type=Node,name=" + ObjectName.quote("node1"));
            String[] table = (String[]) server.invoke(name, "queueTable", new Object[0], new String[0]);
            String jobs = Arrays.stream(table)
                    .filter(l -> l.startsWith("queue=jobs "))
                    .findFirst()
                    .orElseThrow();
            assertTrue(
                    jobs.contains(" acknowledged=4") && jobs.contains(" consumers=1") && jobs.contains(" delivered=4"),
                    jobs);
            assertFalse(jobs.contains("oldestAgeMillis"), "nothing waits, so no age: " + jobs);
            String[] partitions = (String[])
                    server.invoke(name, "partitionTable", new Object[] {"jobs"}, new String[] {String.class.getName()});
            assertTrue(
                    partitions[0].startsWith("partition=0 ") && partitions[0].contains(" acknowledged=4"),
                    partitions[0]);
        }
    }
}
