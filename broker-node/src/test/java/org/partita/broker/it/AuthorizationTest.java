package org.partita.broker.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.ConfigException;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.api.PartitaAdmin;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.protocol.auth.PasswordHash;

/** Docs/security.md, point 11: users in roles, permissions per destination pattern, admin needs manage. */
@Tag("slow")
class AuthorizationTest {
    private static final String ROLES = """
            # who is in which role
            role team-a = alice
            role team-b = bob
            role admins = carol
            allow team-a = send, consume, browse, createQueue, durable on a-orders, a/>
            allow team-b = send, consume, browse, createQueue, durable on b-orders, b/>
            allow team-a = send, consume on shared/>
            allow admins = manage on >
            """;

    @TempDir
    Path dir;

    private PartitaNode node;
    private PartitaConnectionFactory cf;

    private void start(String roles) throws Exception {
        Path users = dir.resolve("users.properties");
        StringBuilder u = new StringBuilder();
        for (String name : new String[] {"alice", "bob", "carol"}) {
            u.append(name)
                    .append(" = ")
                    .append(PasswordHash.create(("pw-" + name).toCharArray()))
                    .append('\n');
        }
        Files.writeString(users, u);
        if (roles != null) {
            Files.writeString(dir.resolve("roles.properties"), roles); // found beside the users file
        }
        node = PartitaNode.start(NodeConfig.defaults()
                .withPort(0)
                .withDataDir(dir.resolve("data"))
                .withUsersFile(users));
        cf = new PartitaConnectionFactory(node.url());
    }

    @AfterEach
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    private Connection as(String user) throws JMSException {
        return cf.createConnection(user, "pw-" + user);
    }

    private static void refused(String operation, String destination, Executable call) {
        JMSSecurityException e = assertThrows(JMSSecurityException.class, call);
        String named = destination.equals("this node") ? destination : "'" + destination + "'";
        assertTrue(e.getMessage().contains(operation) && e.getMessage().contains(named), e.getMessage());
    }

    @Test
    void aUserCannotBrowseConsumeSendToOrManageAnotherUsersQueue() throws Exception {
        start(ROLES);
        try (Connection bob = as("bob");
                Connection alice = as("alice");
                Connection carol = as("carol")) {
            Session b = bob.createSession(false, Session.AUTO_ACKNOWLEDGE);
            b.createProducer(b.createQueue("b-orders")).send(b.createTextMessage("bob's order"));

            Session a = alice.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue bobs = a.createQueue("b-orders");
            refused("browse", "b-orders", () -> {
                QueueBrowser browser = a.createBrowser(bobs);
                browser.getEnumeration().hasMoreElements();
            });
            refused("consume from", "b-orders", () -> a.createConsumer(bobs));
            refused("send to", "b-orders", () -> a.createProducer(bobs).send(a.createTextMessage("forged")));
            PartitaAdmin aliceAdmin = PartitaAdmin.on(alice);
            refused("manage", "b-orders", () -> aliceAdmin.deleteQueue("b-orders"));
            refused("manage", "b-orders", () -> aliceAdmin.updateQueue("b-orders", Map.of("maxDeliveryAttempts", "1")));
            refused("manage", "b-orders", () -> aliceAdmin.purgeQueue("b-orders"));
            refused("manage", "this node", aliceAdmin::queues);
            PartitaAdmin bobAdmin = PartitaAdmin.on(bob);
            refused("manage", "b-orders", () -> bobAdmin.deleteQueue("b-orders")); // admin always needs manage

            // nothing happened: bob's message and queue are as they were
            PartitaAdmin admin = PartitaAdmin.on(carol);
            assertTrue(admin.queues().contains("b-orders"));
            assertFalse("1".equals(admin.queueOptions("b-orders").get("maxDeliveryAttempts")));
            bob.start();
            TextMessage m =
                    (TextMessage) b.createConsumer(b.createQueue("b-orders")).receive(5_000);
            assertEquals("bob's order", m.getText());
            assertTrue(a.createProducer(null) != null);
            a.createProducer(a.createQueue("a-orders")).send(a.createTextMessage("alice's own"));
            admin.deleteQueue("b-orders"); // the manage permission may
            assertFalse(admin.queues().contains("b-orders"));
        }
    }

    @Test
    void aUserCannotTakeAnotherUsersClientIdOrDurableSubscription() throws Exception {
        start(ROLES);
        try (Connection bob = as("bob")) {
            bob.setClientID("bob"); // a user's own name is always its client id
            Session b = bob.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic news = b.createTopic("b/news");
            b.createDurableSubscriber(news, "feed").close();
        }
        try (Connection alice = as("alice")) {
            refused("client id", "bob", () -> alice.setClientID("bob"));
        }
        refused(
                "client id",
                "bob",
                () -> new PartitaConnectionFactory(node.url() + "?clientID=bob").createConnection("alice", "pw-alice"));
        try (Connection alice = as("alice")) {
            alice.setClientID("alice");
            Session a = alice.createSession(false, Session.AUTO_ACKNOWLEDGE);
            refused(
                    "durable subscription",
                    "b/news",
                    () -> a.createSharedDurableConsumer(a.createTopic("b/news"), "feed"));
            refused("consume from", "b/news", () -> a.createConsumer(a.createTopic("b/news")));
        }
        try (Connection bob = as("bob")) {
            bob.setClientID("bob");
            bob.createSession(false, Session.AUTO_ACKNOWLEDGE).unsubscribe("feed"); // still there for its owner
        }
    }

    @Test
    void withoutPermissionNoTopicOrQueueComesIntoBeing() throws Exception {
        start(ROLES);
        try (Connection alice = as("alice");
                Connection carol = as("carol")) {
            Session a = alice.createSession(false, Session.AUTO_ACKNOWLEDGE);
            refused(
                    "send to",
                    "b/news",
                    () -> a.createProducer(a.createTopic("b/news")).send(a.createTextMessage("x")));
            refused("consume from", "b/news", () -> a.createConsumer(a.createTopic("b/news")));
            refused("consume from", "somebody-elses", () -> a.createConsumer(a.createQueue("somebody-elses")));
            refused("create", "shared/new", () -> a.createConsumer(a.createQueue("shared/new")));
            refused(
                    "create",
                    "shared/new",
                    () -> a.createProducer(a.createQueue("shared/new")).send(a.createTextMessage("x")));
            refused(
                    "send to",
                    "somebody-elses",
                    () -> a.createProducer(a.createQueue("somebody-elses")).send(a.createTextMessage("x")));
            PartitaAdmin admin = PartitaAdmin.on(carol);
            assertFalse(admin.queues().contains("somebody-elses"));
            assertFalse(admin.queues().contains("shared/new"));
            assertTrue(admin.subscriptions().isEmpty(), admin.subscriptions().toString());
            // alice's own topic and queue work
            alice.start();
            MessageConsumer own = a.createConsumer(a.createTopic("a/news"));
            a.createProducer(a.createTopic("a/news")).send(a.createTextMessage("mine"));
            assertNotNull(own.receive(5_000));
        }
    }

    @Test
    void withUsersButNoRolesFileEveryoneMessagesButNobodyAdministers() throws Exception {
        start(null);
        try (Connection alice = as("alice")) {
            Session a = alice.createSession(false, Session.AUTO_ACKNOWLEDGE);
            a.createProducer(a.createQueue("anything")).send(a.createTextMessage("as before"));
            refused("manage", "this node", () -> PartitaAdmin.on(alice).queues());
        }
    }

    @Test
    void aBadRolesFileStopsTheNodeNamingFileAndLine() throws Exception {
        ConfigException e =
                assertThrows(ConfigException.class, () -> start("role admins = carol\nallow admins = rule on >\n"));
        assertTrue(
                e.getMessage().contains("roles.properties:2") && e.getMessage().contains("unknown operation 'rule'"),
                e.getMessage());
    }

    @Test
    void aNodeWithoutUsersTakesAdminCommandsFromLoopbackOnly() throws Exception {
        InetAddress outside = LocalAddresses.nonLoopbackIpv4();
        assumeTrue(outside != null, "this machine has no non-loopback IPv4 address");
        node = PartitaNode.start(
                NodeConfig.defaults().withHost("0.0.0.0").withPort(0).withDataDir(dir.resolve("data")));
        try (Connection local = new PartitaConnectionFactory("tcp://127.0.0.1:" + node.port()).createConnection();
                Connection remote = new PartitaConnectionFactory(
                                "tcp://" + outside.getHostAddress() + ":" + node.port())
                        .createConnection()) {
            assertNotNull(PartitaAdmin.on(local).queues());
            JMSSecurityException e = assertThrows(
                    JMSSecurityException.class, () -> PartitaAdmin.on(remote).queues());
            assertTrue(e.getMessage().contains("own machine only"), e.getMessage());
            Session s = remote.createSession(false, Session.AUTO_ACKNOWLEDGE);
            s.createProducer(s.createQueue("open")).send(s.createTextMessage("messaging is as before"));
        }
    }
}
