package org.partita.ee.payara;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.ee.payara.app.PayaraNames;
import org.partita.ee.payara.app.SendServlet;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * The adapter in Payara Server 6, set up with the README's {@code asadmin} commands: message-driven
 * beans on every partition of a queue with each key in order, their sends through the pooled
 * connection factory and an injected {@code JMSContext} in the container's transaction, commit and
 * rollback of a servlet's JTA transaction, dead-lettering after the delivery attempts, an
 * administered queue used by {@code @Resource} and by a bean's {@code destinationLookup}, and a
 * durable topic bean with a client id; a bean's receive, send and insert in an XA database
 * committed or rolled back together.
 */
@Tag("slow")
@Tag("payara")
class PayaraResourceAdapterTest {
    /** Payara's ports from this base (HTTP 27080, admin 27048), all on loopback. */
    private static final int PORT_BASE = 27000;

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String APP = "partita-payara";
    private static final int KEYS = 40;
    /** Messages per key waiting on {@code ee.orders} before the application is deployed. */
    private static final int BACKLOG_PER_KEY = 5;

    private static Path dataDir;
    private static PartitaNode node;
    private static PayaraDomain payara;

    @BeforeAll
    static void startNodeAndPayara() throws Exception {
        dataDir = Files.createTempDirectory("partita-payara-node");
        node = PartitaNode.start(NodeConfig.defaults().withPort(0).withDataDir(dataDir));
        node.broker().updateQueue("ee.orders", "partitions=8");
        node.broker().updateQueue("ee.poison", "maxDeliveryAttempts=3&deadLetterQueue=ee.dead");
        payara = new PayaraDomain(PORT_BASE);
        payara.start();
        // the README's steps for Payara, as written: its node URL, .rar and example queue swapped for the test's
        List<List<String>> readme = ReadmeCommands.payara();
        assertEquals(5, readme.size(), "the README's asadmin commands: " + readme);
        for (List<String> command : readme) {
            List<String> args = new ArrayList<>();
            for (String arg : command) {
                args.add(
                        switch (arg) {
                            case "partita-ra.rar" -> System.getProperty("partita.rar");
                            case "Name=orders" -> "Name=ee.lookup";
                            case "jms/queue/orders" -> PayaraNames.LOOKUP_QUEUE;
                            default -> arg.replace("\\:61700", "\\:" + node.port());
                        });
            }
            payara.asadmin(args.toArray(String[]::new));
        }
        payara.asadmin(
                "create-jdbc-connection-pool",
                "--datasourceclassname",
                "org.h2.jdbcx.JdbcDataSource",
                "--restype",
                "javax.sql.XADataSource",
                "--property",
                "user=sa:password=sa:URL=jdbc\\:h2\\:"
                        + dataDir.resolve("xa-db").toString().replace(":", "\\:"),
                "PartitaXaDb");
        payara.asadmin("create-jdbc-resource", "--connectionpoolid", "PartitaXaDb", PayaraNames.DATA_SOURCE);
        node.broker().updateQueue("ee.recorded", "maxDeliveryAttempts=3&deadLetterQueue=ee.recorded.dead");
        // a backlog waits before the beans exist, as when an application is deployed onto a busy queue
        sendOrders(0, BACKLOG_PER_KEY);
        payara.deploy(application(), APP);
        get("/app/rows"); // makes the table
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (payara != null) {
                payara.close();
            }
        } finally {
            if (node != null) {
                node.close();
            }
            if (dataDir != null) {
                try (var files = Files.walk(dataDir)) {
                    files.sorted(java.util.Comparator.reverseOrder())
                            .forEach(p -> p.toFile().delete());
                }
            }
        }
    }

    private static WebArchive application() {
        StringBuilder beans = new StringBuilder();
        for (String bean : List.of("OrdersForwarder", "PoisonBean", "LookupForwarder", "NewsBean", "RecordingBean")) {
            beans.append("""
                    <ejb>
                      <ejb-name>%s</ejb-name>
                      <mdb-resource-adapter><resource-adapter-mid>partita-ra</resource-adapter-mid></mdb-resource-adapter>
                    </ejb>
                    """.formatted(bean));
        }
        return ShrinkWrap.create(WebArchive.class, APP + ".war")
                .addPackage(SendServlet.class.getPackage())
                .addAsWebInfResource(
                        new StringAsset("<beans xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"4.0\""
                                + " bean-discovery-mode=\"all\"/>"),
                        "beans.xml")
                .addAsWebInfResource(
                        new StringAsset("<glassfish-ejb-jar><enterprise-beans>" + beans
                                + "</enterprise-beans></glassfish-ejb-jar>"),
                        "glassfish-ejb-jar.xml");
    }

    /**
     * The backlog sent before the deployment, then as many messages per key sent while the beans
     * work: every key arrives whole and in order, across all 8 partitions.
     */
    @Test
    void theBeanTakesEveryPartitionInKeyOrderAndForwardsThroughThePool() throws Exception {
        int perKey = 2 * BACKLOG_PER_KEY;
        Map<String, List<Integer>> seen = new ConcurrentHashMap<>();
        Set<Integer> partitions = ConcurrentHashMap.newKeySet();
        Set<String> threads = ConcurrentHashMap.newKeySet();
        try (Connection c = factory().createConnection()) {
            Session s = c.createSession();
            s.createConsumer(s.createQueue("ee.processed")).setMessageListener(m -> {
                try {
                    String[] keyAndSeq = ((TextMessage) m).getText().split(":", 2);
                    seen.computeIfAbsent(keyAndSeq[0], k -> java.util.Collections.synchronizedList(new ArrayList<>()))
                            .add(Integer.parseInt(keyAndSeq[1]));
                    partitions.add(m.getIntProperty("partition"));
                    threads.add(m.getStringProperty("handledBy"));
                } catch (JMSException e) {
                    throw new IllegalStateException(e);
                }
            });
            c.start();
            sendOrders(BACKLOG_PER_KEY, perKey);
            await("every message forwarded").atMost(WAIT).until(() -> total(seen) >= KEYS * perKey);
        }
        assertEquals(KEYS * perKey, total(seen), "each message forwarded once");
        List<Integer> whole =
                java.util.stream.IntStream.range(0, perKey).boxed().toList();
        for (Map.Entry<String, List<Integer>> e : seen.entrySet()) {
            assertEquals(whole, new ArrayList<>(e.getValue()), "key " + e.getKey() + " whole and in order");
        }
        assertEquals(8, partitions.size(), "every partition consumed: " + partitions);
        assertTrue(
                threads.stream().noneMatch(t -> t.startsWith("partita-")),
                "beans run on the server's threads (its WorkManager), not the client library's: " + threads);
    }

    @Test
    void sendsThroughThePoolAndAnInjectedContextCommitAndRollBackWithTheTransaction() throws Exception {
        try (Connection c = factory().createConnection()) {
            Session s = c.createSession();
            MessageConsumer tx = s.createConsumer(s.createQueue("ee.tx"));
            c.start();
            assertEquals("rolled back", get("/app/send?text=undone&fail=true"));
            assertEquals("committed", get("/app/send?text=done"));
            Set<String> got = new HashSet<>();
            for (int i = 0; i < 2; i++) {
                Message m = tx.receive(WAIT.toMillis());
                assertNotNull(m, "the committed sends arrive");
                got.add(((TextMessage) m).getText());
            }
            assertEquals(Set.of("done/pool", "done/context"), got, "both committed sends, nothing rolled back");
            assertNull(tx.receive(1_000), "nothing of the rolled back transaction");
        }
    }

    @Test
    void aMessageTheBeanKeepsFailingIsDeadLetteredAfterItsAttempts() throws Exception {
        try (Connection c = factory().createConnection()) {
            Session s = c.createSession();
            s.createProducer(s.createQueue("ee.poison")).send(s.createTextMessage("poison"));
            MessageConsumer dead = s.createConsumer(s.createQueue("ee.dead"));
            c.start();
            Message m = dead.receive(WAIT.toMillis());
            assertNotNull(m, "dead-lettered after its attempts\n" + payara.log());
            assertEquals("poison", ((TextMessage) m).getText());
            assertEquals(3, m.getIntProperty("JMS_PARTITA_DeliveryCount"), "after three attempts");
            assertEquals("ee.poison", m.getStringProperty("JMS_PARTITA_OriginalDestination"));
        }
    }

    @Test
    void anAdministeredQueueServesResourceLookupAndTheBeansDestinationLookup() throws Exception {
        try (Connection c = factory().createConnection()) {
            Session s = c.createSession();
            MessageConsumer done = s.createConsumer(s.createQueue("ee.lookup.done"));
            c.start();
            assertTrue(get("/app/lookup?text=looked-up").startsWith("sent to"));
            Message m = done.receive(WAIT.toMillis());
            assertNotNull(m, "the bean on the administered queue forwarded it\n" + payara.log());
            assertEquals("looked-up", ((TextMessage) m).getText());
            assertFalse(m.getJMSRedelivered());
        }
    }

    @Test
    void aDurableTopicBeanGetsWhatIsPublishedFromItsDeploymentOn() throws Exception {
        try (Connection c = factory().createConnection()) {
            Session s = c.createSession();
            s.createProducer(s.createTopic("ee/news")).send(s.createTextMessage("extra, extra"));
            MessageConsumer forwarded = s.createConsumer(s.createQueue("ee.news.durable"));
            c.start();
            Message m = forwarded.receive(WAIT.toMillis());
            assertNotNull(m, "the durable bean got the publication\n" + payara.log());
            assertEquals("extra, extra", ((TextMessage) m).getText());
        }
    }

    @Test
    void aBeansReceiveSendAndDatabaseInsertCommitOrRollBackTogether() throws Exception {
        try (Connection c = factory().createConnection()) {
            Session s = c.createSession();
            MessageProducer p = s.createProducer(s.createQueue("ee.recorded"));
            p.send(s.createTextMessage("fail-1"));
            p.send(s.createTextMessage("keep-1"));
            MessageConsumer done = s.createConsumer(s.createQueue("ee.recorded.done"));
            MessageConsumer dead = s.createConsumer(s.createQueue("ee.recorded.dead"));
            c.start();
            Message kept = done.receive(WAIT.toMillis());
            assertNotNull(kept, "the committed transaction's send\n" + payara.log());
            assertEquals("keep-1", ((TextMessage) kept).getText());
            Message failed = dead.receive(WAIT.toMillis());
            assertNotNull(failed, "the failing message dead-lettered after its attempts\n" + payara.log());
            assertEquals("fail-1", ((TextMessage) failed).getText());
            assertNull(done.receive(1_000), "none of the rolled back sends");
        }
        assertEquals(
                "keep-1\n", get("/app/rows"), "only the committed insert: the failing one rolled back three times");
    }

    /** Sends sequence numbers {@code from} (included) to {@code to} (excluded) of every key to {@code ee.orders}. */
    private static void sendOrders(int from, int to) throws JMSException {
        try (Connection c = factory().createConnection()) {
            Session s = c.createSession();
            MessageProducer p = s.createProducer(s.createQueue("ee.orders"));
            for (int i = from; i < to; i++) {
                for (int k = 0; k < KEYS; k++) {
                    TextMessage m = s.createTextMessage("key" + k + ":" + i);
                    m.setStringProperty("JMSXGroupID", "key" + k);
                    p.send(m);
                }
            }
        }
    }

    private static int total(Map<String, List<Integer>> seen) {
        return seen.values().stream().mapToInt(List::size).sum();
    }

    private static String get(String path) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + payara.httpPort() + "/" + APP + path))
                                .timeout(WAIT)
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body() + "\n" + payara.log());
        return r.body();
    }

    private static PartitaConnectionFactory factory() {
        return new PartitaConnectionFactory(node.url());
    }
}
