package org.partita.broker.metrics;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.protocol.auth.PasswordHash;

/** The Prometheus endpoint: names, labels, values, absence of what is not measured, the same figures over JMX, authentication. */
@Tag("slow")
@Timeout(60)
class MetricsEndpointTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    private PartitaNode start(NodeConfig c) {
        return PartitaNode.start(c.withPort(0).withDataDir(dir.resolve("data")));
    }

    static HttpResponse<String> get(PartitaNode node, String path, String user, String password) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.metricsPort() + path));
        if (user != null) {
            b.header(
                    "Authorization",
                    "Basic "
                            + Base64.getEncoder()
                                    .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The value of one sample line, by metric name and exact label set. */
    static double sample(String exposition, String metric, String labels) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(metric + labels) + " (\\S+)$")
                .matcher(exposition);
        assertTrue(m.find(), "no sample " + metric + labels + " in:\n" + exposition);
        return Double.parseDouble(m.group(1));
    }

    @Test
    void queueFiguresAreScrapedWithPrometheusNamesAndLabels() throws Exception {
        try (PartitaNode node = start(NodeConfig.defaults().withMetricsPort(0));
                Connection c = new PartitaConnectionFactory(node.url()).createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue("orders"));
            for (int i = 0; i < 5; i++) {
                p.send(s.createTextMessage("o" + i));
            }
            jakarta.jms.BytesMessage large = s.createBytesMessage();
            large.writeBytes(new byte[3 << 20]); // a large message: its body kept apart, in large/
            s.createProducer(s.createQueue("bulky")).send(large);
            s.createProducer(s.createQueue("idle")).close();
            c.start();
            MessageConsumer consumer = s.createConsumer(s.createQueue("orders"));
            assertNotNull(consumer.receive(5000));
            assertNotNull(consumer.receive(5000));
            consumer.close();

            String orders = "{partition=\"0\",queue=\"orders\",subscription=\"\"}";
            // what the closed consumer had prefetched comes back to the queue
            await().atMost(Duration.ofSeconds(10))
                    .until(() ->
                            sample(get(node, "/metrics", null, null).body(), "partita_queue_messages", orders) == 3.0);
            HttpResponse<String> r = get(node, "/metrics", null, null);
            assertEquals(200, r.statusCode());
            assertTrue(
                    r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"),
                    r.headers().toString());
            String text = r.body();
            assertEquals(5.0, sample(text, "partita_queue_messages_enqueued_total", orders));
            assertEquals(2.0, sample(text, "partita_queue_messages_acknowledged_total", orders));
            assertEquals(3.0, sample(text, "partita_queue_messages", orders), "three wait once the consumer closed");
            assertTrue(sample(text, "partita_queue_oldest_message_age_seconds", orders) >= 0);
            assertFalse(
                    text.contains("partita_queue_oldest_message_age_seconds{partition=\"0\",queue=\"idle\""),
                    "an empty queue has no oldest age, rather than zero");
            assertEquals(1.0, sample(text, "partita_connections", ""));
            assertTrue(sample(text, "partita_network_received_bytes_total", "") > 0);
            assertTrue(sample(text, "partita_store_size_bytes", "") > 0);
            assertEquals(1.0, sample(text, "partita_large_bodies", ""));
            assertEquals(3 << 20, sample(text, "partita_large_body_bytes", ""));
            assertTrue(text.contains("jvm_memory_used_bytes{"), "heap figures are there");
            assertTrue(sample(text, "partita_resident_payload_limit_bytes", "") > 0);
            assertTrue(sample(text, "partita_in_flight_limit_bytes", "") > 0);
            assertTrue(sample(text, "partita_in_flight_bytes", "") >= 0, "the in-flight figure is there");
            assertTrue(sample(text, "partita_store_syncs_total", "") >= 1, "each persistent send was synced");
            assertTrue(sample(text, "partita_store_commit_batches_total", "")
                    >= sample(text, "partita_store_commit_groups_total", ""));
            assertTrue(sample(text, "partita_store_checkpoint_seconds_count", "") >= 0);
            assertTrue(sample(text, "partita_store_checkpoint_wait_seconds_total", "") >= 0);
            assertEquals(
                    0.0,
                    sample(text, "partita_store_writer_allocated_bytes_total", ""),
                    "the journal's space was prepared ahead of the writer");
            assertTrue(sample(text, "partita_store_checkpoint_running", "") >= 0);
            assertTrue(sample(text, "partita_store_checkpoint_pending_bytes", "") >= 0);

            // the Grafana dashboard in docs/ is built on names the node exports
            String dashboard = Files.readString(Path.of("..", "docs", "grafana-dashboard.json"));
            Matcher used = Pattern.compile("partita_[a-z_]+").matcher(dashboard);
            int found = 0;
            while (used.find()) {
                found++;
                assertTrue(
                        text.contains("\n" + used.group() + "{") || text.contains("\n" + used.group() + " "),
                        "the dashboard uses " + used.group() + ", which the node does not export");
            }
            assertTrue(found > 20, "the dashboard's queries were read");

            // the same figure over JMX, under the org.partita.metrics domain
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            Set<ObjectName> names = server.queryNames(new ObjectName("org.partita.metrics:*"), null);
            ObjectName enqueued = names.stream()
                    .filter(n -> n.toString().contains("partitaQueueMessagesEnqueued")
                            && n.toString().contains("queue.orders"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no JMX meter for orders among " + names));
            assertEquals(5.0, ((Number) server.getAttribute(enqueued, "Count")).doubleValue());
        }
    }

    @Test
    void deliveriesRedeliveriesDeadLettersAndExpiriesAreCountedAsTheyHappened() throws Exception {
        try (PartitaNode node = start(NodeConfig.defaults().withMetricsPort(0));
                Connection c = new PartitaConnectionFactory(node.url()).createConnection()) {
            Session s = c.createSession(true, Session.SESSION_TRANSACTED);
            jakarta.jms.Queue life = s.createQueue("life?maxDeliveryAttempts=2");
            MessageProducer p = s.createProducer(life);
            jakarta.jms.Message shortLived = s.createTextMessage("expires");
            p.send(shortLived, jakarta.jms.DeliveryMode.PERSISTENT, 4, 1);
            p.send(s.createTextMessage("a"));
            p.send(s.createTextMessage("b"));
            s.commit();
            long expiry = shortLived.getJMSExpiration();
            await().atMost(Duration.ofSeconds(5)).until(() -> System.currentTimeMillis() > expiry);
            c.start();
            MessageConsumer consumer = s.createConsumer(s.createQueue("life"));
            assertEquals(
                    "a",
                    ((jakarta.jms.TextMessage) consumer.receive(5000)).getText(),
                    "the expired message is skipped");
            s.commit();
            for (int attempt = 1; attempt <= 2; attempt++) {
                jakarta.jms.Message b = consumer.receive(5000);
                assertEquals("b", ((jakarta.jms.TextMessage) b).getText());
                assertEquals(attempt > 1, b.getJMSRedelivered());
                s.rollback();
            }

            String labels = "{partition=\"0\",queue=\"life\",subscription=\"\"}";
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> sample(
                                    get(node, "/metrics", null, null).body(),
                                    "partita_queue_messages_dead_lettered_total",
                                    labels)
                            == 1.0);
            String text = get(node, "/metrics", null, null).body();
            assertEquals(3.0, sample(text, "partita_queue_messages_enqueued_total", labels));
            assertEquals(3.0, sample(text, "partita_queue_messages_delivered_total", labels), "a once, b twice");
            assertEquals(1.0, sample(text, "partita_queue_messages_acknowledged_total", labels), "a");
            assertEquals(1.0, sample(text, "partita_queue_messages_redelivered_total", labels), "b's second delivery");
            assertEquals(1.0, sample(text, "partita_queue_messages_expired_total", labels));
            assertEquals(0.0, sample(text, "partita_queue_messages", labels));
            assertEquals(0.0, sample(text, "partita_queue_messages_in_flight", labels));
            assertEquals(1.0, sample(text, "partita_queue_consumers", "{queue=\"life\",subscription=\"\"}"));
            assertEquals(
                    1.0,
                    sample(
                            text,
                            "partita_queue_messages_enqueued_total",
                            "{partition=\"0\",queue=\"DLQ\",subscription=\"\"}"),
                    "b reached the dead-letter queue");
            consumer.close();
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> sample(
                                    get(node, "/metrics", null, null).body(),
                                    "partita_queue_consumers",
                                    "{queue=\"life\",subscription=\"\"}")
                            == 0.0);
        }
    }

    @Test
    void partitionsAndAppIdsHaveTheirOwnLabels() throws Exception {
        try (PartitaNode node = start(NodeConfig.defaults()
                .withMetricsPort(0)
                .withQueue("fan", "mode=fanout&appIds=billing,audit")
                .withQueue("parts", "partitions=3"))) {
            String text = get(node, "/metrics", null, null).body();
            for (int p = 0; p < 3; p++) {
                assertEquals(
                        0.0,
                        sample(
                                text,
                                "partita_queue_messages",
                                "{partition=\"" + p + "\",queue=\"parts\",subscription=\"\"}"));
            }
            assertEquals(
                    0.0,
                    sample(text, "partita_queue_messages", "{partition=\"0\",queue=\"fan\",subscription=\"billing\"}"));
        }
    }

    @Test
    void metricsAreOffByDefault() throws Exception {
        try (PartitaNode node = start(NodeConfig.defaults())) {
            assertEquals(NodeConfig.METRICS_OFF, node.metricsPort());
        }
    }

    /** Users alice (role admins: manage on every name) and bob (role apps: send and consume only), password s3cret. */
    private NodeConfig withUsersAndRoles(boolean rolesFile) throws Exception {
        Path users = dir.resolve("users.properties");
        String hash = PasswordHash.create("s3cret".toCharArray());
        Files.writeString(users, "alice = " + hash + "\nbob = " + hash + "\n");
        NodeConfig c = NodeConfig.defaults().withMetricsPort(0).withUsersFile(users);
        if (!rolesFile) {
            return c;
        }
        Path roles = dir.resolve("roles.properties");
        Files.writeString(
                roles,
                "role admins = alice\nallow admins = manage on >\nrole apps = bob\nallow apps = send, consume on >\n");
        return c.withSecurity(
                org.partita.broker.config.SecuritySettings.defaults().withRolesFile(roles));
    }

    @Test
    void withAUsersFileTheEndpointAndTheConsoleAskForANodeUser() throws Exception {
        try (PartitaNode node = start(withUsersAndRoles(true))) {
            HttpResponse<String> anonymous = get(node, "/metrics", null, null);
            assertEquals(401, anonymous.statusCode());
            assertTrue(anonymous
                    .headers()
                    .firstValue("WWW-Authenticate")
                    .orElse("")
                    .startsWith("Basic"));
            assertEquals(401, get(node, "/api/overview", "mallory", "s3cret").statusCode());
            assertEquals(401, get(node, "/", null, null).statusCode());
            assertEquals(200, get(node, "/metrics", "alice", "s3cret").statusCode());
            assertEquals(200, get(node, "/metrics", "alice", "s3cret").statusCode(), "a second time, remembered");
            HttpResponse<String> api = get(node, "/api/overview", "alice", "s3cret");
            assertEquals(200, api.statusCode());
            assertTrue(api.body().contains("\"authentication\":true"), api.body());
            assertEquals(
                    401, get(node, "/metrics", "alice", "wrong").statusCode(), "a wrong password is never remembered");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> get(node, "/metrics", "alice", "s3cret").statusCode() == 200);
            assertTrue(
                    get(node, "/metrics", "alice", "s3cret").body().contains("partita_logins_failed_total 2.0"),
                    "HTTP refusals with credentials are counted with the node's failed logins");
        }
    }

    @Test
    void aUserWithoutTheManagePermissionIsRefusedAsInTheAdminApi() throws Exception {
        try (PartitaNode node = start(withUsersAndRoles(true))) {
            for (String path : new String[] {"/metrics", "/api/overview", "/"}) {
                HttpResponse<String> bob = get(node, path, "bob", "s3cret");
                assertEquals(403, bob.statusCode(), path);
                assertEquals(
                        "forbidden: user 'bob' may not read the node's figures (permission manage on >)\n",
                        bob.body(),
                        path);
                assertEquals(200, get(node, path, "alice", "s3cret").statusCode(), path);
            }
        }
    }

    @Test
    void withUsersButNoRolesFileNobodyReadsTheFiguresAsNobodyAdministers() throws Exception {
        try (PartitaNode node = start(withUsersAndRoles(false))) {
            assertEquals(403, get(node, "/metrics", "alice", "s3cret").statusCode());
            assertEquals(403, get(node, "/api/overview", "alice", "s3cret").statusCode());
            assertEquals(401, get(node, "/metrics", null, null).statusCode(), "authentication comes first");
        }
    }

    @Test
    void withoutAUsersFileOnlyTheNodesOwnMachineIsServed() throws Exception {
        java.net.InetAddress outside = org.partita.broker.it.LocalAddresses.nonLoopbackIpv4();
        org.junit.jupiter.api.Assumptions.assumeTrue(outside != null, "this machine has no non-loopback IPv4 address");
        try (PartitaNode node = start(NodeConfig.defaults().withHost("0.0.0.0").withMetricsPort(0))) {
            assertEquals(200, get(node, "/metrics", null, null).statusCode(), "from loopback");
            for (String path : new String[] {"/metrics", "/api/overview", "/"}) {
                HttpResponse<String> remote = HTTP.send(
                        HttpRequest.newBuilder(URI.create(
                                        "http://" + outside.getHostAddress() + ":" + node.metricsPort() + path))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(403, remote.statusCode(), path);
                assertTrue(remote.body().contains("own machine only"), remote.body());
            }
        }
    }

    @Test
    void afterAFailedLoginOverHttpTheNextAttemptOfThatUserAndAddressWaits() throws Exception {
        try (PartitaNode node = start(withUsersAndRoles(true))) {
            assertEquals(200, get(node, "/metrics", "alice", "s3cret").statusCode(), "remembered from now on");
            assertEquals(401, get(node, "/metrics", "alice", "guess-1").statusCode());
            // the next guesses come before the wait is over: refused at once, not checked, and a right
            // password remembered from before does not get through either
            for (String guess : new String[] {"guess-2", "guess-3", "s3cret"}) {
                HttpResponse<String> early = get(node, "/metrics", "alice", guess);
                assertEquals(429, early.statusCode(), guess);
                assertTrue(
                        early.headers().firstValue("Retry-After").isPresent(),
                        early.headers().toString());
            }
            assertEquals(
                    401,
                    get(node, "/metrics", "bob", "any").statusCode(),
                    "another user is not held up by alice's wait");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> get(node, "/metrics", "alice", "s3cret").statusCode() == 200);
            assertTrue(
                    get(node, "/metrics", "alice", "s3cret").body().contains("partita_logins_failed_total 2.0"),
                    "only the two checked passwords count as failed logins, not the attempts refused as too early");
        }
    }

    @Test
    void theConsoleIsReadOnly() throws Exception {
        try (PartitaNode node = start(NodeConfig.defaults().withMetricsPort(0))) {
            HttpRequest post = HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + node.metricsPort() + "/api/overview"))
                    .POST(HttpRequest.BodyPublishers.ofString("{}"))
                    .build();
            assertEquals(
                    405, HTTP.send(post, HttpResponse.BodyHandlers.ofString()).statusCode());
            assertEquals(404, get(node, "/nothing-here", null, null).statusCode());
            HttpResponse<String> page = get(node, "/", null, null);
            assertEquals(200, page.statusCode());
            assertTrue(page.body().contains("<title>Partita console</title>"));
        }
    }
}
