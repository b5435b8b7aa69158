package org.partita.ee;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.partita.ee.app.Forwarder;
import org.partita.jms.api.PartitaAdmin;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.protocol.PartitionKeys;
import org.partita.samples.mdb.MachineEventSender;

/**
 * The resource adapter in a real WildFly (standalone-full), started by Arquillian from the
 * distribution the build unpacked: the .rar and a test application are deployed, and the
 * application's beans work against a Partita node in this JVM.
 */
@Tag("slow")
@Tag("wildfly")
@RunAsClient
@ExtendWith(PartitaNodeForWildFly.class)
@ExtendWith(ArquillianExtension.class)
class WildFlyResourceAdapterTest {
    private static final long WAIT_MS = 30_000;
    private static final long NOTHING_MS = 1_000;
    private static final int KEYS = 16;
    private static final int PER_KEY = 25;

    @Deployment(name = "rar", order = 1, testable = false)
    static ResourceAdapterArchive adapter() {
        return Deployments.adapter();
    }

    @Deployment(name = "app", order = 2, testable = false)
    static WebArchive application() {
        return ShrinkWrap.create(WebArchive.class, "partita-app.war")
                .addPackage(Forwarder.class.getPackage())
                .addAsWebInfResource(new StringAsset(Deployments.RA_BINDING), "jboss-ejb3.xml")
                .addAsWebInfResource(new StringAsset("""
                        <datasources xmlns="http://www.jboss.org/ironjacamar/schema">
                          <xa-datasource jndi-name="java:jboss/datasources/PartitaEeXA" pool-name="PartitaEeXA">
                            <xa-datasource-property name="URL">jdbc:h2:mem:partita-ee;DB_CLOSE_DELAY=-1</xa-datasource-property>
                            <driver>h2</driver>
                            <security><user-name>sa</user-name><password>sa</password></security>
                          </xa-datasource>
                        </datasources>
                        """), "partita-ds.xml");
    }

    /** The message-driven bean sample's war as the samples module builds it (samples/target/partita-mdb-sample.war). */
    @Deployment(name = "sample", order = 3, testable = false)
    static WebArchive sample() {
        return ShrinkWrap.create(WebArchive.class, "partita-mdb-sample.war")
                .merge(ShrinkWrap.createFromZipFile(
                        WebArchive.class, new java.io.File(System.getProperty("partita.sample.war"))));
    }

    @ArquillianResource
    @OperateOnDeployment("app")
    URL app;

    @ArquillianResource
    @OperateOnDeployment("sample")
    URL sample;

    @Test
    void anMdbServesEveryPartitionOfAnEightPartitionQueueAndKeepsEachKeyInOrder() throws Exception {
        Set<Integer> partitions = new HashSet<>();
        List<String> keys = new ArrayList<>();
        for (int k = 0; keys.size() < KEYS; k++) {
            String key = "machine-" + k;
            if (partitions.size() < 8 && !partitions.add(PartitionKeys.partition(key, 8))) {
                continue; // the first keys cover every partition once
            }
            keys.add(key);
        }
        assertEquals(8, partitions.size());
        try (Connection c = factory().createConnection()) {
            Session s = c.createSession();
            MessageProducer p = s.createProducer(s.createQueue("ee.orders"));
            for (int i = 0; i < PER_KEY; i++) {
                for (String key : keys) {
                    TextMessage m = s.createTextMessage(key + ":" + i);
                    m.setStringProperty("JMSXGroupID", key);
                    p.send(m);
                }
            }
        }
        Map<String, List<Integer>> seen = new HashMap<>();
        Set<String> threads = new HashSet<>();
        try (Connection c = factory().createConnection()) {
            c.start();
            Session s = c.createSession();
            var consumer = s.createConsumer(s.createQueue("ee.processed"));
            for (int n = 0; n < KEYS * PER_KEY; n++) {
                TextMessage m = (TextMessage) consumer.receive(WAIT_MS);
                assertNotNull(m, "only " + n + " of " + KEYS * PER_KEY + " messages were processed");
                String[] parts = m.getText().split(":");
                seen.computeIfAbsent(parts[0], k -> new ArrayList<>()).add(Integer.parseInt(parts[1]));
                assertEquals(
                        PartitionKeys.partition(parts[0], 8),
                        m.getIntProperty("partition"),
                        "the delivered message names its partition");
                threads.add(m.getStringProperty("handledBy"));
            }
            assertNull(consumer.receive(NOTHING_MS), "each message is processed once");
        }
        assertTrue(
                threads.stream().noneMatch(t -> t.startsWith("partita-")),
                "the beans run on the server's work manager, not the client's threads: " + threads);
        for (String key : keys) {
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < PER_KEY; i++) {
                expected.add(i);
            }
            assertEquals(expected, seen.get(key), "key " + key + " in order");
        }
        try (PartitaAdmin admin = PartitaAdmin.connect(factory())) {
            List<Map<String, String>> consumers = admin.consumers("ee.orders");
            assertEquals(8, consumers.size(), "one endpoint consumer per partition: " + consumers);
            Set<String> owned = new HashSet<>();
            for (Map<String, String> consumer : consumers) {
                assertEquals(1, consumer.get("partitions").split(",").length, "one partition each: " + consumer);
                owned.add(consumer.get("partitions"));
            }
            assertEquals(8, owned.size(), "every partition is served");
        }
    }

    @Test
    void aFailingMdbRollsBackAndTheMessageIsRedeliveredThenDeadLettered() throws Exception {
        send("ee.poison", "poison");
        List<Integer> attempts = new ArrayList<>();
        try (Connection c = factory().createConnection()) {
            c.start();
            Session s = c.createSession();
            var notes = s.createConsumer(s.createQueue("ee.notes"));
            for (int i = 0; i < 3; i++) {
                Message note = notes.receive(WAIT_MS);
                assertNotNull(note, "attempt " + (i + 1) + " was made");
                attempts.add(note.getIntProperty("deliveryCount"));
            }
            TextMessage dead =
                    (TextMessage) s.createConsumer(s.createQueue("ee.dead")).receive(WAIT_MS);
            assertNotNull(dead, "after 3 attempts the message is dead-lettered");
            assertEquals("poison", dead.getText());
            assertNull(notes.receive(NOTHING_MS), "no fourth attempt");
        }
        assertEquals(List.of(1, 2, 3), attempts, "each attempt redelivered, counted");
    }

    @Test
    void anEjbThatSendsInATransactionThatRollsBackSendsNothing() throws Exception {
        assertTrue(get("/app/send?text=kept&fail=false").startsWith("sent"));
        assertTrue(get("/app/send?text=dropped&fail=true").startsWith("rolled back"));
        try (Connection c = factory().createConnection()) {
            c.start();
            Session s = c.createSession();
            var sent = s.createConsumer(s.createQueue("ee.sent"));
            assertEquals("kept", ((TextMessage) sent.receive(WAIT_MS)).getText());
            assertNull(sent.receive(NOTHING_MS), "the rolled-back send never arrives");
        }
    }

    @Test
    void anMdbThatWritesToTheDatabaseAndRepliesInOneXaTransactionLeavesNeitherWhenItFails() throws Exception {
        send("ee.requests", "request-ok");
        send("ee.requests", "request-fail");
        try (Connection c = factory().createConnection()) {
            c.start();
            Session s = c.createSession();
            var replies = s.createConsumer(s.createQueue("ee.replies"));
            assertEquals("reply to request-ok", ((TextMessage) replies.receive(WAIT_MS)).getText());
            TextMessage dead =
                    (TextMessage) s.createConsumer(s.createQueue("ee.dead")).receive(WAIT_MS);
            assertNotNull(dead, "the failing request is dead-lettered after its attempts");
            assertEquals("request-fail", dead.getText());
            assertNull(replies.receive(NOTHING_MS), "no reply to the failing request");
        }
        assertEquals("request-ok\n", get("/app/rows"), "only the successful request wrote a row");
    }

    @Test
    void endpointsComeBackByThemselvesAfterTheNodeRestarts() throws Exception {
        PartitaNodeForWildFly.restart();
        List<String> keys = List.of("after-restart-a", "after-restart-b", "after-restart-c");
        try (Connection c = factory().createConnection()) {
            Session s = c.createSession();
            MessageProducer p = s.createProducer(s.createQueue("ee.orders"));
            for (String key : keys) {
                TextMessage m = s.createTextMessage(key + ":0");
                m.setStringProperty("JMSXGroupID", key);
                p.send(m);
            }
        }
        Set<String> processed = new HashSet<>();
        try (Connection c = factory().createConnection()) {
            c.start();
            Session s = c.createSession();
            var consumer = s.createConsumer(s.createQueue("ee.processed"));
            for (int i = 0; i < keys.size(); i++) {
                TextMessage m = (TextMessage) consumer.receive(WAIT_MS);
                assertNotNull(m, "the message-driven bean consumes again after the restart");
                processed.add(m.getText());
            }
        }
        assertEquals(Set.of("after-restart-a:0", "after-restart-b:0", "after-restart-c:0"), processed);
        try (PartitaAdmin admin = PartitaAdmin.connect(factory())) {
            assertEquals(8, admin.consumers("ee.orders").size(), "every partition is served again");
        }
    }

    @Test
    void theMessageDrivenBeanSampleServesEveryPartitionInOrder() throws Exception {
        assertTrue(MachineEventSender.run(
                PartitaNodeForWildFly.node().url(),
                40,
                10,
                URI.create(sample.toString().replaceAll("/$", "") + "/ledger"),
                60_000));
        try (PartitaAdmin admin = PartitaAdmin.connect(factory())) {
            assertEquals(8, admin.consumers("machine-events").size(), "one consumer per partition");
        }
    }

    private static PartitaConnectionFactory factory() {
        return new PartitaConnectionFactory(PartitaNodeForWildFly.node().url());
    }

    private static void send(String queue, String text) throws Exception {
        try (Connection c = factory().createConnection()) {
            Session s = c.createSession();
            s.createProducer(s.createQueue(queue)).send(s.createTextMessage(text));
        }
    }

    private String get(String path) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(app.toString().replaceAll("/$", "") + path))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }
}
