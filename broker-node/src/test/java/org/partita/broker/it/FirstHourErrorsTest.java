package org.partita.broker.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.JMSException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.broker.config.NodeConfig;
import org.partita.broker.embed.PartitaNode;
import org.partita.jms.api.PartitaAdmin;
import org.partita.jms.api.PartitaErrorCodes;
import org.partita.jms.client.PartitaConnectionFactory;

/**
 * The errors a new user meets first, each one line with a code that says what it is (never
 * {@code INTERNAL}): no node at the address, something there that is no Partita node (said within the
 * greeting bound, not the whole connect timeout), {@code ssl://}
 * for a node that takes plain connections, and a bad option value given to an admin command.
 */
@Tag("slow")
@Timeout(60)
class FirstHourErrorsTest {
    @TempDir
    Path tmp;

    private PartitaNode node;

    @BeforeEach
    void start() {
        node = PartitaNode.start(NodeConfig.defaults().withPort(0).withDataDir(tmp.resolve("node")));
    }

    @AfterEach
    void stop() {
        node.close();
    }

    private static void oneLine(JMSException e) {
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
        assertTrue(e.getMessage().length() < 300, "short: " + e.getMessage());
    }

    @Test
    void aPortWhereNothingListensIsANodeUnreachable() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        JMSException e = assertThrows(
                JMSException.class, () -> new PartitaConnectionFactory("tcp://127.0.0.1:" + closed).createConnection());
        assertEquals(PartitaErrorCodes.NODE_UNREACHABLE, e.getErrorCode(), e.getMessage());
        assertTrue(e.getMessage().contains("127.0.0.1:" + closed), e.getMessage());
        oneLine(e);
    }

    @Test
    void somethingSilentThatIsNoNodeIsSaidSoWellWithinTheConnectTimeout() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread accepting = new Thread(() -> {
                try (Socket s = silent.accept()) {
                    s.getInputStream().readAllBytes(); // listens, answers nothing
                } catch (Exception ignored) {
                    // the client gave up
                }
            });
            accepting.setDaemon(true);
            accepting.start();
            // the default connectTimeout, 10 s: the node's greeting is what is waited for, 3 s by default
            long start = System.nanoTime();
            JMSException e = assertThrows(
                    JMSException.class,
                    () -> new PartitaConnectionFactory("tcp://127.0.0.1:" + silent.getLocalPort()).createConnection());
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertEquals(PartitaErrorCodes.NOT_A_NODE, e.getErrorCode(), e.getMessage());
            assertEquals(
                    "no Partita node at 127.0.0.1:" + silent.getLocalPort()
                            + ": nothing answered the handshake within greetingTimeout (3000 ms); what listens there"
                            + " is no Partita node, or a node that is paused",
                    e.getMessage());
            assertTrue(millis < 5_000, "said after " + millis + " ms, not within half the 10 s connectTimeout");
            oneLine(e);
        }
    }

    @Test
    void sslForAPlainNodeSaysToConnectWithTcp() {
        JMSException e = assertThrows(
                JMSException.class,
                () -> new PartitaConnectionFactory("ssl://127.0.0.1:" + node.port() + "?connectTimeout=5000")
                        .createConnection());
        assertEquals(PartitaErrorCodes.TLS_FAILED, e.getErrorCode(), e.getMessage());
        assertTrue(e.getMessage().contains("does not speak TLS: connect with tcp://"), e.getMessage());
        assertFalse(e.getMessage().matches(".*[0-9a-f]{32}.*"), "no hex dump of the bytes received: " + e.getMessage());
        oneLine(e);
    }

    @Test
    void aBadOptionValueOfAnAdminCommandIsAnInvalidRequest() throws Exception {
        try (PartitaAdmin admin = PartitaAdmin.connect(new PartitaConnectionFactory(node.url()))) {
            admin.updateQueue("first-hour", Map.of("partitions", "2"));
            JMSException e =
                    assertThrows(JMSException.class, () -> admin.updateQueue("first-hour", Map.of("partitions", "-1")));
            assertEquals("INVALID_REQUEST", e.getErrorCode(), e.getMessage());
            assertTrue(e.getMessage().contains("partitions"), e.getMessage());
            oneLine(e);
        }
    }
}
