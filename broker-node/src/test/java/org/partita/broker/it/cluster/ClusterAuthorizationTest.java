package org.partita.broker.it.cluster;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.embed.NodeStartException;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.protocol.auth.PasswordHash;

/**
 * Node links log in as {@code $node:<name>} with the cluster secret, not as users: with users and a
 * roles file that gives no node anything, messages of a clustered queue still cross the links both
 * ways (forwarded to the hosting node, relayed to a consumer elsewhere), while users stay bound by
 * their permissions.
 */
@Tag("slow")
class ClusterAuthorizationTest {
    @TempDir
    Path tmp;

    @Test
    void linksKeepWorkingUnderARolesFileThatGrantsNodesNothing() throws Exception {
        Path users = tmp.resolve("users.properties");
        Files.writeString(
                users,
                "alice = " + PasswordHash.create("pw".toCharArray()) + "\n" + "mallory = "
                        + PasswordHash.create("pw".toCharArray()) + "\n");
        Files.writeString(tmp.resolve("roles.properties"), """
                role app = alice
                allow app = send, consume, createQueue on machines
                """);
        NodeStartException noSecret = assertThrows(
                NodeStartException.class,
                () -> new EmbeddedCluster(tmp, 2, conf -> conf.withUsersFile(users)).start(0));
        assertTrue(noSecret.getMessage().contains("cluster.secret"), noSecret.getMessage());
        try (EmbeddedCluster c = new EmbeddedCluster(
                        tmp,
                        2,
                        conf -> conf.withUsersFile(users)
                                .withCluster(conf.cluster().withSecret("link-secret")))
                .startAll()) {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> c.node(0).cluster().status().format().contains("member.node2=up")
                            && c.node(1).cluster().status().format().contains("member.node1=up"));
            PartitaConnectionFactory onNode1 = c.factory(0);
            PartitaConnectionFactory onNode2 = c.factory(1);
            try (Connection consumerConn = onNode2.createConnection("alice", "pw");
                    Connection producerConn = onNode1.createConnection("alice", "pw")) {
                Session cs = consumerConn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageConsumer consumer = cs.createConsumer(cs.createQueue("machines?partitions=4&hosts=*"));
                consumerConn.start();
                Session ps = producerConn.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer p = ps.createProducer(ps.createQueue("machines"));
                int count = 40;
                for (int i = 0; i < count; i++) {
                    TextMessage m = ps.createTextMessage("m" + i);
                    m.setStringProperty("JMSXGroupID", "key-" + i);
                    p.send(m);
                }
                Set<String> got = new HashSet<>();
                for (int i = 0; i < count; i++) {
                    TextMessage m = (TextMessage) consumer.receive(10_000);
                    assertTrue(m != null, "received " + got.size() + " of " + count);
                    got.add(m.getText());
                }
                assertEquals(count, got.size(), "every partition, on either node, reached the consumer on node2");
            }
            try (Connection mallory = onNode1.createConnection("mallory", "pw")) {
                Session s = mallory.createSession(false, Session.AUTO_ACKNOWLEDGE);
                assertThrows(JMSSecurityException.class, () -> s.createConsumer(s.createQueue("machines")));
            }
            // a user cannot pose as a node: the name is taken only with the cluster's secret
            assertThrows(JMSSecurityException.class, () -> onNode1.createConnection("$node:node2", "guess"));
        }
    }
}
