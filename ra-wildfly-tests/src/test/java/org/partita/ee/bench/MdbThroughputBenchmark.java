package org.partita.ee.bench;

import static org.awaitility.Awaitility.await;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import org.awaitility.core.ConditionTimeoutException;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;
import org.partita.ee.Deployments;
import org.partita.ee.PartitaNodeForWildFly;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * MDB throughput in WildFly on a backlog of persistent keyed messages (64 keys), drained by 8
 * endpoint consumers: Partita's adapter on an 8-partition queue with and without XA, next to
 * WildFly's own messaging (the ActiveMQ Artemis resource adapter, in-VM, 8 sessions) on the same
 * load. Each variant's bean is deployed alone once its backlog is in place; the rate is messages
 * over the time from its first to its last message. Run by hand (docs/performance.md):
 * {@code mvn -B verify -pl ra-wildfly-tests -am -Dtest=MdbThroughputBenchmark -Dpartita.bench=true}.
 */
@Tag("slow")
@Tag("wildfly")
@RunAsClient
@EnabledIfSystemProperty(named = "partita.bench", matches = "true")
@ExtendWith(PartitaNodeForWildFly.class)
@ExtendWith(ArquillianExtension.class)
class MdbThroughputBenchmark {
    private static final int MESSAGES = Integer.getInteger("partita.bench.messages", 20_000);
    private static final String BASE = "http://127.0.0.1:18080/";

    @ArquillianResource
    private Deployer deployer;

    @Deployment(name = "rar", order = 1, testable = false)
    static ResourceAdapterArchive adapter() {
        return Deployments.adapter();
    }

    /** WildFly's own queues, and a servlet that loads them. */
    @Deployment(name = "queues", order = 2, testable = false)
    static WebArchive queues() {
        return ShrinkWrap.create(WebArchive.class, "bench-queues.war")
                .addClasses(BenchServlet.class, Tally.class)
                .addAsWebInfResource(new StringAsset("""
                        <messaging-deployment xmlns="urn:jboss:messaging-activemq-deployment:1.0">
                          <server>
                            <jms-destinations>
                              <jms-queue name="benchXa"><entry name="java:/jms/queue/benchXa"/></jms-queue>
                              <jms-queue name="benchPlain"><entry name="java:/jms/queue/benchPlain"/></jms-queue>
                            </jms-destinations>
                          </server>
                        </messaging-deployment>
                        """), "bench-jms.xml");
    }

    @Deployment(name = "partita-xa", managed = false, testable = false)
    static WebArchive partitaXa() {
        return bench("partita-xa", XaCounter.class)
                .addAsWebInfResource(new StringAsset(Deployments.RA_BINDING), "jboss-ejb3.xml");
    }

    @Deployment(name = "partita-plain", managed = false, testable = false)
    static WebArchive partitaPlain() {
        return bench("partita-plain", PlainCounter.class)
                .addAsWebInfResource(new StringAsset(Deployments.RA_BINDING), "jboss-ejb3.xml");
    }

    @Deployment(name = "artemis-xa", managed = false, testable = false)
    static WebArchive artemisXa() {
        return bench("artemis-xa", ArtemisXaCounter.class);
    }

    @Deployment(name = "artemis-plain", managed = false, testable = false)
    static WebArchive artemisPlain() {
        return bench("artemis-plain", ArtemisPlainCounter.class);
    }

    private static WebArchive bench(String name, Class<?> bean) {
        return ShrinkWrap.create(WebArchive.class, name + ".war").addClasses(bean, BenchServlet.class, Tally.class);
    }

    @Test
    void mdbThroughput() throws Exception {
        StringBuilder table =
                new StringBuilder("| variant | messages | seconds | messages/s |\n| --- | --- | --- | --- |\n");
        table.append(run("partita-xa", () -> loadPartita("bench.xa?partitions=8")));
        table.append(run("partita-plain", () -> loadPartita("bench.plain?partitions=8")));
        table.append(run("artemis-xa", () -> get(BASE + "bench-queues/bench/load?queue=benchXa&count=" + MESSAGES)));
        table.append(
                run("artemis-plain", () -> get(BASE + "bench-queues/bench/load?queue=benchPlain&count=" + MESSAGES)));
        System.out.println("MDB throughput, " + MESSAGES + " persistent messages, 64 keys, 8 consumers:\n" + table);
    }

    private interface Load {
        void run() throws Exception;
    }

    private String run(String variant, Load load) throws Exception {
        load.run();
        deployer.deploy(variant);
        try {
            String tally = BASE + variant + "/bench/tally?name=" + variant;
            try {
                await(variant + " done")
                        .atMost(Duration.ofMinutes(5))
                        .pollInterval(Duration.ofMillis(250))
                        .until(() -> Long.parseLong(get(tally).split("\n")[0].substring(6)) >= MESSAGES);
            } catch (ConditionTimeoutException e) {
                // the table reports what was done by the deadline
            }
            String[] figures = get(tally).split("\n");
            long count = Long.parseLong(figures[0].substring(6));
            long millis = Long.parseLong(figures[1].substring(7));
            return String.format(
                    Locale.ROOT,
                    "| %s | %d | %.1f | %.0f |%n",
                    variant,
                    count,
                    millis / 1000.0,
                    count * 1000.0 / Math.max(1, millis));
        } finally {
            deployer.undeploy(variant);
        }
    }

    private static void loadPartita(String queue) throws Exception {
        try (Connection c =
                new PartitaConnectionFactory(PartitaNodeForWildFly.node().url()).createConnection()) {
            Session s = c.createSession(true, Session.SESSION_TRANSACTED);
            MessageProducer p = s.createProducer(s.createQueue(queue));
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            for (int i = 0; i < MESSAGES; i++) {
                TextMessage m = s.createTextMessage("event " + i);
                m.setStringProperty("JMSXGroupID", "m-" + (i % 64));
                p.send(m);
                if (i % 500 == 499) {
                    s.commit();
                }
            }
            s.commit();
        }
    }

    private static String get(String url) throws Exception {
        return HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString())
                .body();
    }
}
