package org.partita.ee;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.partita.ee.context.ContextNames;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * What a Jakarta EE application meets first, in WildFly with the adapter: {@code @Inject JMSContext}
 * through the server's default JMS connection factory (pointed at Partita, README step 5) and
 * through {@code @JMSConnectionFactory}, joining the bean's transaction; queues and topics bound
 * from the adapter's administered objects, used by {@code @Resource} and by an MDB's
 * {@code destinationLookup}; durable topic MDBs with a clientId and shared without one.
 */
@Tag("slow")
@Tag("wildfly")
@RunAsClient
@ExtendWith(PartitaNodeForWildFly.class)
@ExtendWith(ArquillianExtension.class)
class JakartaEeApiWildFlyTest {
    private static final long WAIT_MS = 30_000;
    private static final long NOTHING_MS = 1_000;

    @Deployment(name = "rar", order = 1, testable = false)
    static ResourceAdapterArchive adapter() {
        return Deployments.adapter();
    }

    @Deployment(name = "context-app", order = 2, testable = false)
    static WebArchive application() {
        return ShrinkWrap.create(WebArchive.class, "partita-context.war")
                .addPackage(ContextNames.class.getPackage())
                .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml")
                .addAsWebInfResource(new StringAsset(Deployments.RA_BINDING), "jboss-ejb3.xml");
    }

    @ArquillianResource
    @OperateOnDeployment("context-app")
    URL app;

    @Test
    void anInjectedContextSendsInTheBeansTransactionThroughTheDefaultAndTheNamedFactory() throws Exception {
        for (boolean viaDefault : new boolean[] {true, false}) {
            get("/send?text=dropped&fail=true&default=" + viaDefault);
            get("/send?text=kept-" + viaDefault + "&fail=false&default=" + viaDefault);
        }
        try (Connection c = factory().createConnection()) {
            c.start();
            Session s = c.createSession();
            var consumer = s.createConsumer(s.createQueue("ee.context"));
            TextMessage first = (TextMessage) consumer.receive(WAIT_MS);
            assertNotNull(first, "the send through the default connection factory arrived");
            assertEquals("kept-true", first.getText());
            assertEquals("default", first.getStringProperty("via"));
            TextMessage second = (TextMessage) consumer.receive(WAIT_MS);
            assertNotNull(second, "the send through the named connection factory arrived");
            assertEquals("kept-false", second.getText());
            assertNull(consumer.receive(NOTHING_MS), "the rolled-back sends never arrive");
        }
    }

    @Test
    void aBeanConsumesTheAdministeredQueueItsDestinationLookupNames() throws Exception {
        try (Connection c = factory().createConnection()) {
            c.start();
            Session s = c.createSession();
            s.createProducer(s.createQueue("ee.lookup")).send(s.createTextMessage("by lookup"));
            TextMessage done = (TextMessage)
                    s.createConsumer(s.createQueue("ee.lookup.done")).receive(WAIT_MS);
            assertNotNull(done, "the bean on the administered queue forwarded it");
            assertEquals("forwarded by lookup", done.getText());
        }
    }

    @Test
    void durableTopicBeansWithAClientIdAndSharedWithoutOneEachGetEveryPublication() throws Exception {
        try (Connection c = factory().createConnection()) {
            c.start();
            Session s = c.createSession();
            s.createProducer(s.createTopic("ee/news")).send(s.createTextMessage("extra, extra"));
            for (String queue : new String[] {"ee.news.durable", "ee.news.shared"}) {
                TextMessage m =
                        (TextMessage) s.createConsumer(s.createQueue(queue)).receive(WAIT_MS);
                assertNotNull(m, queue + ": the bean got the publication");
                assertEquals("extra, extra", m.getText());
            }
        }
    }

    /** With the README's {@code <recovery>} element, WildFly registers the pool for transaction recovery. */
    @Test
    void thePooledFactoryIsRegisteredForTransactionRecovery() throws Exception {
        java.nio.file.Path log =
                java.nio.file.Path.of(System.getProperty("jboss.home"), "standalone", "log", "server.log");
        String all = java.nio.file.Files.readString(log);
        String text = all.substring(Math.max(0, all.lastIndexOf("WFLYSRV0049"))); // since this server started
        assertTrue(text.contains("java:/jms/partita/CF"), "the pool was deployed in this server's log");
        assertFalse(text.contains("IJ020016"), "no 'Missing <recovery> element. XA recovery disabled'");
    }

    private static PartitaConnectionFactory factory() {
        return new PartitaConnectionFactory(PartitaNodeForWildFly.node().url());
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
