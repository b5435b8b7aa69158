package org.partita.broker.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.cluster.FreePorts;
import org.partita.broker.config.ClusterConfig;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.config.SecuritySettings;
import org.partita.broker.config.TlsSettings;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.client.PartitaConnectionFactory;
import org.partita.protocol.auth.PasswordHash;

/** Docs/security.md, point 12: TLS on the node's port and its cluster links, with real handshakes on 127.0.0.1. */
@Tag("slow")
class TlsTest {
    private static final String PASS = "changeit";
    private static final String SECRET = "s3cret-password-42";

    @TempDir
    Path dir;

    private Path nodeKeys;
    private Path nodeTrust;
    private Path clientKeys;
    private Path clientTrust;

    /** Key pairs made with the JDK's keytool: the node's (for 127.0.0.1 and localhost) and a client's, each trusting the other. */
    @BeforeEach
    void keys() throws Exception {
        nodeKeys = dir.resolve("node.p12");
        clientKeys = dir.resolve("client.p12");
        Keytool.keyPair(nodeKeys, "node", "CN=localhost", PASS);
        Keytool.keyPair(clientKeys, "client", "CN=orders-app", PASS);
        Path nodeCert = dir.resolve("node.crt");
        Path clientCert = dir.resolve("client.crt");
        Keytool.run(
                "-exportcert",
                "-alias",
                "node",
                "-keystore",
                nodeKeys.toString(),
                "-storepass",
                PASS,
                "-file",
                nodeCert.toString());
        Keytool.run(
                "-exportcert",
                "-alias",
                "client",
                "-keystore",
                clientKeys.toString(),
                "-storepass",
                PASS,
                "-file",
                clientCert.toString());
        clientTrust = dir.resolve("client-trust.p12");
        Keytool.run(
                "-importcert",
                "-noprompt",
                "-alias",
                "node",
                "-file",
                nodeCert.toString(),
                "-keystore",
                clientTrust.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                PASS);
        nodeTrust = dir.resolve("node-trust.p12"); // clients, and the other nodes of a cluster (same key here)
        Keytool.run(
                "-importcert",
                "-noprompt",
                "-alias",
                "client",
                "-file",
                clientCert.toString(),
                "-keystore",
                nodeTrust.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                PASS);
        Keytool.run(
                "-importcert",
                "-noprompt",
                "-alias",
                "node",
                "-file",
                nodeCert.toString(),
                "-keystore",
                nodeTrust.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                PASS);
    }

    private TlsSettings tls() {
        return TlsSettings.of(nodeKeys, PASS).withTrustStore(nodeTrust, PASS);
    }

    private PartitaNode start(TlsSettings tls) throws Exception {
        return start(NodeConfig.defaults(), tls);
    }

    private PartitaNode start(NodeConfig base, TlsSettings tls) throws Exception {
        Path users = dir.resolve("users.properties");
        Files.writeString(users, "alice = " + PasswordHash.create(SECRET.toCharArray()) + "\n");
        Path roles = dir.resolve("roles.properties"); // alice may do everything, reading the metrics port included
        Files.writeString(roles, "role admins = alice\nallow admins = all on >\n");
        return PartitaNode.start(base.withPort(0)
                .withDataDir(dir.resolve("data"))
                .withUsersFile(users)
                .withSecurity(SecuritySettings.defaults().withRolesFile(roles).withTls(tls)));
    }

    private String ssl(int port) {
        return "ssl://127.0.0.1:" + port + "?trustStore=" + clientTrust + "&trustStorePassword=" + PASS;
    }

    private static void roundTrip(Connection c, String queue) throws JMSException {
        c.start();
        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        s.createProducer(s.createQueue(queue)).send(s.createTextMessage("over " + queue));
        assertEquals(
                "over " + queue,
                ((TextMessage) s.createConsumer(s.createQueue(queue)).receive(5_000)).getText());
    }

    @Test
    void theLoginAndMessagesCrossTheWireEncrypted() throws Exception {
        try (PartitaNode node = start(tls());
                Relay relay = new Relay(node.port())) {
            try (Connection c = new PartitaConnectionFactory(ssl(relay.port())).createConnection("alice", SECRET)) {
                roundTrip(c, "tls-queue");
            }
            assertFalse(relay.seen().contains(SECRET), "the password is not readable on the wire");
            assertFalse(relay.seen().contains("over tls-queue"), "nor are messages");
            // the same relay does see them over plain TCP (from loopback, which plaintext is open to by default)
            relay.clear();
            try (Connection c =
                    new PartitaConnectionFactory("tcp://127.0.0.1:" + relay.port()).createConnection("alice", SECRET)) {
                roundTrip(c, "plain-queue");
            }
            assertTrue(relay.seen().contains(SECRET), "control: plain TCP carries the password readable");
        }
    }

    @Test
    void withTlsTheMetricsPortSpeaksHttpsOnlySoItsPasswordsAreNotReadable() throws Exception {
        try (PartitaNode node = start(NodeConfig.defaults().withMetricsPort(0), tls())) {
            KeyStore trust = KeyStore.getInstance(clientTrust.toFile(), PASS.toCharArray());
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(null, tmf.getTrustManagers(), null);
            HttpClient https = HttpClient.newBuilder()
                    .sslContext(ssl)
                    .connectTimeout(Duration.ofSeconds(10))
                    .build();
            String auth =
                    "Basic " + Base64.getEncoder().encodeToString(("alice:" + SECRET).getBytes(StandardCharsets.UTF_8));
            HttpResponse<String> scrape = https.send(
                    HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + node.metricsPort() + "/metrics"))
                            .header("Authorization", auth)
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, scrape.statusCode());
            assertTrue(scrape.body().contains("partita_"), "the figures, over HTTPS");
            HttpClient plain = HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(10))
                    .build();
            assertThrows(
                    java.io.IOException.class,
                    () -> plain.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.metricsPort() + "/metrics"))
                                    .header("Authorization", auth)
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString()),
                    "plain HTTP, which would carry the password readable, is not spoken");
        }
    }

    @Test
    void aClientMustTrustTheNodeAndTheCertificateMustNameTheHost() throws Exception {
        try (PartitaNode node = start(tls())) {
            JMSException untrusted = assertThrows(
                    JMSException.class,
                    () -> new PartitaConnectionFactory("ssl://127.0.0.1:" + node.port())
                            .createConnection("alice", SECRET)
                            .close());
            System.out.println("without trust: " + untrusted.getMessage());
            try (Connection c = new PartitaConnectionFactory(ssl(node.port()).replace("127.0.0.1", "localhost"))
                    .createConnection("alice", SECRET)) {
                roundTrip(c, "by-name");
            }
            // a failover list may mix TLS and plain nodes: the dead plain node is passed over for the TLS one
            int dead = FreePorts.pairs(1, 1).get(0);
            try (Connection c = new PartitaConnectionFactory("tcp://127.0.0.1:" + dead + "," + ssl(node.port()))
                    .createConnection("alice", SECRET)) {
                roundTrip(c, "mixed");
            }
        }
    }

    @Test
    void plaintextIsForLoopbackByDefaultAndCanBeTurnedOff() throws Exception {
        try (PartitaNode node = start(tls().withPlaintext(TlsSettings.Plaintext.OFF))) {
            JMSSecurityException e = assertThrows(
                    JMSSecurityException.class,
                    () -> new PartitaConnectionFactory("tcp://127.0.0.1:" + node.port())
                            .createConnection("alice", SECRET));
            assertTrue(e.getMessage().contains("TLS connections only"), e.getMessage());
            try (Connection c = new PartitaConnectionFactory(ssl(node.port())).createConnection("alice", SECRET)) {
                roundTrip(c, "tls-only");
            }
        }
    }

    @Test
    void clientCertificatesWhenTheNodeNeedsThem() throws Exception {
        try (PartitaNode node = start(tls().withClientAuth(TlsSettings.ClientAuth.NEED))) {
            assertThrows(
                    JMSException.class,
                    () -> new PartitaConnectionFactory(ssl(node.port()))
                            .createConnection("alice", SECRET)
                            .close());
            String withCert = ssl(node.port()) + "&keyStore=" + clientKeys + "&keyStorePassword=" + PASS;
            try (Connection c = new PartitaConnectionFactory(withCert).createConnection("alice", SECRET)) {
                roundTrip(c, "client-cert");
            }
        }
    }

    @Test
    void trustAndClientCertificateGivenInCodeInsteadOfStoreFiles() throws Exception {
        try (PartitaNode node = start(tls().withClientAuth(TlsSettings.ClientAuth.NEED))) {
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(KeyStore.getInstance(clientTrust.toFile(), PASS.toCharArray()));
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(KeyStore.getInstance(clientKeys.toFile(), PASS.toCharArray()), PASS.toCharArray());
            PartitaConnectionFactory f = new PartitaConnectionFactory("ssl://127.0.0.1:" + node.port());
            f.setTrustManagerFactory(trust);
            assertThrows(
                    JMSException.class,
                    () -> f.createConnection("alice", SECRET).close(),
                    "trusted, but without the client certificate the node needs");
            f.setKeyManagerFactory(keys);
            try (Connection c = f.createConnection("alice", SECRET)) {
                roundTrip(c, "managers-in-code");
            }
            // material from two places would leave one silently unused: refused, naming both
            PartitaConnectionFactory both = new PartitaConnectionFactory(ssl(node.port()));
            both.setTrustManagerFactory(trust);
            JMSException e = assertThrows(JMSException.class, () -> both.createConnection("alice", SECRET));
            assertTrue(e.getMessage().contains("trustStore or keyStore"), e.getMessage());
            assertTrue(e.getMessage().contains("setTrustManagerFactory"), e.getMessage());
        }
    }

    @Test
    void clientCertificatesWhenTheNodeWantsThem() throws Exception {
        try (PartitaNode node = start(tls().withClientAuth(TlsSettings.ClientAuth.WANT))) {
            try (Connection c = new PartitaConnectionFactory(ssl(node.port())).createConnection("alice", SECRET)) {
                roundTrip(c, "no-client-cert");
            }
            String withCert = ssl(node.port()) + "&keyStore=" + clientKeys + "&keyStorePassword=" + PASS;
            try (Connection c = new PartitaConnectionFactory(withCert).createConnection("alice", SECRET)) {
                roundTrip(c, "trusted-client-cert");
            }
        }
    }

    @Test
    void byDefaultPlaintextFromAnotherAddressIsRefused() throws Exception {
        InetAddress outside = LocalAddresses.nonLoopbackIpv4();
        assumeTrue(outside != null, "this machine has no non-loopback IPv4 address");
        try (PartitaNode node = start(NodeConfig.defaults().withHost("0.0.0.0"), tls())) {
            JMSSecurityException e = assertThrows(
                    JMSSecurityException.class,
                    () -> new PartitaConnectionFactory("tcp://" + outside.getHostAddress() + ":" + node.port())
                            .createConnection("alice", SECRET));
            assertTrue(e.getMessage().contains("plaintext connections from its own machine only"), e.getMessage());
            try (Connection c =
                    new PartitaConnectionFactory("tcp://127.0.0.1:" + node.port()).createConnection("alice", SECRET)) {
                roundTrip(c, "plain-from-loopback");
            }
        }
    }

    @Test
    void clusterNodesLinkOverTls() throws Exception {
        List<PartitaNode> nodes = new ArrayList<>();
        int[] tries = {0};
        try {
            // started over on new ports should one be taken between its pick and its bind
            FreePorts.startOnFreePorts(2, ClusterConfig.DEFAULT_CONSENSUS_PORT_OFFSET, ports -> {
                Path folder = dir.resolve("try" + ++tries[0]);
                ClusterConfig cluster = ClusterConfig.of(
                                "tls",
                                List.of(
                                        new ClusterConfig.Member("node1", "127.0.0.1", ports.get(0)),
                                        new ClusterConfig.Member("node2", "127.0.0.1", ports.get(1))))
                        .withHeartbeat(200, 2_000);
                try {
                    for (int i = 0; i < 2; i++) {
                        // plaintext off: the links can only come up over TLS
                        nodes.add(PartitaNode.start(NodeConfig.defaults()
                                .withNodeName("node" + (i + 1))
                                .withPort(ports.get(i))
                                .withDataDir(folder.resolve("n" + i))
                                .withCluster(cluster)
                                .withSecurity(SecuritySettings.defaults()
                                        .withTls(tls().withPlaintext(TlsSettings.Plaintext.OFF)))));
                    }
                } catch (RuntimeException e) {
                    nodes.forEach(PartitaNode::close);
                    nodes.clear();
                    throw e;
                }
                return nodes;
            });
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> nodes.get(0).cluster().status().format().contains("member.node2=up")
                            && nodes.get(1).cluster().status().format().contains("member.node1=up"));
        } finally {
            for (PartitaNode n : nodes) {
                n.close();
            }
        }
    }

    /** A TCP relay on loopback that keeps what clients send, as someone on the network would see it. */
    private static final class Relay implements AutoCloseable {
        private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final ByteArrayOutputStream seen = new ByteArrayOutputStream();
        private final List<Socket> sockets = new ArrayList<>();

        Relay(int target) throws Exception {
            Thread accept = new Thread(
                    () -> {
                        while (!server.isClosed()) {
                            try {
                                Socket client = server.accept();
                                Socket node = new Socket(InetAddress.getLoopbackAddress(), target);
                                synchronized (sockets) {
                                    sockets.add(client);
                                    sockets.add(node);
                                }
                                pump(client.getInputStream(), node.getOutputStream(), true);
                                pump(node.getInputStream(), client.getOutputStream(), false);
                            } catch (Exception closed) {
                                return;
                            }
                        }
                    },
                    "relay");
            accept.setDaemon(true);
            accept.start();
        }

        private void pump(InputStream in, OutputStream out, boolean keep) {
            Thread t = new Thread(
                    () -> {
                        byte[] buf = new byte[8192];
                        try {
                            for (int n; (n = in.read(buf)) > 0; ) {
                                if (keep) {
                                    synchronized (seen) {
                                        seen.write(buf, 0, n);
                                    }
                                }
                                out.write(buf, 0, n);
                            }
                            out.close();
                        } catch (Exception closed) {
                            // one side ended
                        }
                    },
                    "relay-pump");
            t.setDaemon(true);
            t.start();
        }

        int port() {
            return server.getLocalPort();
        }

        String seen() {
            synchronized (seen) {
                return seen.toString(StandardCharsets.ISO_8859_1);
            }
        }

        void clear() {
            synchronized (seen) {
                seen.reset();
            }
        }

        @Override
        public void close() throws Exception {
            server.close();
            synchronized (sockets) {
                for (Socket s : sockets) {
                    s.close();
                }
            }
        }
    }
}
