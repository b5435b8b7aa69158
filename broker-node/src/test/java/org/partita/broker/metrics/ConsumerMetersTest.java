package org.partita.broker.metrics;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.partita.broker.metrics.MetricsEndpointTest.get;
import static org.partita.broker.metrics.MetricsEndpointTest.sample;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.MetricsSettings;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.core.dispatch.ConsumerFigures;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.client.PartitaConnectionFactory;

/** Per-consumer meters: their figures, their label as `partita consumers` names the consumer, their removal, their cap. */
@Tag("slow")
@Timeout(60)
class ConsumerMetersTest {
    private static final Pattern CONSUMER_LABEL = Pattern.compile("consumer=\"([^\"]+)\"");

    @TempDir
    Path dir;

    private PartitaNode start(NodeConfig c) {
        return PartitaNode.start(c.withPort(0).withDataDir(dir.resolve("data")).withMetricsPort(0));
    }

    private static String scrape(PartitaNode node) throws Exception {
        return get(node, "/metrics", null, null).body();
    }

    /** The consumers that have series in the exposition. */
    private static Set<String> labelledConsumers(String exposition) {
        Set<String> found = new TreeSet<>();
        Matcher m = CONSUMER_LABEL.matcher(exposition);
        while (m.find()) {
            found.add(m.group(1));
        }
        return found;
    }

    /** The consumers of a queue as `partita consumers` shows them, once there are {@code n}. */
    private static List<String> listed(PartitaNode node, String queue, int n) {
        List<List<String>> found = new ArrayList<>();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            found.add(
                    0,
                    node.reader().queue(queue).get(5, TimeUnit.SECONDS).consumers().stream()
                            .map(ConsumerFigures::consumer)
                            .toList());
            return found.get(0).size() == n;
        });
        return found.get(0);
    }

    /** No consumer has series, nor their metric families (Prometheus) or beans (JMX) left. */
    private static void awaitNoConsumerSeries(PartitaNode node, Set<ObjectName> jmxBefore) throws Exception {
        await().atMost(Duration.ofSeconds(10))
                .until(() -> labelledConsumers(scrape(node)).isEmpty());
        String text = scrape(node);
        assertFalse(text.contains("partita_consumer_"), "a closed consumer has no series left:\n" + text);
        assertEquals(jmxBefore, jmxConsumerMeters(), "nor JMX beans");
    }

    private static Set<ObjectName> jmxConsumerMeters() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Set<ObjectName> names = new TreeSet<>();
        for (ObjectName n : server.queryNames(new ObjectName("org.partita.metrics:*"), null)) {
            if (n.toString().contains("partitaConsumer") && !n.toString().contains("partitaConsumersUnlabelled")) {
                names.add(n);
            }
        }
        return names;
    }

    private static String debugNames() {
        return ManagementFactory.getPlatformMBeanServer().queryNames(null, null).stream()
                .map(Object::toString)
                .filter(n -> n.toLowerCase().contains("consumer"))
                .toList()
                .toString();
    }

    @Test
    void eachConsumerHasItsDeliveriesAcknowledgementsRedeliveriesAndInFlightUntilItCloses() throws Exception {
        Set<ObjectName> jmxBefore = jmxConsumerMeters();
        try (PartitaNode node = start(NodeConfig.defaults());
                Connection c = new PartitaConnectionFactory(node.url()).createConnection()) {
            Session s = c.createSession(true, Session.SESSION_TRANSACTED);
            MessageProducer p = s.createProducer(s.createQueue("work"));
            p.send(s.createTextMessage("a"));
            p.send(s.createTextMessage("b"));
            s.commit();
            c.start();
            MessageConsumer consumer = s.createConsumer(s.createQueue("work"));
            assertEquals("a", ((TextMessage) consumer.receive(5000)).getText());
            s.commit();
            assertEquals("b", ((TextMessage) consumer.receive(5000)).getText());
            s.rollback();
            Message again = consumer.receive(5000);
            assertEquals("b", ((TextMessage) again).getText());
            assertTrue(again.getJMSRedelivered());

            List<String> names = listed(node, "work", 1);
            String name = names.get(0);
            assertTrue(
                    name.matches("consumer \\d+ of /127\\.0\\.0\\.1:\\d+"),
                    "the id and the connection's address: " + name);
            String labels = "{consumer=\"" + name + "\",queue=\"work\",subscription=\"\"}";
            // a once, b twice (the second time redelivered); a consumed; b held by the open transaction
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> sample(scrape(node), "partita_consumer_messages_delivered_total", labels) == 3.0);
            String text = scrape(node);
            assertEquals(1.0, sample(text, "partita_consumer_messages_acknowledged_total", labels));
            assertEquals(1.0, sample(text, "partita_consumer_messages_redelivered_total", labels));
            assertEquals(1.0, sample(text, "partita_consumer_messages_in_flight", labels));
            assertFalse(text.contains("partita_consumer_partitions{"), "a queue without partitions has no owners");
            assertEquals(0.0, sample(text, "partita_consumers_unlabelled", ""));

            s.commit();
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> sample(scrape(node), "partita_consumer_messages_acknowledged_total", labels) == 2.0);
            text = scrape(node);
            assertEquals(0.0, sample(text, "partita_consumer_messages_in_flight", labels));

            // the same figures over JMX
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName delivered = jmxConsumerMeters().stream()
                    .filter(n -> n.toString().contains("partitaConsumerMessagesDelivered")
                            && n.toString().contains("queue.work"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no JMX meter for the consumer in " + debugNames()));
            assertEquals(3.0, ((Number) server.getAttribute(delivered, "Count")).doubleValue());

            consumer.close();
            awaitNoConsumerSeries(node, jmxBefore);
        }
    }

    @Test
    void consumersComeAndGoWithoutTheRegistryGrowing() throws Exception {
        Set<ObjectName> jmxBefore = jmxConsumerMeters();
        try (PartitaNode node = start(NodeConfig.defaults());
                Connection c = new PartitaConnectionFactory(node.url()).createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            for (int i = 0; i < 20; i++) {
                MessageConsumer consumer = s.createConsumer(s.createQueue("churn"));
                Set<String> open = Set.copyOf(listed(node, "churn", 1));
                assertEquals(open, labelledConsumers(scrape(node)), "the open consumer, round " + i);
                assertTrue(jmxConsumerMeters().size() > jmxBefore.size(), "its JMX beans, round " + i);
                consumer.close();
                awaitNoConsumerSeries(node, jmxBefore);
            }
        }
    }

    @Test
    void aPartitionedQueuesConsumerShowsThePartitionsItOwns() throws Exception {
        try (PartitaNode node = start(NodeConfig.defaults().withQueue("keys", "partitions=4"));
                Connection c = new PartitaConnectionFactory(node.url()).createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = s.createConsumer(s.createQueue("keys"));
            String labels = "{consumer=\"" + listed(node, "keys", 1).get(0) + "\",queue=\"keys\",subscription=\"\"}";
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> sample(scrape(node), "partita_consumer_partitions", labels) == 4.0);
            consumer.close();
        }
    }

    @Test
    void pastMetricsConsumerLabelsFurtherConsumersAreCountedNotLabelled() throws Exception {
        try (PartitaNode node = start(NodeConfig.defaults().withMetrics(new MetricsSettings(2)));
                Connection c = new PartitaConnectionFactory(node.url()).createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            List<MessageConsumer> consumers = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                consumers.add(s.createConsumer(s.createQueue("capped")));
                listed(node, "capped", i + 1);
                assertNotNull(scrape(node)); // one at a time: the first two get the slots
            }
            String text = scrape(node);
            List<String> names = listed(node, "capped", 3);
            assertEquals(2, labelledConsumers(text).size(), text);
            assertEquals(1.0, sample(text, "partita_consumers_unlabelled", ""));

            // a labelled consumer closes: its slot goes to the one left out
            Set<String> labelled = labelledConsumers(text);
            String leftOut = names.stream()
                    .filter(n -> !labelled.contains(n))
                    .findFirst()
                    .orElseThrow();
            String closing = labelled.iterator().next();
            consumers.get(names.indexOf(closing)).close();
            listed(node, "capped", 2);
            text = scrape(node);
            assertTrue(labelledConsumers(text).contains(leftOut), text);
            assertFalse(labelledConsumers(text).contains(closing));
            assertEquals(0.0, sample(text, "partita_consumers_unlabelled", ""));
        }
    }
}
