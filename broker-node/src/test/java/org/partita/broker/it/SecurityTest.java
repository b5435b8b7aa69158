package org.partita.broker.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.JMSSecurityRuntimeException;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.ConfigException;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.protocol.auth.PasswordHash;

@Tag("slow")
class SecurityTest {
    @TempDir
    Path dir;

    private PartitaNode start(boolean allowAnonymous) throws Exception {
        Path users = dir.resolve("users.properties");
        Files.writeString(users, "# partita users\nalice = " + PasswordHash.create("s3cret".toCharArray()) + "\n");
        return PartitaNode.start(NodeConfig.defaults()
                .withPort(0)
                .withDataDir(dir.resolve("data"))
                .withUsersFile(users)
                .withAllowAnonymous(allowAnonymous));
    }

    @Test
    void rightCredentialsConnectAndWrongOnesGetJmsSecurityException() throws Exception {
        try (PartitaNode node = start(false)) {
            PartitaConnectionFactory cf = new PartitaConnectionFactory(node.url());
            try (Connection c = cf.createConnection("alice", "s3cret")) {
                c.start();
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                s.createProducer(s.createQueue("secured")).send(s.createTextMessage("hi"));
                assertEquals(
                        "hi",
                        ((TextMessage) s.createConsumer(s.createQueue("secured"))
                                        .receive(2000))
                                .getText());
            }
            assertThrows(JMSSecurityException.class, () -> cf.createConnection("alice", "wrong"));
            assertThrows(JMSSecurityException.class, () -> cf.createConnection("mallory", "s3cret"));
            assertThrows(JMSSecurityException.class, cf::createConnection, "anonymous connections are refused");
            assertThrows(JMSSecurityRuntimeException.class, () -> cf.createContext("alice", "wrong"));
            try (JMSContext ctx = cf.createContext("alice", "s3cret")) {
                ctx.createProducer().send(ctx.createQueue("secured"), "via context");
            }
        }
    }

    @Test
    void credentialsCanRideInTheUrlAndAnonymousIsANodeSetting() throws Exception {
        try (PartitaNode node = start(true)) {
            try (Connection c = new PartitaConnectionFactory(node.url()).createConnection()) {
                assertTrue(c.getMetaData().getJMSProviderName().contains("Partita"), "anonymous allowed by the node");
            }
            try (Connection c =
                    new PartitaConnectionFactory(node.url() + "?user=alice&password=s3cret").createConnection()) {
                c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            }
            assertThrows(
                    JMSSecurityException.class,
                    () -> new PartitaConnectionFactory(node.url() + "?user=alice&password=nope").createConnection());
        }
    }

    @Test
    void aBadUsersFileIsAConfigErrorNamingFileAndLine() throws Exception {
        Path users = dir.resolve("bad-users");
        Files.writeString(users, "alice = plain-text-password\n");
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> PartitaNode.start(NodeConfig.defaults()
                        .withPort(0)
                        .withDataDir(dir.resolve("data2"))
                        .withUsersFile(users)));
        assertTrue(e.getMessage().contains("bad-users:1"), e.getMessage());
    }

    @Test
    void passwordHashesAreSaltedAndVerify() {
        String a = PasswordHash.create("pw".toCharArray());
        String b = PasswordHash.create("pw".toCharArray());
        assertTrue(!a.equals(b), "a fresh salt each time");
        assertTrue(PasswordHash.parse(a).matches("pw".toCharArray()));
        assertTrue(!PasswordHash.parse(a).matches("pW".toCharArray()));
    }
}
