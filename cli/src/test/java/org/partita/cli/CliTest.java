package org.partita.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.client.PartitaConnectionFactory;

/** The CLI against a real embedded node: what an operator types, what it prints, what it exits with. */
@Tag("slow")
@Timeout(60)
class CliTest {
    @TempDir
    Path dir;

    PartitaNode node;

    record Run(int code, String out, String err) {
        List<String> lines() {
            return List.of(out.split("\n"));
        }
    }

    @BeforeEach
    void start() {
        node = PartitaNode.start(NodeConfig.defaults().withPort(0).withDataDir(dir.resolve("data")));
    }

    @AfterEach
    void stop() {
        node.close();
    }

    Run cli(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--url");
        all.add(node.url());
        return raw(all.toArray(String[]::new));
    }

    static Run raw(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = PartitaCli.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(code, out.toString(), err.toString());
    }

    private void send(String queue, int n) throws Exception {
        try (Connection c = new PartitaConnectionFactory(node.url()).createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(s.createQueue(queue));
            for (int i = 0; i < n; i++) {
                Message m = s.createTextMessage("hello " + i);
                m.setStringProperty("JMSXGroupID", "key-" + i);
                p.send(m);
            }
        }
    }

    @Test
    void createListStatUpdatePurgeAndDeleteAQueue() throws Exception {
        Run created = cli("queue", "create", "orders", "-o", "partitions=4", "-o", "maxDeliveryAttempts=5");
        assertEquals(0, created.code(), created.err());
        assertTrue(
                created.out().contains("created queue orders") && created.out().contains("partitions=4"),
                created.out());
        assertEquals(1, cli("queue", "create", "orders").code(), "creating it twice is refused");

        send("orders", 6);
        Run list = cli("queue", "list");
        assertEquals(0, list.code(), list.err());
        assertTrue(
                list.lines().get(0).startsWith("QUEUE") && list.lines().get(0).contains("WAITING"), list.out());
        String row = list.lines().stream()
                .filter(l -> l.startsWith("orders "))
                .findFirst()
                .orElseThrow();
        assertTrue(row.matches("orders\\s+priority\\s+4\\s+6\\s+0\\s+0\\s+\\d+\\s+.*"), row);

        Run stat = cli("queue", "stat", "orders", "--json");
        assertEquals(0, stat.code(), stat.err());
        assertTrue(
                stat.out().contains("\"depth\": 6")
                        && stat.out().contains("\"enqueued\": 6")
                        && stat.out().contains("\"oldestAgeMillis\""),
                stat.out());

        Run update = cli("queue", "update", "orders", "-o", "maxDeliveryAttempts=7");
        assertEquals(0, update.code(), update.err());
        assertTrue(update.out().contains("maxDeliveryAttempts=7"), update.out());
        assertEquals(
                4, cli("queue", "update", "ghost", "-o", "partitions=2").code(), "no queue is created by an update");

        Run partitions = cli("partitions", "orders");
        assertEquals(0, partitions.code(), partitions.err());
        assertEquals(5, partitions.lines().size(), "a heading and four partitions: " + partitions.out());

        Run purge = cli("queue", "purge", "orders");
        assertEquals("purged 6 messages from orders", purge.out().strip());
        Run delete = cli("queue", "delete", "orders");
        assertEquals(0, delete.code(), delete.err());
        Run gone = cli("queue", "stat", "orders");
        assertEquals(4, gone.code());
        assertEquals(1, gone.err().strip().lines().count(), "one line: " + gone.err());
        assertTrue(gone.err().startsWith("partita: queue 'orders' does not exist"), gone.err());
    }

    @Test
    void browseConsumersConnectionsSubscriptionsAndNodeStatus() throws Exception {
        send("work", 3);
        Run browse = cli("queue", "browse", "work");
        assertEquals(0, browse.code(), browse.err());
        assertEquals(4, browse.lines().size(), browse.out());
        assertTrue(browse.out().contains("hello 0") && browse.out().contains("key-2"), browse.out());

        try (Connection c = new PartitaConnectionFactory(node.url()).createConnection()) {
            c.setClientID("watcher");
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = s.createConsumer(s.createQueue("work"));
            s.createDurableSubscriber(s.createTopic("alerts/>"), "pager");
            c.start();
            for (int i = 0; i < 3; i++) {
                assertTrue(consumer.receive(5000) != null);
            }
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                Run consumers = cli("consumers", "work", "--json");
                assertTrue(consumers.out().contains("\"acknowledged\": 3"), consumers.out());
            });
            Run conns = cli("connections");
            assertTrue(conns.out().contains("watcher"), conns.out());
            Run subs = cli("subscriptions");
            assertTrue(
                    subs.out().contains("durable:watcher:pager") && subs.out().contains("alerts/>"), subs.out());
        }
        Run status = cli("node", "status");
        assertEquals(0, status.code(), status.err());
        assertTrue(
                status.out().contains("node:")
                        && status.out().contains("node1")
                        && status.out().contains("authentication:"),
                status.out());
    }

    @Test
    void partitionsNamesEachPartitionsOwnerConsumerAndItsAddress() throws Exception {
        assertEquals(0, cli("queue", "create", "keyed", "-o", "partitions=4").code());
        try (Connection c = new PartitaConnectionFactory(node.url()).createConnection()) {
            c.setClientID("owners");
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            s.createConsumer(s.createQueue("keyed"));
            s.createConsumer(s.createQueue("keyed"));
            c.start();
            // the connection's address as the node sees it, from the connections table
            String from = cli("connections", "--json").lines().stream()
                    .filter(l -> l.contains("\"connection\""))
                    .map(l -> l.replaceAll(".*\"connection\": \"([^\"]+)\".*", "$1"))
                    .findFirst()
                    .orElseThrow();
            java.util.regex.Pattern row = java.util.regex.Pattern.compile("\\s*(\\d)\\s+ASSIGNED\\s+(consumer \\d+ of /"
                    + java.util.regex.Pattern.quote(from) + ")\\s+0\\s+0\\s.*");
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                Run partitions = cli("partitions", "keyed");
                assertEquals(0, partitions.code(), partitions.err());
                List<String> lines = partitions.lines();
                assertTrue(
                        lines.get(0).matches("PARTITION\\s+STATE\\s+OWNER\\s+WAITING\\s+IN FLIGHT\\s.*"),
                        partitions.out());
                assertEquals(5, lines.size(), partitions.out());
                java.util.Set<String> owners = new java.util.HashSet<>();
                for (int p = 0; p < 4; p++) {
                    java.util.regex.Matcher m = row.matcher(lines.get(p + 1));
                    assertTrue(
                            m.matches(),
                            "partition " + p + " owned by a consumer of " + from + ": " + partitions.out());
                    assertEquals(Integer.toString(p), m.group(1));
                    owners.add(m.group(2));
                }
                assertEquals(2, owners.size(), "two consumers, two partitions each: " + partitions.out());
            });
        }
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            Run alone = cli("partitions", "keyed");
            assertTrue(
                    alone.lines().stream()
                            .skip(1)
                            .allMatch(l -> l.matches("\\s*\\d\\s+UNASSIGNED\\s+-?\\s*0\\s+0\\s.*")),
                    "no owner once the consumers left: " + alone.out());
        });
    }

    @Test
    void anAppIdQueueIsBrowsedByItsName() throws Exception {
        assertEquals(
                0,
                cli("queue", "create", "events", "-o", "mode=fanout", "-o", "appIds=billing,audit")
                        .code());
        send("events", 2);
        Run billing = cli("queue", "browse", "events#billing");
        assertEquals(0, billing.code(), billing.err());
        assertEquals(3, billing.lines().size(), "a heading and the two messages: " + billing.out());
        Run stat = cli("queue", "stat", "events#audit", "--json");
        assertTrue(stat.out().contains("\"depth\": 2"), stat.out());
    }

    @Test
    void deadLettersAreListedAndMovedBack() throws Exception {
        try (Connection c = new PartitaConnectionFactory(node.url()).createConnection()) {
            Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            s.createProducer(s.createQueue("jobs?maxDeliveryAttempts=1")).send(s.createTextMessage("poison"));
            c.start();
            MessageConsumer consumer = s.createConsumer(s.createQueue("jobs"));
            assertTrue(consumer.receive(5000) != null);
            s.recover();
            consumer.close();
        }
        await().atMost(Duration.ofSeconds(10))
                .until(() -> cli("dlq", "list").out().contains("poison"));
        Run list = cli("dlq", "list");
        assertTrue(list.out().contains("queue:jobs"), "the destination it was sent to: " + list.out());
        List<String> lines = list.lines();
        assertTrue(
                lines.get(0).matches("MESSAGE ID\\s+FROM\\s+DELIVERIES\\s+REASON\\s+DEAD-LETTERED AT\\s+SENT TO\\s.*"),
                "the queue it came from, its deliveries there, why and when: " + lines.get(0));
        assertTrue(
                lines.get(1)
                        .matches(
                                "ID:\\S+\\s+jobs\\s+1\\s+maxDeliveryAttempts 1 reached\\s+20\\d\\d-\\S+Z\\s+queue:jobs\\S*\\s.*"),
                lines.get(1));
        Run json = cli("dlq", "list", "--output", "json");
        assertTrue(
                json.out().contains("\"originalDestination\": \"jobs\"")
                        && json.out().contains("\"originalDeliveryCount\": 1")
                        && json.out().contains("\"deadLetterReason\": \"maxDeliveryAttempts 1 reached\"")
                        && json.out().contains("\"deadLetteredAt\": \"20"),
                json.out());
        Run move = cli("dlq", "move");
        assertEquals(0, move.code(), move.err());
        assertTrue(move.out().startsWith("moved 1 messages from DLQ back to their queues"), move.out());
        assertTrue(cli("queue", "browse", "jobs").out().contains("poison"));
        assertTrue(cli("dlq", "list").out().contains("no messages in DLQ"));
    }

    @Test
    void exitCodesTellFailuresApart() {
        Run unreachable = raw("queue", "list", "--url", "tcp://127.0.0.1:1");
        assertEquals(ExitCodes.UNREACHABLE, unreachable.code(), unreachable.err());
        assertTrue(
                unreachable.err().startsWith("partita: cannot use the node at tcp://127.0.0.1:1"), unreachable.err());
        Run usage = cli("queue", "frobnicate");
        assertEquals(ExitCodes.USAGE, usage.code());
        assertTrue(usage.err().startsWith("partita: "), usage.err());
        Run badOption = cli("queue", "create", "q", "-o", "partitions=many");
        assertEquals(ExitCodes.REFUSED, badOption.code());
        assertTrue(badOption.err().contains("partitions"), badOption.err());
        assertFalse(cli("queue", "list").out().contains("q "), "nothing was created");
    }

    @Test
    void everyCommandAndSubcommandShowsItsHelp() {
        for (String[] form : new String[][] {
            {"--help"},
            {"-h"},
            {"queue", "--help"},
            {"queue", "list", "--help"},
            {"queue", "create", "-h"},
            {"dlq", "move", "--help"},
            {"cluster", "status", "--help"},
            {"help", "queue"},
            {"help", "queue", "create"},
            {"help"}
        }) {
            Run help = raw(form);
            assertEquals(0, help.code(), String.join(" ", form) + ": " + help.err());
            assertTrue(help.out().startsWith("Usage: partita"), String.join(" ", form) + ": " + help.out());
        }
        assertTrue(
                raw("queue", "create", "--help").out().contains("--option"), "the subcommand's own options are listed");
        assertTrue(raw("help", "queue", "list").out().contains("--url"), "and the node options it inherits");
    }

    @Test
    void nodeOptionsGoAnywhereOnTheLine() {
        assertEquals(0, cli("queue", "create", "anywhere").code());
        for (String[] form : new String[][] {
            {"--url", node.url(), "queue", "list"},
            {"queue", "--url", node.url(), "list"},
            {"queue", "list", "--url", node.url()}
        }) {
            Run list = raw(form);
            assertEquals(0, list.code(), String.join(" ", form) + ": " + list.err());
            assertTrue(list.out().contains("anywhere"), list.out());
        }
        Run json = raw("--output", "json", "queue", "stat", "anywhere", "--url", node.url());
        assertEquals(0, json.code(), json.err());
        assertTrue(json.out().strip().startsWith("{") && json.out().contains("\"anywhere\""), json.out());
    }

    @Test
    void aFreshNodesDeadLetterQueueIsAnEmptyListing() {
        Run dlq = cli("dlq", "list");
        assertEquals(0, dlq.code(), dlq.err());
        assertEquals("no messages in DLQ", dlq.out().strip());
        Run named = cli("dlq", "list", "--queue", "no-such-dlq");
        assertEquals(
                ExitCodes.NOT_FOUND, named.code(), "a dead-letter queue named on purpose must exist: " + named.err());
    }

    @Test
    void aMalformedUrlIsAUsageError() {
        Run bad = raw("queue", "list", "--url", "tcp://127.0.0.1:61700?prefetsh=1");
        assertEquals(ExitCodes.USAGE, bad.code(), bad.err());
        assertTrue(bad.err().startsWith("partita: connection URL") && bad.err().contains("prefetsh"), bad.err());
        assertEquals(1, bad.err().strip().lines().count(), "one line: " + bad.err());
    }

    @Test
    void shellCompletionIsGenerated() {
        Run completion = raw("generate-completion");
        assertEquals(0, completion.code(), completion.err());
        assertTrue(completion.out().contains("complete") && completion.out().contains("partita"), completion.out());
    }

    @Test
    void userHashPrintsALineTheNodeAccepts() throws Exception {
        java.io.InputStream stdin = System.in;
        try {
            System.setIn(new java.io.ByteArrayInputStream("s3cret\n".getBytes()));
            Run hash = raw("user", "hash", "alice");
            assertEquals(0, hash.code(), hash.err());
            assertTrue(hash.out().startsWith("alice = pbkdf2-sha256:"), hash.out());
            Path users = dir.resolve("users.properties");
            java.nio.file.Files.writeString(users, hash.out());
            // admin commands need the manage permission: a roles file beside the users file gives it
            java.nio.file.Files.writeString(
                    dir.resolve("roles.properties"), "role admins = alice\nallow admins = manage on >\n");
            try (PartitaNode secured = PartitaNode.start(NodeConfig.defaults()
                    .withPort(0)
                    .withDataDir(dir.resolve("d2"))
                    .withUsersFile(users))) {
                String url = secured.url();
                Run ok = raw("node", "status", "--url", url, "--user", "alice", "--password", "s3cret");
                assertEquals(0, ok.code(), ok.err());
                assertTrue(ok.out().matches("(?s).*\\nauthentication: +on\\n.*"), ok.out());
                Run wrong = raw("node", "status", "--url", url, "--user", "alice", "--password", "nope");
                assertEquals(ExitCodes.AUTHENTICATION, wrong.code(), wrong.err());
            }
        } finally {
            System.setIn(stdin);
        }
        assertEquals(ExitCodes.USAGE, raw("user", "hash", "a=b").code());
    }

    @Test
    void clusterStatusOnANodeOfItsOwnIsRefusedInOneLine() {
        Run status = cli("cluster", "status");
        assertEquals(1, status.code(), status.out() + status.err());
        assertTrue(
                status.err().contains("not a member of a cluster")
                        && status.err().strip().lines().count() == 1,
                status.err());
    }

    @Test
    void clusterStatusShowsTheMembersAndWhereEachPartitionLives() throws Exception {
        List<Integer> ports = new ArrayList<>();
        while (ports.size() < 2) {
            int p;
            try (java.net.ServerSocket socket =
                    new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                p = socket.getLocalPort();
            }
            int consensus = p + org.partita.broker.config.ClusterConfig.DEFAULT_CONSENSUS_PORT_OFFSET;
            if (consensus < 65536 && !ports.contains(p)) {
                try (java.net.ServerSocket socket =
                        new java.net.ServerSocket(consensus, 1, java.net.InetAddress.getLoopbackAddress())) {
                    ports.add(p);
                } catch (java.io.IOException busy) {
                    // another port
                }
            }
        }
        org.partita.broker.config.ClusterConfig cluster = org.partita.broker.config.ClusterConfig.of(
                "ops",
                List.of(
                        new org.partita.broker.config.ClusterConfig.Member("a", "127.0.0.1", ports.get(0)),
                        new org.partita.broker.config.ClusterConfig.Member("b", "127.0.0.1", ports.get(1))));
        List<PartitaNode> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                String name = i == 0 ? "a" : "b";
                nodes.add(PartitaNode.start(NodeConfig.defaults()
                        .withNodeName(name)
                        .withPort(ports.get(i))
                        .withDataDir(dir.resolve("cluster-" + name))
                        .withCluster(cluster)));
            }
            String url = nodes.get(1).url();
            org.awaitility.Awaitility.await()
                    .atMost(java.time.Duration.ofSeconds(30))
                    .until(() -> raw("queue", "create", "spread", "-o", "partitions=4", "-o", "hosts=*", "--url", url)
                                    .code()
                            == 0);
            // the node that took the change may hear its commit a moment after answering, and each
            // partition's replica set (two replicas here, by default) elects its leader after that
            org.awaitility.Awaitility.await()
                    .atMost(java.time.Duration.ofSeconds(30))
                    .until(() -> raw("cluster", "status", "--url", url, "--json")
                            .out()
                            .contains("\"queue.spread.partition.1.host\": \"b\""));
            Run status = raw("cluster", "status", "--url", url, "--json");
            assertEquals(0, status.code(), status.err());
            assertTrue(
                    status.out().contains("\"member.a\": \"up")
                            && status.out().contains("\"queue.spread.partition.1.host\": \"b\"")
                            && status.out().contains("\"queue.spread.partition.1.replicas\": \"b,a\""),
                    status.out());
        } finally {
            for (int i = nodes.size() - 1; i >= 0; i--) {
                nodes.get(i).close();
            }
        }
    }
}
